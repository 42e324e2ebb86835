/*
 * CPU time of this JVM's threads by name (digits folded), for finding the service's hot spots in a
 * benchmark run (-Dbench.threadCpu=true). Read from /proc/self/task, so the JVM's own threads
 * (garbage collection, JIT compilers), which ThreadMXBean does not list, are counted too; names
 * are the kernel's (15 characters at most) and times are in clock ticks (10 ms).
 */
package io.drivequal.service.ingest.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

final class ThreadCpu {

	/** USER_HZ: the unit of utime and stime in /proc/[pid]/task/[tid]/stat on Linux. */
	private static final long NANOS_PER_TICK = 10_000_000;

	private ThreadCpu() {
	}

	static Map<String, Long> snapshot() {
		Map<String, Long> byName = new HashMap<>();
		try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
			tasks.forEach((task) -> {
				String stat;
				try {
					stat = Files.readString(task.resolve("stat"));
				}
				catch (IOException ex) {
					return; // the thread ended meanwhile
				}
				// pid (comm) state ppid ...: comm may hold spaces and parentheses, so
				// split at the last ')'
				int open = stat.indexOf('(');
				int close = stat.lastIndexOf(')');
				String[] fields = stat.substring(close + 2).split(" ");
				// after comm: fields[0] is state (field 3), utime is field 14 and stime
				// field 15
				long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
				if (ticks > 0) {
					byName.merge(stat.substring(open + 1, close).replaceAll("\\d+", "N"), ticks * NANOS_PER_TICK,
							Long::sum);
				}
			});
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read /proc/self/task", ex);
		}
		return byName;
	}

	static String since(Map<String, Long> before) {
		Map<String, Long> now = snapshot();
		StringBuilder out = new StringBuilder();
		now.entrySet()
			.stream()
			.map((e) -> Map.entry(e.getKey(), (e.getValue() - before.getOrDefault(e.getKey(), 0L)) / 1_000_000))
			.filter((e) -> e.getValue() >= 20)
			.sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
			.forEach((e) -> out.append(e.getKey()).append('=').append(e.getValue()).append(' '));
		return out.toString();
	}

}

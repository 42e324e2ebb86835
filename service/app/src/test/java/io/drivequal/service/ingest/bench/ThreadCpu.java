/*
 * CPU time of this JVM's threads by name (digits folded), for finding the service's hot spots in a
 * benchmark run (-Dbench.threadCpu=true).
 */
package io.drivequal.service.ingest.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

final class ThreadCpu {

	private ThreadCpu() {
	}

	static Map<String, Long> snapshot() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		Map<String, Long> byName = new HashMap<>();
		for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
			if (info != null) {
				long nanos = threads.getThreadCpuTime(info.getThreadId());
				if (nanos > 0) {
					byName.merge(info.getThreadName().replaceAll("\\d+", "N"), nanos, Long::sum);
				}
			}
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

/*
 * CPU and memory of processes and of the machine, from /proc: what each part of the fleet costs,
 * measured the same way for the C agents, the JVMs and Elasticsearch (the ingest benchmark reads
 * its processes' CPU here too).
 */
package io.drivequal.service.fleet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public final class ProcStats {

	public static final double TICKS_PER_SECOND = 100.0;

	private ProcStats() {
	}

	/** user + system CPU ticks of the process and its threads; 0 when it is gone. */
	public static long cpuTicks(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		}
		catch (IOException | RuntimeException ex) {
			return 0;
		}
	}

	/** Resident set size in MB; 0 when it is gone. */
	static double rssMb(long pid) {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
				if (line.startsWith("VmRSS:")) {
					return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// gone
		}
		return 0;
	}

	/**
	 * The machine's busy and total ticks over every core (the first line of /proc/stat).
	 */
	static long[] machineTicks() {
		try {
			String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
			long total = 0;
			for (int i = 1; i < fields.length; i++) {
				total += Long.parseLong(fields[i]);
			}
			long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
			return new long[] { total - idle, total };
		}
		catch (IOException | RuntimeException ex) {
			return new long[] { 0, 1 };
		}
	}

	static String loadAverage() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).trim();
		}
		catch (IOException ex) {
			return "?";
		}
	}

	/** The first descendant of this JVM whose command line contains marker, or -1. */
	static long descendant(String marker) {
		List<ProcessHandle> all = ProcessHandle.current().descendants().toList();
		for (ProcessHandle process : all) {
			try {
				String commandLine = new String(Files.readAllBytes(Path.of("/proc/" + process.pid() + "/cmdline")),
						StandardCharsets.UTF_8);
				if (commandLine.contains(marker)) {
					return process.pid();
				}
			}
			catch (IOException ex) {
				// gone meanwhile
			}
		}
		return -1;
	}

}

/*
 * One per-second sample as a CSV row. Latencies stay in nanoseconds, as the runner measured them;
 * a direction without IO has empty latency cells, never zeros.
 */
package io.drivequal.service.report;

import java.util.Locale;

import io.drivequal.service.ingest.SamplePoint;

final class SampleCsv {

	static final String HEADER = "phaseIndex,phaseName,t,timeMs,totalIops,readIops,writeIops,readMBps,writeMBps,"
			+ "readLatencyP50Ns,readLatencyP99Ns,readLatencyP999Ns,readLatencyMaxNs,"
			+ "writeLatencyP50Ns,writeLatencyP99Ns,writeLatencyP999Ns,writeLatencyMaxNs\n";

	private SampleCsv() {
	}

	static String row(SamplePoint point) {
		StringBuilder row = new StringBuilder(160);
		row.append(point.phaseIndex())
			.append(',')
			.append(ResultsCsv.quote(point.phaseName()))
			.append(',')
			.append(point.t())
			.append(',')
			.append(point.timeMs())
			.append(',')
			.append(point.readIops() + point.writeIops())
			.append(',')
			.append(point.readIops())
			.append(',')
			.append(point.writeIops())
			.append(',')
			.append(String.format(Locale.ROOT, "%.3f", point.readMBps()))
			.append(',')
			.append(String.format(Locale.ROOT, "%.3f", point.writeMBps()));
		latency(row, point.readLatencyNs());
		latency(row, point.writeLatencyNs());
		return row.append('\n').toString();
	}

	private static void latency(StringBuilder row, SamplePoint.Latency latency) {
		if (latency == null) {
			row.append(",,,,");
			return;
		}
		row.append(',')
			.append(latency.p50())
			.append(',')
			.append(latency.p99())
			.append(',')
			.append(latency.p999())
			.append(',')
			.append(latency.max());
	}

}

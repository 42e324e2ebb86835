// Parses fio's completion-latency histogram log: per-second percentiles and the job's merged histogram.
package io.drivequal.analysis.fio;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.drivequal.analysis.NearestRank;
import org.HdrHistogram.Histogram;

/**
 * A log written with {@code write_hist_log} and {@code log_hist_msec=1000}: lines
 * {@code time_ms, ddir, bs, bin0, ..., binN} where the bins are the window's completion
 * latency counts in fio's layout ({@link FioBins}), 1856 >> coarseness of them.
 */
final class FioHistogramLog {

	private static final int HEADER_FIELDS = 3;

	final FioLogName name;

	final int coarseness;

	final Map<FioDirection, Seconds> byDirection;

	final Map<FioDirection, Histogram> mergedByDirection;

	/**
	 * One direction's per-second percentiles.
	 *
	 * @param t interval ends
	 * @param latencies percentiles of each second
	 */
	record Seconds(long[] t, FioSecondLatencyNs[] latencies) {

		FioSecondLatencyNs at(long second) {
			int index = Arrays.binarySearch(this.t, second);
			return (index >= 0) ? this.latencies[index] : null;
		}

	}

	private FioHistogramLog(FioLogName name, int coarseness, Map<FioDirection, Seconds> byDirection,
			Map<FioDirection, Histogram> mergedByDirection) {
		this.name = name;
		this.coarseness = coarseness;
		this.byDirection = byDirection;
		this.mergedByDirection = mergedByDirection;
	}

	static FioHistogramLog parse(FioLogName name, String content) {
		List<FioLogLines.Line> lines = FioLogLines.parse(name.fileName(), content, HEADER_FIELDS + 1);
		int binCount = lines.get(0).fields().length - HEADER_FIELDS;
		int coarseness = FioBins.coarsenessOf(binCount);
		if (coarseness < 0) {
			throw new FioImportException(name.fileName() + " line " + lines.get(0).lineNumber() + ": " + binCount
					+ " histogram bins; fio 3.x writes " + FioBins.PLAT_NR + " >> log_hist_coarseness (0.."
					+ FioBins.MAX_COARSENESS + ")");
		}
		Map<FioDirection, List<FioLogLines.Line>> linesByDirection = new EnumMap<>(FioDirection.class);
		for (FioLogLines.Line line : lines) {
			if (line.fields().length - HEADER_FIELDS != binCount) {
				throw new FioImportException(
						name.fileName() + " line " + line.lineNumber() + ": " + (line.fields().length - HEADER_FIELDS)
								+ " bins where line " + lines.get(0).lineNumber() + " has " + binCount);
			}
			FioDirection direction = FioDirection.ofDdir(line.fields()[1]);
			if (direction == null) {
				throw new FioImportException(name.fileName() + " line " + line.lineNumber() + ": data direction "
						+ line.fields()[1] + " is not 0 (read), 1 (write) or 2 (trim)");
			}
			linesByDirection.computeIfAbsent(direction, (key) -> new ArrayList<>()).add(line);
		}
		Map<FioDirection, Seconds> byDirection = new EnumMap<>(FioDirection.class);
		Map<FioDirection, Histogram> merged = new EnumMap<>(FioDirection.class);
		for (Map.Entry<FioDirection, List<FioLogLines.Line>> entry : linesByDirection.entrySet()) {
			List<FioLogLines.Line> directionLines = entry.getValue();
			FioIntervals.Seconds seconds = FioIntervals.toSeconds(name.fileName(), entry.getKey(), directionLines);
			FioSecondLatencyNs[] latencies = new FioSecondLatencyNs[seconds.t().length];
			for (int i = 0; i < latencies.length; i++) {
				latencies[i] = percentiles(directionLines.get(seconds.entryIndexes()[i]).fields(), coarseness);
			}
			byDirection.put(entry.getKey(), new Seconds(seconds.t(), latencies));
			// Every entry, the final partial window included, belongs to the job's
			// histogram.
			Histogram histogram = new Histogram(2);
			for (FioLogLines.Line line : directionLines) {
				long[] fields = line.fields();
				for (int bin = 0; bin < binCount; bin++) {
					long count = fields[HEADER_FIELDS + bin];
					if (count > 0) {
						histogram.recordValueWithCount(FioBins.valueNs(bin, coarseness), count);
					}
				}
			}
			merged.put(entry.getKey(), histogram);
		}
		return new FioHistogramLog(name, coarseness, byDirection, merged);
	}

	/**
	 * Nearest-rank P50/P99/P99.9 and the top bin of one line; null when the window has no
	 * IO.
	 */
	private static FioSecondLatencyNs percentiles(long[] fields, int coarseness) {
		long total = 0;
		int highest = -1;
		for (int bin = 0; bin < fields.length - HEADER_FIELDS; bin++) {
			long count = fields[HEADER_FIELDS + bin];
			total += count;
			if (count > 0) {
				highest = bin;
			}
		}
		if (total == 0) {
			return null;
		}
		long[] ranks = { NearestRank.rank(50, total), NearestRank.rank(99, total), NearestRank.rank(99.9, total) };
		long[] values = new long[ranks.length];
		int next = 0;
		long cumulative = 0;
		for (int bin = 0; bin < fields.length - HEADER_FIELDS && next < ranks.length; bin++) {
			cumulative += fields[HEADER_FIELDS + bin];
			while (next < ranks.length && ranks[next] <= cumulative) {
				values[next++] = FioBins.valueNs(bin, coarseness);
			}
		}
		return new FioSecondLatencyNs(values[0], values[1], values[2], FioBins.valueNs(highest, coarseness));
	}

}

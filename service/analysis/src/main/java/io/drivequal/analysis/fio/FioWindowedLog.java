// Parses one per-second fio log (iops, bw, lat, clat, slat) into values by direction and second.
package io.drivequal.analysis.fio;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A fio log written with {@code log_avg_msec=1000}: lines
 * {@code time_ms, value, ddir, bs[,
 * offset][, prio]}. With windowed logging fio writes 0 as block size (and offset); a
 * non-zero block size means fio logged every IO, which is refused. Values: IOPS for iops
 * logs, KiB/s for bw logs, nanoseconds for fio 3.x latency logs (the window's mean).
 */
final class FioWindowedLog {

	private static final int MINIMUM_FIELDS = 4;

	private static final int DDIR = 2;

	private static final int BLOCK_SIZE = 3;

	final FioLogName name;

	final Map<FioDirection, Series> byDirection;

	/**
	 * One direction's seconds.
	 *
	 * @param t interval ends
	 * @param values the logged value of each second
	 * @param droppedFinalPartial whether fio's end-of-job partial window was dropped
	 * @param missingSeconds seconds absent inside the log's span
	 */
	record Series(long[] t, long[] values, boolean droppedFinalPartial, long missingSeconds) {

		long valueAt(long second) {
			int index = Arrays.binarySearch(this.t, second);
			return (index >= 0) ? this.values[index] : -1;
		}

	}

	private FioWindowedLog(FioLogName name, Map<FioDirection, Series> byDirection) {
		this.name = name;
		this.byDirection = byDirection;
	}

	static FioWindowedLog parse(FioLogName name, String content) {
		List<FioLogLines.Line> lines = FioLogLines.parse(name.fileName(), content, MINIMUM_FIELDS);
		Map<FioDirection, List<FioLogLines.Line>> linesByDirection = new EnumMap<>(FioDirection.class);
		for (FioLogLines.Line line : lines) {
			long[] fields = line.fields();
			FioDirection direction = FioDirection.ofDdir(fields[DDIR]);
			if (direction == null) {
				throw new FioImportException(name.fileName() + " line " + line.lineNumber() + ": data direction "
						+ fields[DDIR] + " is not 0 (read), 1 (write) or 2 (trim)"
						+ " (logs written with log_max_value=2 are not supported)");
			}
			if (fields[BLOCK_SIZE] != 0) {
				throw new FioImportException(name.fileName() + " line " + line.lineNumber() + ": block size "
						+ fields[BLOCK_SIZE] + " in the entry: fio logged every IO instead of per-second averages;"
						+ " write the log with log_avg_msec=1000");
			}
			linesByDirection.computeIfAbsent(direction, (key) -> new ArrayList<>()).add(line);
		}
		Map<FioDirection, Series> byDirection = new EnumMap<>(FioDirection.class);
		for (Map.Entry<FioDirection, List<FioLogLines.Line>> entry : linesByDirection.entrySet()) {
			List<FioLogLines.Line> directionLines = entry.getValue();
			FioIntervals.Seconds seconds = FioIntervals.toSeconds(name.fileName(), entry.getKey(), directionLines);
			long[] values = new long[seconds.t().length];
			for (int i = 0; i < values.length; i++) {
				values[i] = directionLines.get(seconds.entryIndexes()[i]).fields()[1];
			}
			byDirection.put(entry.getKey(),
					new Series(seconds.t(), values, seconds.droppedFinalPartial(), seconds.missingSeconds()));
		}
		return new FioWindowedLog(name, byDirection);
	}

}

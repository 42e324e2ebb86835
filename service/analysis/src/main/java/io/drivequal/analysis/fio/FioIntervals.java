// Turns a fio log's millisecond times into per-second t, refusing logs that were not averaged over 1000 ms windows.
package io.drivequal.analysis.fio;

import java.util.Arrays;
import java.util.List;

/**
 * Maps the entries of one direction of one log to seconds: t = time_ms / 1000 rounded to
 * the nearest whole second (half up), the END of the interval, as drivequal's sample time
 * is.
 *
 * <p>
 * A log written with {@code log_avg_msec=1000} has one entry per direction every 1000 ms,
 * give or take fio's timer jitter (a few ms; {@value #TOLERANCE_MS} ms accepted). A
 * longer gap that is a whole number of seconds is missing seconds (kept missing, never
 * interpolated). Anything else, or mostly multi-second gaps, means another averaging
 * interval and is refused. fio flushes the last, partial window at the end of the job
 * (for latency logs with the time of the last full window); a final entry that repeats
 * the previous second or comes less than a window after it is that partial window and is
 * dropped.
 */
final class FioIntervals {

	static final long WINDOW_MS = 1000;

	static final long TOLERANCE_MS = 100;

	private FioIntervals() {
	}

	/**
	 * Seconds of one direction.
	 *
	 * @param t t of each kept entry
	 * @param entryIndexes which entries (positions in the direction's list) were kept
	 * @param droppedFinalPartial whether the final partial-window entry was dropped
	 * @param missingSeconds seconds absent inside the log's span
	 */
	record Seconds(long[] t, int[] entryIndexes, boolean droppedFinalPartial, long missingSeconds) {

	}

	static Seconds toSeconds(String fileName, FioDirection direction, List<FioLogLines.Line> entries) {
		int count = entries.size();
		boolean dropLast = count >= 2 && isFinalPartial(entries.get(count - 2), entries.get(count - 1));
		int kept = dropLast ? count - 1 : count;
		String what = fileName + " (" + direction.jsonKey() + ")";
		if (kept == 1) {
			FioLogLines.Line only = entries.get(0);
			if (only.fields()[0] < WINDOW_MS - TOLERANCE_MS || only.fields()[0] > WINDOW_MS + WINDOW_MS / 2) {
				throw new FioImportException(
						what + " line " + only.lineNumber() + ": its only entry is at " + only.fields()[0]
								+ " ms, so it is not a 1000 ms window; write the log with log_avg_msec=1000");
			}
		}
		long[] gapSeconds = new long[Math.max(0, kept - 1)];
		long missing = 0;
		for (int i = 1; i < kept; i++) {
			FioLogLines.Line previous = entries.get(i - 1);
			FioLogLines.Line current = entries.get(i);
			long deltaMs = current.fields()[0] - previous.fields()[0];
			long windows = Math.round(deltaMs / (double) WINDOW_MS);
			if (deltaMs < 0) {
				throw new FioImportException(what + " line " + current.lineNumber() + ": time " + current.fields()[0]
						+ " ms goes back from " + previous.fields()[0] + " ms");
			}
			if (windows < 1 || Math.abs(deltaMs - windows * WINDOW_MS) > TOLERANCE_MS) {
				throw new FioImportException(what + " line " + current.lineNumber() + ": entries " + deltaMs
						+ " ms apart, not 1000 ms: the log was not averaged per second; write it with log_avg_msec=1000");
			}
			gapSeconds[i - 1] = windows;
			missing += windows - 1;
		}
		if (gapSeconds.length > 0) {
			long[] sorted = gapSeconds.clone();
			Arrays.sort(sorted);
			long median = sorted[(sorted.length - 1) / 2];
			if (median != 1) {
				throw new FioImportException(
						what + ": entries are mostly " + median * WINDOW_MS + " ms apart: the log was averaged over "
								+ median * WINDOW_MS + " ms; write it with log_avg_msec=1000");
			}
		}
		long[] t = new long[kept];
		int[] indexes = new int[kept];
		for (int i = 0; i < kept; i++) {
			t[i] = secondOf(entries.get(i));
			indexes[i] = i;
			if (t[i] < 1) {
				throw new FioImportException(what + " line " + entries.get(i).lineNumber() + ": time "
						+ entries.get(i).fields()[0] + " ms ends no whole second; expected 1000 ms windows");
			}
			if (i > 0 && t[i] <= t[i - 1]) {
				throw new FioImportException(what + " line " + entries.get(i).lineNumber() + ": two entries for second "
						+ t[i] + "; expected one entry per 1000 ms window");
			}
		}
		return new Seconds(t, indexes, dropLast, missing);
	}

	/**
	 * Whether the last entry is fio's end-of-job flush of a partial window: it repeats
	 * the previous second, or comes less than a window after it.
	 */
	private static boolean isFinalPartial(FioLogLines.Line previous, FioLogLines.Line last) {
		return secondOf(last) == secondOf(previous)
				|| last.fields()[0] - previous.fields()[0] < WINDOW_MS - TOLERANCE_MS;
	}

	static long secondOf(FioLogLines.Line line) {
		return (line.fields()[0] + WINDOW_MS / 2) / WINDOW_MS;
	}

}

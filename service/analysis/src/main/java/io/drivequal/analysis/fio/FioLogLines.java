// Splits a fio log into numbered lines of integer fields, rejecting anything that is not a fio log.
package io.drivequal.analysis.fio;

import java.util.ArrayList;
import java.util.List;

/** The lines of a fio log as integer fields, with their 1-based line numbers. */
final class FioLogLines {

	/**
	 * Log times above this many ms are Unix epoch times (log_unix_epoch=1), not times
	 * since the job started.
	 */
	private static final long EPOCH_THRESHOLD_MS = 100_000_000_000L;

	private FioLogLines() {
	}

	/**
	 * One parsed line.
	 *
	 * @param lineNumber 1-based line in the file
	 * @param fields the comma-separated integers
	 */
	record Line(int lineNumber, long[] fields) {

	}

	static List<Line> parse(String fileName, String content, int minimumFields) {
		List<Line> lines = new ArrayList<>();
		String[] rawLines = content.split("\r?\n", -1);
		for (int i = 0; i < rawLines.length; i++) {
			String raw = rawLines[i].strip();
			if (raw.isEmpty()) {
				continue;
			}
			String[] parts = raw.split(",");
			if (parts.length < minimumFields) {
				throw new FioImportException(
						fileName + " line " + (i + 1) + ": " + parts.length + " fields, a fio log line has at least "
								+ minimumFields + " (time ms, value, direction, block size[, offset][, priority])");
			}
			long[] fields = new long[parts.length];
			for (int f = 0; f < parts.length; f++) {
				String part = parts[f].strip();
				try {
					fields[f] = part.startsWith("0x") ? Long.parseLong(part.substring(2), 16) : Long.parseLong(part);
				}
				catch (NumberFormatException ex) {
					throw new FioImportException(fileName + " line " + (i + 1) + ": field " + (f + 1) + " \""
							+ abbreviate(part) + "\" is not an integer; this is not a fio log");
				}
				if (fields[f] < 0) {
					throw new FioImportException(
							fileName + " line " + (i + 1) + ": field " + (f + 1) + " is negative (" + fields[f] + ")");
				}
			}
			if (fields[0] > EPOCH_THRESHOLD_MS) {
				throw new FioImportException(fileName + " line " + (i + 1) + ": time " + fields[0]
						+ " ms is a Unix epoch time (log_unix_epoch=1); rerun without it so times count from the job start");
			}
			lines.add(new Line(i + 1, fields));
		}
		if (lines.isEmpty()) {
			throw new FioImportException(fileName + " is empty: fio wrote no entry (did the job do IO?)");
		}
		return lines;
	}

	private static String abbreviate(String text) {
		return (text.length() <= 40) ? text : text.substring(0, 40) + "...";
	}

}

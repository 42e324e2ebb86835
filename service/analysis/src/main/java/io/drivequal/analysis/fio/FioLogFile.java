// A fio log as uploaded: its file name tells the log type and the job, its content the per-second entries.
package io.drivequal.analysis.fio;

/**
 * One fio log file.
 *
 * @param name the file name as fio wrote it, e.g. {@code vendor_iops.1.log} (a directory
 * part is ignored)
 * @param content the file's text
 */
public record FioLogFile(String name, String content) {

	public FioLogFile {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("a fio log needs its file name (it tells the log type and job)");
		}
		if (content == null) {
			throw new IllegalArgumentException("log " + name + " has no content");
		}
	}

}

// Reads what fio encodes in a log's file name: <prefix>_<type>[.<job number>].log.
package io.drivequal.analysis.fio;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fio log file name. fio names logs {@code <prefix>_<type>.<job>.log}, the job number
 * being 1-based in job order, or {@code <prefix>_<type>.log} with per_job_logs=0.
 *
 * @param fileName the name without directories
 * @param type the log type
 * @param jobNumber the 1-based job number, if in the name
 */
record FioLogName(String fileName, Type type, OptionalInt jobNumber) {

	private static final Pattern NAME = Pattern
		.compile("^(?<prefix>.+)_(?<type>iops|bw|lat|clat|slat|clat_hist)(?:\\.(?<job>[0-9]{1,6}))?\\.log$");

	/** The log types fio writes. */
	enum Type {

		IOPS("iops"), BW("bw"), LAT("lat"), CLAT("clat"), SLAT("slat"), CLAT_HIST("clat_hist");

		private final String suffix;

		Type(String suffix) {
			this.suffix = suffix;
		}

		String suffix() {
			return this.suffix;
		}

		static Type ofSuffix(String suffix) {
			for (Type type : values()) {
				if (type.suffix.equals(suffix)) {
					return type;
				}
			}
			throw new IllegalStateException(suffix);
		}

	}

	static FioLogName parse(String name) {
		String fileName = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
		Matcher matcher = NAME.matcher(fileName);
		if (!matcher.matches()) {
			throw new FioImportException(fileName + " is not a fio log name: expected <prefix>_<type>[.<job>].log"
					+ " with type iops, bw, lat, clat, slat or clat_hist, as fio names them");
		}
		String job = matcher.group("job");
		OptionalInt jobNumber = (job == null) ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(job));
		if (jobNumber.isPresent() && jobNumber.getAsInt() < 1) {
			throw new FioImportException(fileName + ": job number 0; fio numbers jobs from 1");
		}
		return new FioLogName(fileName, Type.ofSuffix(matcher.group("type")), jobNumber);
	}

}

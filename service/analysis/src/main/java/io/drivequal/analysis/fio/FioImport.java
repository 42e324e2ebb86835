// Imports a vendor's fio results (JSON + per-second logs) as drivequal phases, refusing what cannot be compared.
package io.drivequal.analysis.fio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

import io.drivequal.analysis.PhaseLatencyHistogram;
import org.HdrHistogram.Histogram;

/**
 * Pure parsing of fio 3.x output: the JSON ({@code --output-format=json}) and the logs of
 * {@code write_iops_log}, {@code write_lat_log}, {@code write_bw_log} (all with
 * {@code log_avg_msec=1000}) and {@code write_hist_log} (with
 * {@code log_hist_msec=1000}). Each fio job becomes a {@link FioJob}: a phase with
 * per-second samples whose t is the end of its second. Everything that would make the
 * numbers incomparable is refused with a {@link FioImportException} naming the file, the
 * line and the fix.
 */
public final class FioImport {

	private static final String PER_SECOND = "1000";

	private FioImport() {
	}

	/**
	 * Imports files from disk.
	 * @param json fio's JSON output
	 * @param logs its log files, named as fio wrote them
	 * @return the import
	 */
	public static FioImportResult readFiles(Path json, List<Path> logs) {
		List<FioLogFile> logFiles = new ArrayList<>();
		for (Path log : logs) {
			logFiles.add(new FioLogFile(log.getFileName().toString(), readText(log)));
		}
		return read(readText(json), logFiles);
	}

	/**
	 * Imports fio output.
	 * @param json fio's JSON output (text before the JSON object, e.g. warnings, is
	 * skipped)
	 * @param logs log files, any order; none for totals only
	 * @return one job per fio job, in fio's order
	 * @throws FioImportException when the input is not fio 3.x output or its logs are not
	 * per-second averages that match the JSON
	 */
	public static FioImportResult read(String json, List<FioLogFile> logs) {
		FioJsonReader.Run run = FioJsonReader.read(json);
		List<Map<FioLogName.Type, FioLogFile>> logsByJob = assign(logs, run.jobs().size());
		List<FioJob> jobs = new ArrayList<>();
		for (FioJsonReader.Job job : run.jobs()) {
			jobs.add(importJob(job, logsByJob.get(job.jobNumber() - 1)));
		}
		return new FioImportResult(run.fioVersion(), jobs, run.notes());
	}

	private static List<Map<FioLogName.Type, FioLogFile>> assign(List<FioLogFile> logs, int jobCount) {
		List<Map<FioLogName.Type, FioLogFile>> byJob = new ArrayList<>();
		for (int i = 0; i < jobCount; i++) {
			byJob.add(new EnumMap<>(FioLogName.Type.class));
		}
		for (FioLogFile log : logs) {
			FioLogName name = FioLogName.parse(log.name());
			int jobNumber;
			if (name.jobNumber().isPresent()) {
				jobNumber = name.jobNumber().getAsInt();
			}
			else if (jobCount == 1) {
				jobNumber = 1;
			}
			else {
				throw new FioImportException(name.fileName() + " has no job number (per_job_logs=0) but the JSON has "
						+ jobCount + " jobs; rerun with per_job_logs=1 (the default)");
			}
			if (jobNumber > jobCount) {
				throw new FioImportException(name.fileName() + " belongs to job " + jobNumber + " but the JSON has "
						+ jobCount + " job(s); with group_reporting fio merges jobs, so run without it");
			}
			FioLogFile previous = byJob.get(jobNumber - 1).put(name.type(), log);
			if (previous != null) {
				throw new FioImportException("two " + name.type().suffix() + " logs for job " + jobNumber + ": "
						+ FioLogName.parse(previous.name()).fileName() + " and " + name.fileName());
			}
		}
		return byJob;
	}

	private static FioJob importJob(FioJsonReader.Job job, Map<FioLogName.Type, FioLogFile> logs) {
		List<String> notes = new ArrayList<>();
		if (job.error() != 0) {
			notes.add("fio reported error " + job.error() + " for this job");
		}
		if (logs.isEmpty()) {
			return new FioJob(job.jobNumber(), job.jobName(), job.totals(), List.of(), Map.of(), notes,
					Optional.ofNullable(job.options().get("size")));
		}
		String jobText = "job " + job.jobNumber() + " ('" + job.jobName() + "')";
		checkOption(job, jobText, "log_avg_msec",
				logs.keySet().stream().anyMatch((type) -> type != FioLogName.Type.CLAT_HIST));
		checkOption(job, jobText, "log_hist_msec", logs.containsKey(FioLogName.Type.CLAT_HIST));
		FioLogFile iopsFile = logs.get(FioLogName.Type.IOPS);
		if (iopsFile == null) {
			throw new FioImportException(jobText + " has " + logs.keySet().iterator().next().suffix()
					+ " logs but no iops log, which defines its seconds; add write_iops_log");
		}
		FioWindowedLog iops = windowed(job, jobText, logs, FioLogName.Type.IOPS, true);
		FioWindowedLog bandwidth = windowed(job, jobText, logs, FioLogName.Type.BW, false);
		FioWindowedLog clat = windowed(job, jobText, logs, FioLogName.Type.CLAT, false);
		FioWindowedLog lat = windowed(job, jobText, logs, FioLogName.Type.LAT, false);
		if (logs.containsKey(FioLogName.Type.SLAT)) {
			windowed(job, jobText, logs, FioLogName.Type.SLAT, false);
			notes.add("submission latency log ignored (not a drivequal metric)");
		}
		FioHistogramLog histogram = null;
		if (logs.containsKey(FioLogName.Type.CLAT_HIST)) {
			FioLogFile file = logs.get(FioLogName.Type.CLAT_HIST);
			histogram = FioHistogramLog.parse(FioLogName.parse(file.name()), file.content());
			checkDirections(job, jobText, histogram.name, histogram.byDirection.keySet(), false);
		}
		for (Map.Entry<FioDirection, FioWindowedLog.Series> entry : iops.byDirection.entrySet()) {
			FioWindowedLog.Series series = entry.getValue();
			if (series.droppedFinalPartial()) {
				notes
					.add(iops.name.fileName() + ": dropped fio's final partial window for " + entry.getKey().jsonKey());
			}
			if (series.missingSeconds() > 0) {
				notes.add(iops.name.fileName() + ": " + series.missingSeconds() + " second(s) missing for "
						+ entry.getKey().jsonKey() + " (kept missing, not interpolated)");
			}
		}
		List<FioSecond> seconds = seconds(iops, bandwidth, clat, lat, histogram);
		Map<FioDirection, PhaseLatencyHistogram> histograms = new EnumMap<>(FioDirection.class);
		if (histogram != null) {
			for (Map.Entry<FioDirection, Histogram> entry : histogram.mergedByDirection.entrySet()) {
				FioJobTotals totals = job.totals().get(entry.getKey());
				histograms.put(entry.getKey(), contractForm(entry.getValue(), totals));
				notes.add(histogram.name.fileName() + ": " + entry.getKey().jsonKey() + " histogram holds "
						+ entry.getValue().getTotalCount() + " of the " + totals.totalIos()
						+ " IOs in the JSON (coarseness " + histogram.coarseness + ")");
			}
		}
		if (job.totals().containsKey(FioDirection.WRITE) && !logs.containsKey(FioLogName.Type.BW)) {
			notes.add("no bw log: write bytes per second are the IOPS log's value times the JSON's mean write size");
		}
		return new FioJob(job.jobNumber(), job.jobName(), job.totals(), seconds, histograms, notes,
				Optional.ofNullable(job.options().get("size")));
	}

	private static void checkOption(FioJsonReader.Job job, String jobText, String option, boolean needed) {
		String value = job.options().get(option);
		if (needed && value != null && !PER_SECOND.equals(value.strip())) {
			throw new FioImportException(
					jobText + " ran with " + option + "=" + value + ": per-second logs need " + option + "=1000");
		}
	}

	private static FioWindowedLog windowed(FioJsonReader.Job job, String jobText, Map<FioLogName.Type, FioLogFile> logs,
			FioLogName.Type type, boolean everyDirection) {
		FioLogFile file = logs.get(type);
		if (file == null) {
			return null;
		}
		FioWindowedLog log = FioWindowedLog.parse(FioLogName.parse(file.name()), file.content());
		checkDirections(job, jobText, log.name, log.byDirection.keySet(), everyDirection);
		return log;
	}

	private static void checkDirections(FioJsonReader.Job job, String jobText, FioLogName name,
			Set<FioDirection> logged, boolean everyDirection) {
		for (FioDirection direction : logged) {
			if (!job.totals().containsKey(direction)) {
				throw new FioImportException("mismatched directions: " + name.fileName() + " has " + direction.jsonKey()
						+ " entries but " + jobText + " did no " + direction.jsonKey() + " IO (JSON "
						+ direction.jsonKey() + ".total_ios = 0)");
			}
		}
		if (everyDirection) {
			for (Map.Entry<FioDirection, FioJobTotals> entry : job.totals().entrySet()) {
				if (!logged.contains(entry.getKey())) {
					throw new FioImportException("mismatched directions: " + name.fileName() + " has no "
							+ entry.getKey().jsonKey() + " entries but " + jobText + " did "
							+ entry.getValue().totalIos() + " " + entry.getKey().jsonKey() + " IOs");
				}
			}
		}
	}

	private static List<FioSecond> seconds(FioWindowedLog iops, FioWindowedLog bandwidth, FioWindowedLog clat,
			FioWindowedLog lat, FioHistogramLog histogram) {
		TreeSet<Long> allSeconds = new TreeSet<>();
		for (FioWindowedLog.Series series : iops.byDirection.values()) {
			for (long t : series.t()) {
				allSeconds.add(t);
			}
		}
		List<FioSecond> seconds = new ArrayList<>(allSeconds.size());
		for (long t : allSeconds) {
			Map<FioDirection, FioDirectionSecond> directions = new EnumMap<>(FioDirection.class);
			for (Map.Entry<FioDirection, FioWindowedLog.Series> entry : iops.byDirection.entrySet()) {
				long value = entry.getValue().valueAt(t);
				if (value < 0) {
					continue;
				}
				FioDirection direction = entry.getKey();
				OptionalLong bytes = valueAt(bandwidth, direction, t);
				bytes = bytes.isPresent() ? OptionalLong.of(Math.multiplyExact(bytes.getAsLong(), 1024L)) : bytes;
				Optional<FioSecondLatencyNs> percentiles = Optional.empty();
				if (histogram != null && histogram.byDirection.containsKey(direction)) {
					percentiles = Optional.ofNullable(histogram.byDirection.get(direction).at(t));
				}
				directions.put(direction, new FioDirectionSecond(value, bytes, valueAt(clat, direction, t),
						valueAt(lat, direction, t), percentiles));
			}
			seconds.add(new FioSecond(t, Optional.ofNullable(directions.get(FioDirection.READ)),
					Optional.ofNullable(directions.get(FioDirection.WRITE)),
					Optional.ofNullable(directions.get(FioDirection.TRIM))));
		}
		return seconds;
	}

	private static OptionalLong valueAt(FioWindowedLog log, FioDirection direction, long t) {
		if (log == null || !log.byDirection.containsKey(direction)) {
			return OptionalLong.empty();
		}
		long value = log.byDirection.get(direction).valueAt(t);
		return (value < 0) ? OptionalLong.empty() : OptionalLong.of(value);
	}

	/**
	 * The contract's histogram form, with fio's exact min/max when they fall in the
	 * extreme buckets.
	 */
	private static PhaseLatencyHistogram contractForm(Histogram histogram, FioJobTotals totals) {
		long lowest = histogram.getMinValue();
		long highest = histogram.getMaxValue();
		long minNs = (histogram.lowestEquivalentValue(totals.clatMinNs()) == histogram.lowestEquivalentValue(lowest))
				? totals.clatMinNs() : lowest;
		long maxNs = (histogram.lowestEquivalentValue(totals.clatMaxNs()) == histogram.lowestEquivalentValue(highest))
				? totals.clatMaxNs() : highest;
		return PhaseLatencyHistogram.from(histogram, minNs, maxNs);
	}

	private static String readText(Path path) {
		try {
			return Files.readString(path, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + path, ex);
		}
	}

}

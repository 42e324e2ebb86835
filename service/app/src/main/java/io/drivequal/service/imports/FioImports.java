/*
 * Vendor fio results as a qualification: each fio job becomes a phase, its per-second logs become
 * samples and its latency histograms a phase result — in the same indices as a runner's — and the
 * job is COMPLETED at once, so the same analysis and verdict apply.
 */
package io.drivequal.service.imports;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.PhaseLatencyHistogram;
import io.drivequal.analysis.fio.FioDirection;
import io.drivequal.analysis.fio.FioDirectionSecond;
import io.drivequal.analysis.fio.FioImport;
import io.drivequal.analysis.fio.FioImportResult;
import io.drivequal.analysis.fio.FioJob;
import io.drivequal.analysis.fio.FioJobTotals;
import io.drivequal.analysis.fio.FioLogFile;
import io.drivequal.analysis.fio.FioSecond;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.qualification.AnalysisSettings;
import io.drivequal.service.ingest.DriveLabels;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.ingest.SampleIndexer;
import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.platform.BadRequestException;
import io.drivequal.service.platform.BulkWriter;
import io.drivequal.service.qualification.ImportedJobs;
import io.drivequal.service.qualification.QualificationView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Service;

@Service
class FioImports {

	private static final Logger log = LoggerFactory.getLogger(FioImports.class);

	static final String IMPORT_RUNNER = "fio-import";

	/**
	 * fio's output does not say what happened to the drive before the run: without the
	 * vendor's word, SNIA's published rules, stated on the import.
	 */
	static final String STEADY_STATE_UNKNOWN_HISTORY = "steady state: fresh-state check not applicable: the log does "
			+ "not start from a purge or fill, so SNIA's published rules apply (five rounds within the range and "
			+ "slope bounds)";

	/** With the vendor's stated preconditioning, the rules a job of this lab follows. */
	static final String STEADY_STATE_STATED = "steady state: the import states the drive was %s just before the "
			+ "first imported job, so the rules of a job apply (the fresh state judged from the IOPS record)";

	private final ImportedJobs jobs;

	private final SampleIndexer samples;

	private final BulkWriter writer;

	private final Catalog catalog;

	private final Clock clock;

	FioImports(ImportedJobs jobs, SampleIndexer samples, BulkWriter writer, Catalog catalog, Clock clock) {
		this.jobs = jobs;
		this.samples = samples;
		this.writer = writer;
		this.catalog = catalog;
		this.clock = clock;
	}

	QualificationView importFio(ImportRequest request, String fioJson, List<FioLogFile> logs, String submitter) {
		if (request.profile() != null && this.catalog.find(request.profile()).isEmpty()) {
			throw new BadRequestException("request.profile", "no profile named " + request.profile());
		}
		FioImportResult imported = FioImport.read(fioJson, logs);
		if (imported.jobs().isEmpty()) {
			throw new BadRequestException("fio", "the fio output holds no job");
		}
		String jobId = this.jobs.newJobId();
		Instant now = this.clock.instant();
		List<PhaseSpec> plan = new ArrayList<>();
		Set<String> names = new HashSet<>();
		for (int i = 0; i < imported.jobs().size(); i++) {
			plan.add(phase(i, imported.jobs().get(i), names, request.drive().capacityBytes()));
		}
		long maxSeconds = imported.jobs().stream().mapToLong((job) -> job.seconds().size()).max().orElse(0);
		Instant start = now.minusSeconds(maxSeconds);
		for (int i = 0; i < imported.jobs().size(); i++) {
			FioJob fioJob = imported.jobs().get(i);
			PhaseSpec phase = plan.get(i);
			List<SamplePoint> points = fioJob.seconds()
				.stream()
				.map((second) -> point(phase, fioJob, second, start))
				.toList();
			this.samples.indexImported(jobId, IMPORT_RUNNER, request.drive().serial(),
					new DriveLabels(request.drive().model(), request.drive().firmware(), false), points);
			this.writer.write(List.of(phaseResult(jobId, request, phase, fioJob, now)), false)
				.ifPresent((rejection) -> {
					throw new IllegalStateException(rejection.reason());
				});
		}
		List<String> notes = new ArrayList<>(imported.notes());
		if (request.preconditioned()) {
			notes.add(String.format(STEADY_STATE_STATED,
					"purge-and-fill".equals(request.preconditioning()) ? "purged and filled" : "filled"));
			if (request.drive().capacityBytes() == null) {
				notes.add("no drive.capacityBytes: the tested range is unknown, so only a cliff in the IOPS can show "
						+ "where the fresh state ended");
			}
		}
		else {
			notes.add(STEADY_STATE_UNKNOWN_HISTORY);
		}
		imported.jobs().forEach((job) -> notes.addAll(job.notes()));
		String message = "imported from fio " + imported.fioVersion()
				+ (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
		List<Criterion> criteria = (request.criteria() != null) ? request.criteria() : List.of();
		QualificationView job = this.jobs.recordCompleted(new ImportedJobs.ImportedJob(jobId, submitter,
				request.profile(), request.drive().serial(), request.drive().model(), request.drive().firmware(),
				request.drive().capacityBytes(), IMPORT_RUNNER, start, now, plan, request.spec(), criteria, message,
				new AnalysisSettings(null, request.preconditioned() ? "reset" : "unknown")));
		log.info("job {} imported from fio {} ({} phases) by {}", jobId, imported.fioVersion(), plan.size(), submitter);
		return job;
	}

	/**
	 * A fio job as a phase: its name made contract-safe, its mix from the directions that
	 * did IO, its range the share of the drive fio's size option addressed (when the
	 * capacity is known).
	 */
	private static PhaseSpec phase(int index, FioJob job, Set<String> names, Long capacityBytes) {
		String base = job.jobName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+", "");
		base = base.isEmpty() ? "fio-job" : base.substring(0, Math.min(base.length(), 56));
		String name = base;
		for (int n = 2; !names.add(name); n++) {
			name = base + "-" + n;
		}
		long reads = Optional.ofNullable(job.totals().get(FioDirection.READ)).map(FioJobTotals::totalIos).orElse(0L);
		long writes = Optional.ofNullable(job.totals().get(FioDirection.WRITE)).map(FioJobTotals::totalIos).orElse(0L);
		String rw = (reads > 0 && writes > 0) ? "randrw" : (reads > 0) ? "randread" : "randwrite";
		Integer readPercent = "randrw".equals(rw) ? (int) Math.round(100.0 * reads / (reads + writes)) : null;
		Double rangePercent = null;
		if (capacityBytes != null && job.rangePercent(capacityBytes).isPresent()) {
			rangePercent = job.rangePercent(capacityBytes).getAsDouble();
		}
		return new PhaseSpec(index, name, "workload", rw, readPercent, null, null, rangePercent,
				(long) job.seconds().size(), null, null, null, null, null, null, null);
	}

	/**
	 * A second as a sample; bytes from fio's bw log, else IOPS x the JSON's mean IO size,
	 * so the steady-state rule can count the job's random writes.
	 */
	private static SamplePoint point(PhaseSpec phase, FioJob job, FioSecond second, Instant start) {
		long readIops = second.read().map(FioDirectionSecond::iops).orElse(0L);
		long writeIops = second.write().map(FioDirectionSecond::iops).orElse(0L);
		long readBytes = job.bytesAt(second, FioDirection.READ);
		long writeBytes = job.bytesAt(second, FioDirection.WRITE);
		return new SamplePoint(phase.index(), phase.name(), (int) second.t(),
				start.plusSeconds(second.t()).toEpochMilli(), readIops, writeIops, readBytes, writeBytes,
				readBytes / 1e6, writeBytes / 1e6, latency(second.read()), latency(second.write()), null);
	}

	private static SamplePoint.Latency latency(Optional<FioDirectionSecond> direction) {
		return direction.flatMap(FioDirectionSecond::clatPercentilesNs)
			.map((p) -> new SamplePoint.Latency(p.p50Ns(), p.p99Ns(), p.p999Ns(), p.maxNs()))
			.orElse(null);
	}

	private static BulkOperation phaseResult(String jobId, ImportRequest request, PhaseSpec phase, FioJob job,
			Instant now) {
		long runtimeMs = job.totals().values().stream().mapToLong(FioJobTotals::runtimeMs).max().orElse(0);
		return new PhaseResult(now.toString(), jobId, IMPORT_RUNNER, request.drive().serial(), phase.index(),
				phase.name(), phase.kind(), runtimeMs * 1_000_000L, job.seconds().size(),
				totals(job, FioDirection.READ), totals(job, FioDirection.WRITE), null, null, null, null, null, null,
				null, null, null, null)
			.indexOperation();
	}

	/**
	 * The contract's directionTotals shape, so the analysis reads imports like runner
	 * results.
	 */
	private static PhaseResult.DirectionTotals totals(FioJob job, FioDirection direction) {
		FioJobTotals given = job.totals().get(direction);
		long ios = (given != null) ? given.totalIos() : 0L;
		long bytes = (given != null) ? given.ioBytes() : 0L;
		PhaseLatencyHistogram histogram = job.clatHistograms().get(direction);
		if (histogram == null || histogram.totalCount() == 0) {
			return new PhaseResult.DirectionTotals(ios, bytes);
		}
		return new PhaseResult.DirectionTotals(ios, bytes, null, null,
				new PhaseResult.LatencyHistogram(histogram.significantDigits(), histogram.totalCount(),
						histogram.minNs(), histogram.maxNs(),
						histogram.counts()
							.stream()
							.map((bucket) -> List.of(bucket.lowestEquivalentValueNs(), bucket.count()))
							.toList()),
				null);
	}

}

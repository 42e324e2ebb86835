/*
 * What the analysis feature needs from qualification: the finished jobs still waiting for their
 * analysis, the SMART snapshots their events carried, and the places to record it. Recording the verdict is a compare-and-set that only
 * fills an empty verdict, so two replicas analysing the same job cannot overwrite each other; the
 * per-phase figures merged into the phase results are the same whoever writes them.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import io.drivequal.analysis.Criterion;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.runners.Capability;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.platform.BulkWriter;
import io.drivequal.service.platform.PoisonAwareBatch;

import org.springframework.stereotype.Component;

@Component
public class CompletedJobs {

	/** Attempts Elasticsearch makes at a figures update that raced another replica's. */
	static final int UPDATE_RETRIES = 5;

	private final JobStore store;

	private final BulkWriter writer;

	private final Clock clock;

	private final JobEventQueries events;

	CompletedJobs(JobStore store, BulkWriter writer, Clock clock, JobEventQueries events) {
		this.store = store;
		this.writer = writer;
		this.clock = clock;
		this.events = events;
	}

	/**
	 * The facts of a finished job that its analysis reads.
	 *
	 * @param rangeWritesRequired W the submission set for this job; null: the profile's
	 */
	public record JobFacts(String jobId, String profile, String deviceSerial, String driveModel, String firmware,
			Long capacityBytes, List<PhaseSpec> plan, DriveSpec spec, List<Criterion> criteria, Instant endedAt,
			Double rangeWritesRequired, boolean historyUnknown, List<GapRound> gapRounds,
			List<Capability> driveCapabilities) {

		/**
		 * As the canonical constructor, for a job that never lost its runner and whose
		 * drive's capabilities are not known (imports, older jobs).
		 */
		public JobFacts(String jobId, String profile, String deviceSerial, String driveModel, String firmware,
				Long capacityBytes, List<PhaseSpec> plan, DriveSpec spec, List<Criterion> criteria, Instant endedAt,
				Double rangeWritesRequired, boolean historyUnknown) {
			this(jobId, profile, deviceSerial, driveModel, firmware, capacityBytes, plan, spec, criteria, endedAt,
					rangeWritesRequired, historyUnknown, List.of(), null);
		}

		/**
		 * A job whose plan says what was done to the drive (a purge or fill, or a fresh
		 * start).
		 */
		public JobFacts(String jobId, String profile, String deviceSerial, String driveModel, String firmware,
				Long capacityBytes, List<PhaseSpec> plan, DriveSpec spec, List<Criterion> criteria, Instant endedAt,
				Double rangeWritesRequired) {
			this(jobId, profile, deviceSerial, driveModel, firmware, capacityBytes, plan, spec, criteria, endedAt,
					rangeWritesRequired, false);
		}

	}

	/**
	 * The seconds of a phase that follow a runner loss the job resumed from: the round
	 * the gap falls in, whose samples the analysis leaves out, so that round never counts
	 * and no steady-state window spans the gap (docs/methodology.md, "Rounds").
	 */
	public record GapRound(int phaseIndex, int round, long afterS, long throughS, long gapS) {
	}

	public List<JobFacts> awaitingAnalysis(int limit) {
		return this.store.completedWithoutVerdict(limit)
			.stream()
			.map((job) -> new JobFacts(job.jobId(), job.profile(), job.deviceSerial(), job.driveModel(), job.firmware(),
					job.capacityBytes(), job.plan(), job.spec(), job.criteria(), job.endedAt(),
					(job.analysisSettings() != null) ? job.analysisSettings().rangeWritesRequired() : null,
					job.analysisSettings() != null && job.analysisSettings().historyUnknown(), gapRounds(job),
					job.driveCapabilities()))
			.toList();
	}

	/**
	 * Makes the job events written so far searchable. The event consumer writes a job's
	 * events (its SMART snapshots among them) before it moves the job to its final state,
	 * so they are acknowledged by the time a sweep sees the job finished, but searchable
	 * only after their index refreshes; an analysis calls this before smartSnapshots.
	 */
	public void refreshEvents() {
		this.events.refresh();
	}

	/**
	 * The SMART snapshots the job's smart-snapshot events carried, by phase index and
	 * "before"/"after"; a phase without any is absent.
	 */
	public Map<Integer, Map<String, SmartSnapshot>> smartSnapshots(String jobId) {
		return this.events.smartSnapshots(jobId);
	}

	private static List<GapRound> gapRounds(Job job) {
		if (job.gaps() == null) {
			return List.of();
		}
		return job.gaps()
			.stream()
			.filter((gap) -> gap.gapRound() != null)
			.map((gap) -> new GapRound(gap.phaseIndex(), gap.gapRound(), gap.fromSecond(),
					gap.fromSecond() + JobResumer.roundLengthS(job), gap.gapS()))
			.toList();
	}

	/**
	 * Merges each phase's figures into its phase-result document (id jobId/phaseIndex),
	 * which must exist.
	 * @param figures by phase index
	 * @return the reason of the first document Elasticsearch refused, if any
	 * @throws java.io.UncheckedIOException when Elasticsearch cannot be reached
	 */
	public Optional<String> recordPhaseFigures(String jobId, Map<Integer, Map<String, Object>> figures) {
		// Two replicas may analyse the same job at once and merge the same figures into
		// the same document: Elasticsearch retries an update that lost that race, instead
		// of refusing it with a version conflict.
		List<BulkOperation> updates = figures.entrySet()
			.stream()
			.map((entry) -> BulkOperation.of((op) -> op.update((update) -> update.index(PhaseResult.INDEX)
				.id(PhaseResult.documentId(jobId, entry.getKey()))
				.retryOnConflict(UPDATE_RETRIES)
				.action((action) -> action.doc(entry.getValue())))))
			.toList();
		return this.writer.write(updates, false).map(PoisonAwareBatch.Rejection::reason);
	}

	/**
	 * @return false when the job already has a verdict (another replica was first)
	 */
	public boolean recordAnalysis(String jobId, Map<String, Object> analysis, String verdict) {
		Instant now = this.clock.instant();
		return this.store
			.update(jobId, (job) -> (job.verdict() != null) ? Optional.empty() : Optional.of(job.edit((draft) -> {
				draft.analysis = analysis;
				draft.verdict = verdict;
				draft.updatedAt = now;
			})))
			.isPresent();
	}

}

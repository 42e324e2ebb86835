/*
 * A RUNNING job whose runner went silent and came back within the resume grace (a restart, a short
 * network loss) resumes instead of being INTERRUPTED (docs/reliability.md, "Resume after a short
 * runner loss"). A runner that still lists the job never stopped it: nothing to resume. A runner
 * that lost it (restarted) gets a start command with a resume point: the phase the job was in, at
 * the last round boundary its samples reached when that phase is a timed workload, else from the
 * phase's start (a purge, a fill, a sized or adaptive phase restarts); the next phase when that one
 * had completed. The job records the gap; the analysis leaves the gap's round out.
 */
package io.drivequal.service.qualification;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.analysis.Rounds;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.ingest.SampleQueries;
import io.drivequal.service.runners.Runner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

@Component
class JobResumer {

	private static final Logger log = LoggerFactory.getLogger(JobResumer.class);

	/**
	 * The resumed run's events are numbered from n x this for the n-th resume, above any
	 * number an earlier run used (a 15-hour job sends a few thousand events), so no event
	 * document is overwritten; the contract's limit (999,999,999) allows 9 resumes.
	 */
	static final long EVENT_SEQ_STRIDE = 100_000_000L;

	static final int MAX_RESUMES = 9;

	private final JobStore store;

	private final SampleQueries samples;

	private final ElasticsearchClient client;

	private final CommandPublisher commands;

	private final Clock clock;

	JobResumer(JobStore store, SampleQueries samples, ElasticsearchClient client, CommandPublisher commands,
			Clock clock) {
		this.store = store;
		this.samples = samples;
		this.client = client;
		this.commands = commands;
		this.clock = clock;
	}

	/** Whether the job may wait for its runner (not resumed too often already). */
	static boolean mayResume(Job job) {
		return job.state() == JobState.RUNNING && job.plan() != null
				&& (job.gaps() == null || job.gaps().size() < MAX_RESUMES);
	}

	/** The round length the analysis cuts a timed phase into. */
	static int roundLengthS(Job job) {
		return Rounds.DEFAULT_ROUND_LENGTH_S;
	}

	/**
	 * The second a phase resumes from: the last round boundary its samples reached for a
	 * timed workload phase without rounds, before its end; 0 (the phase restarts) for
	 * every other phase.
	 */
	static long fromSecond(PhaseSpec phase, OptionalInt latestT, int roundLengthS) {
		if (!"workload".equals(phase.kind()) || phase.rounds() != null || phase.sizeBytes() != null
				|| phase.runtimeS() == null || latestT.isEmpty()) {
			return 0;
		}
		long from = (latestT.getAsInt() / roundLengthS) * (long) roundLengthS;
		return (from < phase.runtimeS()) ? from : 0;
	}

	/**
	 * The runner is back: resume the job, or just clear the loss if the runner kept it.
	 */
	Optional<Job> runnerBack(Job job, Runner runner) {
		Instant now = this.clock.instant();
		Instant lostAt = job.runnerLostAt();
		long gapS = Duration.between(lostAt, now).toSeconds();
		if (runner.activeJobIds().contains(job.jobId())) {
			// The job comes from a search: the update judges the stored one (a resume of
			// a
			// second ago has already cleared the loss).
			Optional<Job> kept = this.store.update(job.jobId(), (current) -> (current.runnerLostAt() == null)
					? Optional.empty() : Optional.of(current.edit((draft) -> {
						draft.runnerLostAt = null;
						draft.message = "runner " + runner.runnerId() + " was silent for " + gapS
								+ " s and kept running the job";
						draft.updatedAt = now;
					})));
			kept.ifPresent((current) -> log.info("runner {} is back after {} s and still runs job {}",
					runner.runnerId(), gapS, current.jobId()));
			return kept;
		}
		int phaseIndex = (job.currentPhaseIndex() != null) ? job.currentPhaseIndex() : 0;
		long fromSecond = 0;
		if (phaseCompleted(job.jobId(), phaseIndex)) {
			phaseIndex++;
		}
		else {
			fromSecond = fromSecond(job.plan().get(phaseIndex), this.samples.latestT(job.jobId(), phaseIndex),
					roundLengthS(job));
		}
		if (phaseIndex >= job.plan().size()) {
			return Optional.empty(); // every phase completed: its final event is on its
										// way
		}
		int resumeNumber = ((job.gaps() != null) ? job.gaps().size() : 0) + 1;
		long eventSeq = resumeNumber * EVENT_SEQ_STRIDE;
		Job.Gap gap = new Job.Gap(phaseIndex, fromSecond,
				(fromSecond > 0) ? (int) (fromSecond / roundLengthS(job)) : null, lostAt, now, gapS, eventSeq);
		int resumePhase = phaseIndex;
		long resumeSecond = fromSecond;
		Optional<Job> resumed = this.store.update(job.jobId(),
				(current) -> (current.state() != JobState.RUNNING || current.runnerLostAt() == null) ? Optional.empty()
						: Optional.of(current.edit((draft) -> {
							List<Job.Gap> gaps = new ArrayList<>((current.gaps() != null) ? current.gaps() : List.of());
							gaps.add(gap);
							draft.gaps = gaps;
							draft.runnerLostAt = null;
							draft.commandId = "resume-" + current.jobId() + "-" + resumeNumber;
							draft.dispatchedAt = now;
							draft.message = "runner " + runner.runnerId() + " was lost for " + gapS
									+ " s; resumed at phase " + resumePhase + ", second " + resumeSecond;
							draft.updatedAt = now;
						})));
		resumed.ifPresent((current) -> {
			this.commands.resume(current, resumePhase, resumeSecond, eventSeq);
			log.warn("job {}: {}", current.jobId(), current.message());
		});
		return resumed;
	}

	private boolean phaseCompleted(String jobId, int phaseIndex) {
		try {
			return this.client
				.exists((exists) -> exists.index(PhaseResult.INDEX).id(PhaseResult.documentId(jobId, phaseIndex)))
				.value();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

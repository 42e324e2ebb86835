/*
 * Turns stored jobs into what the API shows, adding what is computed at read time (progress, ETA,
 * queue position) rather than written on every sample.
 */
package io.drivequal.service.qualification;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.ingest.SampleQueries;

import org.springframework.stereotype.Component;

@Component
class Views {

	private final DriveQueues queues;

	private final SampleQueries samples;

	Views(DriveQueues queues, SampleQueries samples) {
		this.queues = queues;
		this.samples = samples;
	}

	QualificationView full(Job job, List<String> warnings) {
		OptionalInt latestT = (job.state() == JobState.RUNNING && job.currentPhaseIndex() != null)
				? this.samples.latestT(job.jobId(), job.currentPhaseIndex()) : OptionalInt.empty();
		Progress progress = Progress.of(job, latestT);
		Integer queuePosition = this.queues.positions(List.of(job)).get(job.jobId());
		return view(job, progress, queuePosition, warnings);
	}

	/**
	 * For listings: no per-job queries. The progress of the page's running jobs costs one
	 * search; the queue positions one search per drive with queued jobs on it.
	 */
	List<QualificationView> page(List<Job> jobs) {
		Map<String, Integer> positions = this.queues.positions(jobs);
		Map<String, Integer> runningPhases = new HashMap<>();
		for (Job job : jobs) {
			if (job.state() == JobState.RUNNING && job.currentPhaseIndex() != null) {
				runningPhases.put(job.jobId(), job.currentPhaseIndex());
			}
		}
		Map<String, Integer> latestT = this.samples.latestT(runningPhases);
		return jobs.stream().map((job) -> {
			Integer t = latestT.get(job.jobId());
			OptionalInt latest = (t != null) ? OptionalInt.of(t) : OptionalInt.empty();
			return view(job, Progress.of(job, latest), positions.get(job.jobId()), null);
		}).toList();
	}

	/** For listings: no per-job queries, so a page of 100 jobs costs one search. */
	QualificationView summary(Job job) {
		return view(job, Progress.of(job, OptionalInt.empty()), null, null);
	}

	private static QualificationView view(Job job, Progress progress, Integer queuePosition, List<String> warnings) {
		QualificationView.CurrentPhase current = null;
		if (job.currentPhaseIndex() != null && job.plan() != null) {
			current = job.plan()
				.stream()
				.filter((phase) -> phase.index() == job.currentPhaseIndex().intValue())
				.findFirst()
				.map((PhaseSpec phase) -> new QualificationView.CurrentPhase(phase.index(), phase.name(), phase.kind()))
				.orElse(null);
		}
		return new QualificationView(job.jobId(), job.state(), job.submitter(), job.profile(),
				new QualificationView.DriveView(job.deviceSerial(), job.driveModel(), job.firmware(), job.runnerId(),
						job.transportAddress(), job.engine(), job.capacityBytes(), job.lbaSizeBytes()),
				job.plan(), job.spec(), job.criteria(), current, progress.percent(), progress.etaS(), queuePosition,
				job.queuedAt(), job.dispatchedAt(), job.startedAt(), job.endedAt(), job.cancelRequestedAt() != null,
				job.verdict(), job.failureReason(), job.message(), job.analysis(),
				(warnings == null || warnings.isEmpty()) ? null : warnings, job.criteriaSet(), job.analysisSettings(),
				JobPriority.of(job).wireName(), job.notBefore(), job.runnerLostAt(),
				(job.gaps() == null || job.gaps().isEmpty()) ? null
						: job.gaps()
							.stream()
							.map((gap) -> new QualificationView.RunnerGap(gap.phaseIndex(), gap.fromSecond(),
									gap.gapRound(), gap.lostAt(), gap.resumedAt(), gap.gapS()))
							.toList());
	}

}

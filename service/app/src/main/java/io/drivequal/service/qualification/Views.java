/*
 * Turns stored jobs into what the API shows, adding what is computed at read time (progress, ETA,
 * queue position) rather than written on every sample. The ETA is measured (EtaEstimator): the
 * running phase from its samples so far, the phases ahead from the drive model's history, and a
 * queued job's wait from the ETAs of the jobs ahead of it on its drive.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.ingest.PhaseMeasurement;
import io.drivequal.service.ingest.SampleQueries;

import org.springframework.stereotype.Component;

@Component
class Views {

	private final DriveQueues queues;

	private final SampleQueries samples;

	private final JobStore store;

	private final EtaHistory history;

	private final PhaseReadings readings;

	private final Clock clock;

	Views(DriveQueues queues, SampleQueries samples, JobStore store, EtaHistory history, PhaseReadings readings,
			Clock clock) {
		this.queues = queues;
		this.samples = samples;
		this.store = store;
		this.history = history;
		this.readings = readings;
		this.clock = clock;
	}

	QualificationView full(Job job, List<String> warnings) {
		return page(List.of(job), warnings).get(0);
	}

	/**
	 * For listings: a bounded number of searches, not one per job. The running jobs'
	 * measurements cost one search; the history one per drive model shown (reused for a
	 * few seconds); the queue positions one per drive with queued jobs on it; the waits
	 * of queued jobs one more for the jobs holding their drives and one for what those
	 * measured.
	 */
	List<QualificationView> page(List<Job> jobs) {
		return page(jobs, null);
	}

	private List<QualificationView> page(List<Job> jobs, List<String> warnings) {
		Instant now = this.clock.instant();
		Map<String, Integer> positions = this.queues.positions(jobs);
		Map<String, PhaseMeasurement> measured = measure(jobs);
		Map<String, Progress> progress = new HashMap<>();
		for (Job job : jobs) {
			progress.put(job.jobId(), estimate(job, measured.get(job.jobId()), now, null));
		}
		waits(jobs, progress, now);
		return jobs.stream()
			.map((job) -> view(job, progress.get(job.jobId()), positions.get(job.jobId()), warnings))
			.toList();
	}

	/** For listings of ended jobs: no queries; an active job's ETA from its plan only. */
	QualificationView summary(Job job) {
		Progress progress = EtaEstimator
			.estimate(new EtaEstimator.Inputs(this.clock.instant(), job, null, List.of(), null));
		return view(job, progress, null, null);
	}

	private Progress estimate(Job job, PhaseMeasurement measured, Instant now, Double driveClockRate) {
		return EtaEstimator.estimate(inputs(job, measured, now, driveClockRate));
	}

	private EtaEstimator.Inputs inputs(Job job, PhaseMeasurement measured, Instant now, Double driveClockRate) {
		PhaseReadings.Reading earlier = null;
		if (job.state() != JobState.RUNNING) {
			this.readings.forget(job.jobId());
		}
		else if (measured != null) {
			earlier = this.readings.first(job.jobId(), measured.phaseIndex(), measured.latestT(), now);
		}
		return new EtaEstimator.Inputs(now, job, measured,
				job.state().isFinal() ? List.of() : this.history.of(job.driveModel()), driveClockRate, earlier);
	}

	/** What the running phase of each running job has measured. */
	private Map<String, PhaseMeasurement> measure(Collection<Job> jobs) {
		Map<String, Integer> runningPhases = new HashMap<>();
		for (Job job : jobs) {
			if (job.state() == JobState.RUNNING && job.currentPhaseIndex() != null) {
				runningPhases.put(job.jobId(), job.currentPhaseIndex());
			}
		}
		return this.samples.measure(runningPhases);
	}

	/**
	 * Puts each queued job's wait in front of its ETA: the time left of the job holding
	 * its drive, then the ETAs of the queued jobs ahead of it, summed; or its start
	 * window when that ends later.
	 */
	private void waits(List<Job> jobs, Map<String, Progress> progress, Instant now) {
		Set<String> serials = new LinkedHashSet<>();
		for (Job job : jobs) {
			if (job.state() == JobState.QUEUED && job.deviceSerial() != null) {
				serials.add(job.deviceSerial());
			}
		}
		if (serials.isEmpty()) {
			return;
		}
		Map<String, Job> holders = this.store.holding(serials);
		Map<String, PhaseMeasurement> holderMeasured = measure(holders.values());
		Map<String, List<Job>> queues = new HashMap<>();
		Map<String, Progress> ahead = new HashMap<>();
		for (Job job : jobs) {
			if (job.state() != JobState.QUEUED || job.deviceSerial() == null) {
				continue;
			}
			String serial = job.deviceSerial();
			List<EtaEstimator.Part> parts = new ArrayList<>();
			Double driveClockRate = null;
			Job holder = holders.get(serial);
			if (holder != null) {
				PhaseMeasurement holding = holderMeasured.get(holder.jobId());
				Progress held = progress.containsKey(holder.jobId()) ? progress.get(holder.jobId())
						: estimate(holder, holding, now, null);
				parts.add(EtaEstimator.asPart(held));
				driveClockRate = EtaEstimator.clockRate(inputs(holder, holding, now, null));
			}
			List<Job> queue = queues.computeIfAbsent(serial,
					(drive) -> this.store.queuedInOrder(drive, DriveQueues.MAX_QUEUE));
			for (Job other : queue) {
				if (!other.jobId().equals(job.jobId()) && DriveQueues.DISPATCH_ORDER.compare(other, job) < 0) {
					Double rate = driveClockRate;
					parts.add(EtaEstimator
						.asPart(ahead.computeIfAbsent(other.jobId(), (id) -> estimate(other, null, now, rate))));
				}
			}
			Progress own = (driveClockRate != null) ? estimate(job, null, now, driveClockRate)
					: progress.get(job.jobId());
			long startWindowS = (job.notBefore() != null)
					? Math.max(0, job.notBefore().getEpochSecond() - now.getEpochSecond()) : 0;
			progress.put(job.jobId(),
					EtaEstimator.withWait(own, parts.isEmpty() ? null : EtaInterval.combine(parts), startWindowS));
		}
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
				job.plan(), job.spec(), job.criteria(), current, progress.percent(), progress.etaS(), progress.eta(),
				queuePosition, job.queuedAt(), job.dispatchedAt(), job.startedAt(), job.endedAt(),
				job.cancelRequestedAt() != null, job.verdict(), job.failureReason(), job.message(), job.analysis(),
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

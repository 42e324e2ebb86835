/*
 * Analyses finished jobs. A sweep rather than a call from the event consumer: it survives a crash
 * between COMPLETED and the analysis, works with any number of replicas (recording is a
 * compare-and-set), and waits until every sample the runner reported is indexed — samples and
 * events travel on different topics and may arrive in any order.
 */
package io.drivequal.service.analysis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.analysis.Outcome;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.Profile;
import io.drivequal.service.ingest.HealthQueries;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.ingest.PhaseResultQueries;
import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.ingest.SampleQueries;
import io.drivequal.service.qualification.CompletedJobs;
import io.drivequal.service.qualification.SmartSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
@EnableConfigurationProperties(AnalysisSweeper.AnalysisSettings.class)
class AnalysisSweeper {

	private static final Logger log = LoggerFactory.getLogger(AnalysisSweeper.class);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * @param sampleGrace how long after the job ended to wait for missing samples before
	 * analysing what arrived (and saying so in the notes)
	 */
	@ConfigurationProperties("drivequal.analysis")
	record AnalysisSettings(@DefaultValue("2m") Duration sampleGrace) {
	}

	private final CompletedJobs jobs;

	private final PhaseResultQueries results;

	private final SampleQueries samples;

	private final HealthQueries health;

	private final Catalog catalog;

	private final AnalysisSettings settings;

	private final Clock clock;

	AnalysisSweeper(CompletedJobs jobs, PhaseResultQueries results, SampleQueries samples, HealthQueries health,
			Catalog catalog, AnalysisSettings settings, Clock clock) {
		this.jobs = jobs;
		this.results = results;
		this.samples = samples;
		this.health = health;
		this.catalog = catalog;
		this.settings = settings;
		this.clock = clock;
	}

	@Scheduled(fixedDelayString = "${drivequal.analysis.sweep-interval:2s}")
	void run() {
		try {
			List<CompletedJobs.JobFacts> awaiting = this.jobs.awaitingAnalysis(20);
			if (!awaiting.isEmpty()) {
				refreshEventIndices();
			}
			for (CompletedJobs.JobFacts job : awaiting) {
				try (MDC.MDCCloseable context = MDC.putCloseable("jobId", job.jobId())) {
					analyze(job);
				}
			}
		}
		catch (RuntimeException ex) {
			log.warn("analysis sweep failed: {}", ex.toString());
		}
	}

	/**
	 * Makes searchable what the finished jobs' events wrote. The event consumer writes a
	 * job's health readings, phase results and events (SMART snapshots among them) before
	 * it moves the job to its final state, so they are acknowledged by the time a sweep
	 * sees the job finished; but searchable only after their index refreshes, which runs
	 * on its own schedule (or, for an index nobody searched lately, at the next search).
	 * Samples have a count to wait for (the phase result's); these have none, so an
	 * analysis that read them before the refresh judged a hot drive's temperature unknown
	 * (it happened in CI, with the events consumer catching up on a whole job at once).
	 */
	private void refreshEventIndices() {
		this.health.refresh();
		this.results.refresh();
		this.jobs.refreshEvents();
	}

	/**
	 * @return true when the analysis was recorded
	 */
	boolean analyze(CompletedJobs.JobFacts job) {
		Map<Integer, PhaseResult> results = this.results.byPhase(job.jobId());
		Map<Integer, Map<String, SmartSnapshot>> smart = this.jobs.smartSnapshots(job.jobId());
		List<String> notes = new ArrayList<>();
		boolean graceOver = job.endedAt() == null
				|| this.clock.instant().isAfter(job.endedAt().plus(this.settings.sampleGrace()));
		List<JobAnalyzer.PhaseInput> inputs = new ArrayList<>();
		for (PhaseSpec phase : job.plan()) {
			PhaseResult result = results.get(phase.index());
			long expected = (result != null) ? result.samples() : 0;
			long indexed = this.samples.count(job.jobId(), phase.index());
			if (indexed < expected) {
				if (!graceOver) {
					return false;
				}
				notes.add("phase " + phase.name() + ": " + indexed + " of " + expected
						+ " samples were indexed when the analysis ran");
			}
			if (result == null && !"idle".equals(phase.kind())) {
				// Events and samples travel separately: wait for the phase's result a
				// while.
				if (!graceOver) {
					return false;
				}
				notes.add("phase " + phase.name() + ": no phase-completed result arrived");
			}
			List<SamplePoint> samples = (indexed > 0) ? this.samples.ofPhase(job.jobId(), phase.index()) : List.of();
			for (CompletedJobs.GapRound gap : job.gapRounds()) {
				if (gap.phaseIndex() == phase.index()) {
					// The round after a runner loss: the drive idled through the gap, so
					// its
					// figures are not those of the workload; left out, it never counts.
					samples = samples.stream()
						.filter((sample) -> sample.t() <= gap.afterS() || sample.t() > gap.throughS())
						.toList();
					notes.add("phase " + phase.name() + ": round " + gap.round() + " (t " + gap.afterS() + "-"
							+ gap.throughS() + " s) follows a runner loss of " + gap.gapS() + " s and is not counted");
				}
			}
			inputs.add(new JobAnalyzer.PhaseInput(phase, result, samples, smart.get(phase.index())));
		}
		Optional<Profile> profile = Optional.ofNullable(job.profile()).flatMap(this.catalog::find);
		JobAnalyzer.JobAnalysis analysis = JobAnalyzer.analyze(job, profile, inputs, this.health.ofJob(job.jobId()),
				notes);
		// Figures before the verdict: a crash in between analyses the job again, and
		// rewrites the same figures; the other order could leave a verdict without them.
		Map<Integer, Map<String, Object>> figures = new LinkedHashMap<>();
		for (JobAnalyzer.PhaseAnalysis phase : analysis.phases()) {
			if (results.containsKey(phase.phaseIndex())) {
				figures.put(phase.phaseIndex(), PhaseFigures.of(job, phase));
			}
		}
		this.jobs.recordPhaseFigures(job.jobId(), figures)
			.ifPresent((reason) -> log.warn("phase figures of job {} not stored: {}", job.jobId(), reason));
		@SuppressWarnings("unchecked")
		Map<String, Object> stored = JSON.convertValue(analysis, Map.class);
		stored.put("analyzedAt", Instant.now(this.clock).toString());
		Outcome outcome = analysis.verdict().outcome();
		boolean recorded = this.jobs.recordAnalysis(job.jobId(), stored, outcome.name());
		if (recorded) {
			log.info("job {} analysed: verdict {}", job.jobId(), outcome);
		}
		return recorded;
	}

}

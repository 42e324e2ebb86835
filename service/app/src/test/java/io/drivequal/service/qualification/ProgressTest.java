/*
 * Progress and ETA (EtaEstimator) on deterministic inputs, checked by hand: consistency-2000s on a
 * 1 TB drive is a purge (auto: nominally a Sanitize block erase, 1e12 B at 4 GB/s + 2 s of proof =
 * 252 s), a fill (1e12 B at a nominal 2 GB/s = 500 s) and 2000 s of random writes. What is measured
 * replaces what is nominal; each ETA says which it rests on.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.ingest.PhaseMeasurement;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {

	static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

	static final long TB = 1_000_000_000_000L;

	static final List<PhaseSpec> PLAN = List.of(
			new PhaseSpec(0, "purge", "purge", null, null, null, null, null, null, null, null, null, null, "auto", null,
					null),
			new PhaseSpec(1, "precondition", "precondition", "write", null, 131072, 32, 100.0, null, null, 1, "random",
					null, null, null, null),
			new PhaseSpec(2, "randwrite-4k-qd32", "workload", "randwrite", null, 4096, 32, 100.0, 2000L, null, null,
					"random", null, null, true, null));

	static final Job RUNNING = new Job.Draft().build().edit((draft) -> {
		draft.jobId = "q-1";
		draft.state = JobState.RUNNING;
		draft.driveModel = "MODEL-1";
		draft.runnerId = "runner-1";
		draft.engine = "uring";
		draft.capacityBytes = TB;
		draft.plan = PLAN;
		draft.startedAt = NOW.minusSeconds(1430);
	});

	static Instant ago(long seconds) {
		return NOW.minusSeconds(seconds);
	}

	/**
	 * A finished phase that ran from {@code startAgoS} for {@code wallS} (clock: as
	 * long).
	 */
	static Job.PhaseTime done(int index, long startAgoS, long wallS, boolean simulated, long clockS) {
		return new Job.PhaseTime(index, ago(startAgoS), simulated, ago(startAgoS - wallS), clockS * 1000);
	}

	static Job.PhaseTime running(int index, long startAgoS, boolean simulated) {
		return new Job.PhaseTime(index, ago(startAgoS), simulated, null, null);
	}

	static Progress estimate(Job job, PhaseMeasurement measured, List<Job> history) {
		return EtaEstimator.estimate(new EtaEstimator.Inputs(NOW, job, measured, history, null));
	}

	@Test
	void aTimedPhaseOnARealDriveEndsOnItsOwnClock() {
		Job job = RUNNING.edit((draft) -> {
			draft.currentPhaseIndex = 2;
			draft.phaseTimes = List.of(done(0, 1430, 30, false, 30), done(1, 1400, 400, false, 400),
					running(2, 1000, false));
		});
		Progress progress = estimate(job, new PhaseMeasurement(2, 1000, 1000, 0, List.of()), List.of());
		// 2000 - 1000 s left, exact; done = 30 + 400 + 1000 of 30 + 400 + 2000 s -> 58.8
		// %
		assertThat(progress.etaS()).isEqualTo(1000);
		assertThat(progress.eta().basis()).isEqualTo(EtaView.Basis.PLAN);
		assertThat(progress.eta().label()).isEqualTo("plan (timed phase)");
		assertThat(progress.eta().lowS()).isEqualTo(1000);
		assertThat(progress.eta().highS()).isEqualTo(1000);
		assertThat(progress.percent()).isEqualTo(58.8);
	}

	@Test
	void aFillIsTimedByItsThroughputSoFar() {
		Job job = RUNNING.edit((draft) -> {
			draft.currentPhaseIndex = 1;
			draft.phaseTimes = List.of(done(0, 130, 30, false, 30), running(1, 100, false));
		});
		// 250 GB in 100 s: 2.5 GB/s, so the other 750 GB take 300 s; then 2000 s exactly.
		Progress progress = estimate(job, new PhaseMeasurement(1, 100, 100, 250_000_000_000L, List.of()), List.of());
		assertThat(progress.etaS()).isEqualTo(2300);
		assertThat(progress.eta().basis()).isEqualTo(EtaView.Basis.MEASURED);
		assertThat(progress.eta().label()).isEqualTo("measured");
		assertThat(progress.eta().phases()).extracting(EtaView.PhaseEta::remainingS).containsExactly(300L, 2000L);
		assertThat(progress.eta().phases().get(0).detail()).isEqualTo("250.0 of 1000.0 GB at 2500 MB/s so far");
		// no interval: the fill's measured rate has none
		assertThat(progress.eta().lowS()).isNull();
	}

	@Test
	void aSimulatedDriveIsTimedByItsMeasuredClock() {
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 1;
			draft.phaseTimes = List.of(done(0, 11, 1, true, 0), running(1, 10, true));
		});
		// 100 simulated seconds in 10 wall seconds: 10 x real time. The fill moved 200 of
		// 1000 GB (2 GB/s simulated): 400 simulated s left, 40 wall s; the 2000 s phase
		// 200.
		Progress progress = estimate(job, new PhaseMeasurement(1, 100, 100, 200_000_000_000L, List.of()), List.of());
		assertThat(progress.eta().phases()).extracting(EtaView.PhaseEta::remainingS).containsExactly(40L, 200L);
		assertThat(progress.etaS()).isEqualTo(240);
		assertThat(progress.eta().basis()).isEqualTo(EtaView.Basis.MEASURED);
		assertThat(progress.eta().phases().get(1).detail()).isEqualTo(
				"2000 s, simulated clock at 10.0 x real time (the rate of this job's clock on another kind of phase)");
		// random writes may run the clock 3 x faster or slower than the fill did
		assertThat(progress.eta().phases().get(1).lowS()).isEqualTo(67);
		assertThat(progress.eta().phases().get(1).highS()).isEqualTo(600);
	}

	@Test
	void aSimulatedClockIsMeasuredBetweenTwoReadingsWhereThereAreTwo() {
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 2;
			draft.phaseTimes = List.of(done(0, 13, 1, true, 0), done(1, 12, 2, true, 20), running(2, 10, true));
		});
		// Since the start, 150 s in 10 s: 15 x, but the samples reach the index late.
		// Between a reading 6 s ago (t = 50) and now, 100 s in 6 s: 16.7 x, so the
		// phase's 2000 s take 120 s, 110 s from now (t = 150 is a second behind: 1850 s
		// at 16.7 x would be 111 s); at 15 x (the slower measure) 133 s, 123 s from now.
		// With the finished fill's 10 x (20 s in 2 s) the measures are 1.67 x apart,
		// 7.5 % of the phase done: the rest may run from 10 x to the average times
		// 1.67^0.46 = 1.27 (EtaInterval.forRest), 19 x: 95 s to 190 s from now.
		PhaseReadings.Reading earlier = new PhaseReadings.Reading(2, 50, ago(6));
		Progress progress = EtaEstimator.estimate(new EtaEstimator.Inputs(NOW, job,
				new PhaseMeasurement(2, 150, 150, 0, List.of()), List.of(), null, earlier));
		assertThat(progress.etaS()).isEqualTo(110);
		assertThat(progress.eta().lowS()).isEqualTo(95);
		assertThat(progress.eta().highS()).isEqualTo(190);
		assertThat(progress.eta().phases().get(0).detail())
			.isEqualTo("150 of 2000 s, simulated clock at 16.7 x real time");
		// a reading of another phase, or too recent, is no reading
		Progress unread = EtaEstimator
			.estimate(new EtaEstimator.Inputs(NOW, job, new PhaseMeasurement(2, 150, 150, 0, List.of()), List.of(),
					null, new PhaseReadings.Reading(1, 5, ago(9))));
		assertThat(unread.etaS()).isEqualTo(123);
		// its range: the average since the start, 15 x, to the fill's 10 x (widened)
		assertThat(unread.eta().lowS()).isEqualTo(101);
		assertThat(unread.eta().highS()).isEqualTo(190);
	}

	@Test
	void thePhasesAheadComeFromTheModelsHistoryScaledByThisJobsSpeed() {
		Job past1 = completed("q-past1", 110, 50);
		Job past2 = completed("q-past2", 130, 70);
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 1;
			draft.phaseTimes = List.of(done(0, 21, 1, true, 0), running(1, 20, true));
		});
		// The past fills ran 500 simulated s in 50 and 70 wall s (10 and 7.14 x real
		// time,
		// median 8.57); this one runs 100 s in 20 s: 5 x, so 1.71 x slower. The 2000 s
		// phase took 110 and 130 s before: median 120 x 1.71 = 206 s, between 189 and
		// 223.
		Progress progress = estimate(job, new PhaseMeasurement(1, 100, 100, 200_000_000_000L, List.of()),
				List.of(past1, past2));
		EtaView.PhaseEta ahead = progress.eta().phases().get(1);
		assertThat(ahead.basis()).isEqualTo(EtaView.Basis.HISTORY);
		assertThat(ahead.label()).isEqualTo("from history (2 jobs)");
		assertThat(ahead.remainingS()).isEqualTo(206);
		assertThat(ahead.lowS()).isEqualTo(189);
		assertThat(ahead.highS()).isEqualTo(223);
		assertThat(progress.eta().basis()).isEqualTo(EtaView.Basis.HISTORY);
		assertThat(progress.eta().historyJobs()).isEqualTo(2);
	}

	@Test
	void historyOfAnotherCapacityOrASimulatedDriveOfAnotherRunnerIsNotThisDrives() {
		Job other = completed("q-other", 110, 50).edit((draft) -> draft.capacityBytes = 2 * TB);
		Job elsewhere = completed("q-elsewhere", 110, 50).edit((draft) -> draft.runnerId = "another-runner");
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 1;
			draft.phaseTimes = List.of(running(1, 10, true));
		});
		Progress progress = estimate(job, new PhaseMeasurement(1, 100, 100, 200_000_000_000L, List.of()),
				List.of(other, elsewhere));
		assertThat(progress.eta().phases().get(1).basis()).isEqualTo(EtaView.Basis.MEASURED);
	}

	@Test
	void aPurgeIsTimedByItsMethodAndCapacityLessTheTimeItRan() {
		List<PhaseSpec> plan = List.of(new PhaseSpec(0, "purge", "purge", null, null, null, null, null, null, null,
				null, null, null, "sanitize-overwrite", null, null));
		Job job = RUNNING.edit((draft) -> {
			draft.plan = plan;
			draft.currentPhaseIndex = 0;
			draft.phaseTimes = List.of(running(0, 300, false));
		});
		// An overwrite of 1 TB at a nominal 1 GB/s (3 GB/s to 0.2 GB/s) + 2 s of proof.
		Progress progress = estimate(job, null, List.of());
		assertThat(progress.etaS()).isEqualTo(1002 - 300);
		assertThat(progress.eta().lowS()).isEqualTo(336 - 300);
		assertThat(progress.eta().highS()).isEqualTo(5002 - 300);
		assertThat(progress.eta().label()).isEqualTo("estimate: constant");
		assertThat(progress.eta().phases().get(0).detail()).contains("sanitize-overwrite of 1000 GB")
			.contains("does not report a Sanitize's progress log");
	}

	@Test
	void aQueuedJobWithNothingMeasuredIsNominal() {
		Job queued = RUNNING.edit((draft) -> {
			draft.state = JobState.QUEUED;
			draft.startedAt = null;
		});
		Progress progress = estimate(queued, null, List.of());
		assertThat(progress.percent()).isZero();
		assertThat(progress.etaS()).isEqualTo(252 + 500 + 2000);
		assertThat(progress.eta().basis()).isEqualTo(EtaView.Basis.CONSTANT);
		// purge: 4 s (crypto) to 2002 s (0.5 GB/s); fill: 167 s to 1500 s; 2000 s exact
		assertThat(progress.eta().lowS()).isEqualTo(4 + 167 + 2000);
		assertThat(progress.eta().highS()).isEqualTo(2002 + 1500 + 2000);
	}

	@Test
	void aQueuedJobWaitsForTheJobsAheadOfIt() {
		Job queued = RUNNING.edit((draft) -> {
			draft.state = JobState.QUEUED;
			draft.startedAt = null;
		});
		Progress own = estimate(queued, null, List.of());
		EtaEstimator.Part holder = new EtaEstimator.Part(1000, null, null, EtaView.Basis.PLAN, null, null);
		EtaEstimator.Part ahead = EtaEstimator.asPart(own);
		Progress waiting = EtaEstimator.withWait(own, EtaInterval.combine(List.of(holder, ahead)), 0);
		assertThat(waiting.eta().waitS()).isEqualTo(1000 + 2752);
		assertThat(waiting.etaS()).isEqualTo(1000 + 2752 + 2752);
		// the holder's time left has no interval, and it matters: none for the whole
		assertThat(waiting.eta().lowS()).isNull();
		assertThat(waiting.eta().basis()).isEqualTo(EtaView.Basis.CONSTANT);
		// a start window further out than the wait is the wait
		Progress windowed = EtaEstimator.withWait(own, EtaInterval.combine(List.of(holder)), 5000);
		assertThat(windowed.eta().waitS()).isEqualTo(5000);
		assertThat(windowed.etaS()).isEqualTo(5000 + 2752);
	}

	@Test
	void neverHundredBeforeTheCompletionEvent() {
		Job job = RUNNING.edit((draft) -> {
			draft.currentPhaseIndex = 2;
			draft.phaseTimes = List.of(done(0, 2430, 30, false, 30), done(1, 2400, 400, false, 400),
					running(2, 2000, false));
		});
		Progress atTheEnd = estimate(job, new PhaseMeasurement(2, 2000, 2000, 0, List.of()), List.of());
		assertThat(atTheEnd.percent()).isLessThan(100.0);
		assertThat(atTheEnd.etaS()).isZero();
		Progress completed = estimate(job.edit((draft) -> draft.state = JobState.COMPLETED), null, List.of());
		assertThat(completed.percent()).isEqualTo(100.0);
		assertThat(completed.eta()).isNull();
	}

	@Test
	void aJobFromBeforePhaseTimesRunsItsCurrentPhase() {
		Job job = RUNNING.edit((draft) -> draft.currentPhaseIndex = 2);
		Progress progress = estimate(job, new PhaseMeasurement(2, 1500, 1500, 0, List.of()), List.of());
		assertThat(progress.etaS()).isEqualTo(500);
	}

	@Test
	void tooShortToMeasureItsClockTheShareDoneIsStillItsOwnSeconds() {
		List<PhaseSpec> plan = List.of(new PhaseSpec(0, "randwrite", "workload", "randwrite", null, 4096, 32, 100.0, 3L,
				null, null, "random", null, null, null, null));
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.plan = plan;
			draft.currentPhaseIndex = 0;
			draft.phaseTimes = List.of(running(0, 5, true));
		});
		// 2 of its 3 s, too few to trust a clock rate: 66.7 % done, the time by the plan
		Progress progress = estimate(job, new PhaseMeasurement(0, 2, 2, 0, List.of()), List.of());
		assertThat(progress.percent()).isEqualTo(66.7);
		assertThat(progress.eta().basis()).isEqualTo(EtaView.Basis.CONSTANT);
	}

	/** A COMPLETED simulated job whose fill ran 500 simulated s in fillWallS. */
	static Job completed(String jobId, long randwriteWallS, long fillWallS) {
		return RUNNING.edit((draft) -> {
			draft.jobId = jobId;
			draft.state = JobState.COMPLETED;
			draft.engine = "sim";
			draft.phaseTimes = List.of(done(0, 10_000, 1, true, 0), done(1, 9_000, fillWallS, true, 500),
					done(2, 8_000, randwriteWallS, true, 2000));
		});
	}

}

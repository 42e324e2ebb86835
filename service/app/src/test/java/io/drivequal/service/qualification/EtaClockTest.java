/*
 * An unpaced simulated drive's ETA (EtaEstimator with EtaClock) on deterministic inputs, checked by
 * hand with ProgressTest's plan (purge, fill, 2000 s of random writes): the runner's clock rate
 * times the running phase from its first samples, its position moved on for the samples' delay to
 * the index; a phase ahead takes the rate of its own kind of phase, from earlier jobs of the model
 * (another profile's phase of the same kind counts), else from another kind of phase with a wide
 * interval.
 */
package io.drivequal.service.qualification;

import java.util.List;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.ingest.PhaseMeasurement;
import org.junit.jupiter.api.Test;

import static io.drivequal.service.qualification.ProgressTest.NOW;
import static io.drivequal.service.qualification.ProgressTest.PLAN;
import static io.drivequal.service.qualification.ProgressTest.RUNNING;
import static io.drivequal.service.qualification.ProgressTest.done;
import static io.drivequal.service.qualification.ProgressTest.estimate;
import static io.drivequal.service.qualification.ProgressTest.running;
import static org.assertj.core.api.Assertions.assertThat;

class EtaClockTest {

	/** The runner's rate, sent with the last indexed second wallAgoMs before now. */
	static PhaseMeasurement measured(int phase, int t, long bytes, long wallAgoMs, double rate) {
		return new PhaseMeasurement(phase, t, t, bytes, List.of(),
				new PhaseMeasurement.SimulatedClock(NOW.toEpochMilli() - wallAgoMs, rate));
	}

	@Test
	void theRunnersRateTimesTheRunningPhaseFromItsFirstSeconds() {
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 2;
			draft.phaseTimes = List.of(done(0, 15, 1, true, 0), done(1, 14, 10, true, 900), running(2, 4, true));
		});
		// 4 wall s into the phase (too soon for the service's own measure of the rate);
		// second 200 was sent 1 s ago at 200 x: the clock is at 400 now, 1600 s to go at
		// 200 x is 8 s. Its measures, 200 x, the phase's average so far (400 s in 4 s,
		// 100 x) and the finished fill's 90 x, are 2.2 x apart; with 10 % of the phase
		// done the rest may run at that average over or times 2.22^0.45 = 1.43
		// (EtaInterval.forRest): 70 x to 200 x, 22.9 s to 8 s; the floor (2 s + 3 % of
		// 8 s) takes the low end to 5.8.
		Progress progress = estimate(job, measured(2, 200, 0, 1000, 200.0), List.of());
		assertThat(progress.etaS()).isEqualTo(8);
		assertThat(progress.eta().basis()).isEqualTo(EtaView.Basis.MEASURED);
		assertThat(progress.eta().lowS()).isEqualTo(6);
		assertThat(progress.eta().highS()).isEqualTo(23);
		assertThat(progress.eta().phases().get(0).detail())
			.isEqualTo("200 of 2000 s, simulated clock at 200.0 x real time");
	}

	@Test
	void onceThePhaseHasRunFiveWallSecondsItsAverageTimesTheRestNotItsLastSecond() {
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 2;
			draft.phaseTimes = List.of(done(0, 15, 1, true, 0), done(1, 14, 10, true, 900), running(2, 20, true));
		});
		// A clock paced at 50 x on a loaded machine: second 1000 after 20 wall s, its
		// last
		// wall second slow at 30 x. The rest, 1000 s, at the average 50 x is 20 s (at the
		// last second's 30 x it would be 33 s, 65 % long).
		Progress progress = estimate(job, measured(2, 1000, 0, 0, 30.0), List.of());
		assertThat(progress.etaS()).isEqualTo(20);
		assertThat(progress.eta().phases().get(0).detail())
			.isEqualTo("1000 of 2000 s, simulated clock at 50.0 x real time");
		assertThat(progress.eta().highS()).isGreaterThanOrEqualTo(33);
	}

	@Test
	void withoutTheRunnersRateASimulatedPhaseWaitsForFiveWallSeconds() {
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 2;
			draft.phaseTimes = List.of(done(0, 15, 1, true, 0), done(1, 14, 10, true, 900), running(2, 4, true));
		});
		// The same second without the runner's stamp: the finished fill's 90 x stands in.
		Progress progress = estimate(job, new PhaseMeasurement(2, 200, 200, 0, List.of()), List.of());
		assertThat(progress.eta().phases().get(0).detail()).contains("90.0 x real time");
	}

	@Test
	void aPhaseAheadTakesTheRateOfItsKindOnEarlierJobsOfTheModel() {
		// An earlier job of the model on this runner ran the op25 variant: its random
		// writes
		// over 75 % of the range (another shape, the same kind) took 2000 simulated s in
		// 10 wall s, 200 x.
		List<PhaseSpec> op25 = PLAN.stream().map((phase) -> phase.withRangePercent(75.0)).toList();
		Job earlier = RUNNING.edit((draft) -> {
			draft.jobId = "q-0";
			draft.state = JobState.COMPLETED;
			draft.engine = "sim";
			draft.plan = op25;
			draft.phaseTimes = List.of(done(2, 8_000, 10, true, 2000));
		});
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 1;
			draft.phaseTimes = List.of(done(0, 3, 1, true, 0), running(1, 2, true));
		});
		// The fill runs at 50 x; the random writes ahead at their kind's 200 x: 10 s.
		Progress progress = estimate(job, measured(1, 100, 100_000_000_000L, 0, 50.0), List.of(earlier));
		EtaView.PhaseEta ahead = progress.eta().phases().get(1);
		assertThat(ahead.remainingS()).isEqualTo(10);
		assertThat(ahead.basis()).isEqualTo(EtaView.Basis.HISTORY);
		assertThat(ahead.historyJobs()).isEqualTo(1);
		assertThat(ahead.detail()).contains("the same kind of phase on earlier jobs of the model");
	}

	@Test
	void aPhaseAheadOfAnotherKindTakesThisJobsRateWithAWideInterval() {
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 1;
			draft.phaseTimes = List.of(done(0, 3, 1, true, 0), running(1, 2, true));
		});
		// Only the fill's 50 x is known: 2000 s at 50 x is 40 s, 3 x either way.
		Progress progress = estimate(job, measured(1, 100, 100_000_000_000L, 0, 50.0), List.of());
		EtaView.PhaseEta ahead = progress.eta().phases().get(1);
		assertThat(ahead.remainingS()).isEqualTo(40);
		assertThat(ahead.lowS()).isEqualTo(13);
		assertThat(ahead.highS()).isEqualTo(120);
		assertThat(ahead.basis()).isEqualTo(EtaView.Basis.MEASURED);
		assertThat(ahead.detail()).contains("another kind of phase");
	}

	@Test
	void theKindOfAPhaseIsItsWorkNotItsLengthOrRange() {
		PhaseSpec randwrite = PLAN.get(2);
		assertThat(EtaClock.kind(randwrite)).isEqualTo(EtaClock.kind(randwrite.withRangePercent(75.0)));
		assertThat(EtaClock.kind(randwrite)).isNotEqualTo(EtaClock.kind(PLAN.get(1)));
	}

}

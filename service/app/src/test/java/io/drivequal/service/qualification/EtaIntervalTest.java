/*
 * The ETA's interval (EtaInterval) on synthetic simulated clocks, polled once a wall second as the
 * API is: a clock whose rate swings 10x from one second to the next must get an interval that holds
 * the phase's actual end at every poll from 10 % on, though its point estimate misses by half; a
 * steady clock a narrow one (the floor's width) that holds it too; a rate that halves, from the
 * first second it shows on. A phase ahead resting on one earlier run is as uncertain as the running
 * clock swings.
 */
package io.drivequal.service.qualification;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;

import io.drivequal.service.ingest.PhaseMeasurement;
import org.junit.jupiter.api.Test;

import static io.drivequal.service.qualification.ProgressTest.NOW;
import static io.drivequal.service.qualification.ProgressTest.RUNNING;
import static io.drivequal.service.qualification.ProgressTest.done;
import static io.drivequal.service.qualification.ProgressTest.estimate;
import static io.drivequal.service.qualification.ProgressTest.running;
import static org.assertj.core.api.Assertions.assertThat;

class EtaIntervalTest {

	/** ProgressTest's plan: its last phase runs 2000 s of the simulated clock. */
	static final int PHASE_CLOCK_S = 2000;

	/**
	 * One poll of the running random-write phase: the estimate, and the wall seconds it
	 * really had left.
	 */
	record Poll(int wallS, double actualLeftS, EtaView eta) {

		boolean holds() {
			// the view rounds its bounds to whole seconds
			return this.eta.lowS() != null && this.eta.lowS() - 0.5 <= this.actualLeftS
					&& this.actualLeftS <= this.eta.highS() + 0.5;
		}

		double pointErrorShare() {
			return Math.abs(this.eta.remainingS() - this.actualLeftS) / this.actualLeftS;
		}

	}

	/**
	 * Runs the phase on a clock whose rate in wall second k (1-based) is rateOfSecond(k),
	 * polling at the end of every whole wall second while it runs: each poll sees the
	 * seconds indexed so far, the runner's rate over the last wall second, and the 5th
	 * and 95th percentiles of the rates its seconds were stamped with (nearest rank, as
	 * the index's percentiles come close to).
	 */
	static List<Poll> run(IntToDoubleFunction rateOfSecond) {
		List<Double> stamped = new ArrayList<>();
		List<Double> positions = new ArrayList<>();
		double position = 0;
		int wall = 0;
		while (position < PHASE_CLOCK_S) {
			wall++;
			double rate = rateOfSecond.applyAsDouble(wall);
			double next = Math.min(PHASE_CLOCK_S, position + rate);
			for (int t = (int) position + 1; t <= (int) next; t++) {
				stamped.add(rate);
			}
			positions.add(next);
			position = next;
		}
		double lastRate = rateOfSecond.applyAsDouble(wall);
		double actualEndS = wall - 1 + (PHASE_CLOCK_S - positions.get(wall - 2)) / lastRate;
		List<Poll> polls = new ArrayList<>();
		for (int w = 1; w < actualEndS; w++) {
			int latestT = (int) Math.floor(positions.get(w - 1));
			List<Double> sorted = stamped.subList(0, latestT).stream().sorted().toList();
			PhaseMeasurement.ClockSpread spread = new PhaseMeasurement.ClockSpread(percentile(sorted, 5),
					percentile(sorted, 95));
			PhaseMeasurement measured = new PhaseMeasurement(2, latestT, latestT, 0, List.of(),
					new PhaseMeasurement.SimulatedClock(NOW.toEpochMilli(), rateOfSecond.applyAsDouble(w)), spread);
			int elapsed = w;
			Job job = RUNNING.edit((draft) -> {
				draft.engine = "sim";
				draft.currentPhaseIndex = 2;
				// the fill before it ran at the clock's first rate
				draft.phaseTimes = List.of(done(0, elapsed + 20, 1, true, 0),
						done(1, elapsed + 19, 19, true, Math.round(19 * rateOfSecond.applyAsDouble(1))),
						running(2, elapsed, true));
			});
			polls.add(new Poll(w, actualEndS - w, estimate(job, measured, List.of()).eta()));
		}
		return polls.stream().filter((poll) -> poll.wallS() >= 0.1 * actualEndS).toList();
	}

	static double percentile(List<Double> sorted, int percent) {
		int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
		return sorted.get(Math.max(0, rank - 1));
	}

	@Test
	void aRateThatSwingsTenfoldEverySecondGetsAnIntervalThatHoldsTheEnd() {
		List<Poll> polls = run((second) -> (second % 2 == 1) ? 20.0 : 200.0);
		assertThat(polls).hasSizeGreaterThanOrEqualTo(10);
		// the point estimate, at the last second's rate, is far off at some polls ...
		assertThat(polls).anyMatch((poll) -> poll.pointErrorShare() > 0.5);
		// ... the interval holds the actual end at every one
		assertThat(polls).allMatch(Poll::holds, "holds the actual end");
	}

	@Test
	void aRateThatHalvesWidensTheIntervalFromTheSecondItShowsOn() {
		// an unpaced drive whose machine gets busier: 150 x, then 75 x from wall second 7
		List<Poll> polls = run((second) -> (second < 7) ? 150.0 : 75.0);
		// before, the clock was steady and its interval the floor's: nothing announced
		// the step, and those polls miss it
		assertThat(polls.stream().filter((poll) -> poll.wallS() < 7)).noneMatch(Poll::holds);
		// from the first second at the new rate, its spread holds the end at every poll
		assertThat(polls.stream().filter((poll) -> poll.wallS() >= 7)).hasSizeGreaterThanOrEqualTo(10)
			.allMatch(Poll::holds, "holds the actual end");
	}

	@Test
	void aSteadyRateGivesANarrowIntervalThatHoldsTheEnd() {
		List<Poll> polls = run((second) -> 50.0);
		assertThat(polls).hasSizeGreaterThanOrEqualTo(30);
		assertThat(polls).allMatch(Poll::holds, "holds the actual end");
		for (Poll poll : polls) {
			// no wider than the floor (2 s + 3 % of the time left) either way, rounded
			double floor = EtaInterval.FLOOR_S + EtaInterval.FLOOR_SHARE * poll.eta().remainingS();
			assertThat(poll.eta().highS() - poll.eta().lowS()).isLessThanOrEqualTo(Math.round(2 * floor + 1));
		}
	}

	@Test
	void aPhaseAheadOnOneEarlierRunIsAsUncertainAsTheClockSwings() {
		// one earlier job ran the random writes in 20 wall s; this one's fill is running
		Job earlier = ProgressTest.completed("q-0", 20, 10);
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 1;
			draft.phaseTimes = List.of(done(0, 11, 1, true, 0), running(1, 10, true));
		});
		long fillBytes = 50_000_000_000L;
		// 500 s of its clock in 10 wall s (50 x), the last second at 60 x, its seconds
		// so far stamped between 20 x and 180 x: 9 x apart, so the phase ahead spans its
		// 20 s over and times 3
		PhaseMeasurement swinging = new PhaseMeasurement(1, 500, 500, fillBytes, List.of(),
				new PhaseMeasurement.SimulatedClock(NOW.toEpochMilli(), 60.0),
				new PhaseMeasurement.ClockSpread(20.0, 180.0));
		EtaView.PhaseEta ahead = estimate(job, swinging, List.of(earlier)).eta().phases().get(1);
		assertThat(ahead.basis()).isEqualTo(EtaView.Basis.HISTORY);
		assertThat(ahead.remainingS()).isEqualTo(20);
		assertThat(ahead.lowS()).isEqualTo(7);
		assertThat(ahead.highS()).isEqualTo(60);
		// a steady clock (every second at 50 x) leaves the one run's 20 s as it is
		PhaseMeasurement steady = new PhaseMeasurement(1, 500, 500, fillBytes, List.of(),
				new PhaseMeasurement.SimulatedClock(NOW.toEpochMilli(), 50.0),
				new PhaseMeasurement.ClockSpread(50.0, 50.0));
		EtaView.PhaseEta steadyAhead = estimate(job, steady, List.of(earlier)).eta().phases().get(1);
		assertThat(steadyAhead.lowS()).isEqualTo(20);
		assertThat(steadyAhead.highS()).isEqualTo(20);
	}

	@Test
	void aRunningPhaseNotYetMeasuredOnOneEarlierRunStillHasAnInterval() {
		// the fill started a second ago, nothing indexed yet: one earlier run of it (10
		// s)
		// and of the random writes (20 s) are all there is
		Job earlier = ProgressTest.completed("q-0", 20, 10);
		Job job = RUNNING.edit((draft) -> {
			draft.engine = "sim";
			draft.currentPhaseIndex = 1;
			draft.phaseTimes = List.of(done(0, 2, 1, true, 0), running(1, 1, true));
		});
		EtaView eta = estimate(job, null, List.of(earlier)).eta();
		assertThat(eta.remainingS()).isEqualTo(9 + 20);
		assertThat(eta.basis()).isEqualTo(EtaView.Basis.HISTORY);
		// no spread measured yet: the floor, 2 s + 3 % of 29 s either way
		assertThat(eta.lowS()).isEqualTo(26);
		assertThat(eta.highS()).isEqualTo(32);
	}

	@Test
	void anExactWholeStaysExactAndPartsAddBoundToBound() {
		EtaEstimator.Part exact = new EtaEstimator.Part(1000, 1000.0, 1000.0, EtaView.Basis.PLAN, null, null);
		assertThat(EtaInterval.floor(exact)).isEqualTo(exact);
		EtaEstimator.Part history = new EtaEstimator.Part(100, 50.0, 300.0, EtaView.Basis.HISTORY, 2, null);
		EtaEstimator.Part whole = EtaInterval.floor(EtaInterval.combine(List.of(exact, history)));
		assertThat(whole.remainingS()).isEqualTo(1100);
		// the history part's spread is wider than the floor (2 s + 33 s): it stands
		assertThat(whole.lowS()).isEqualTo(1050);
		assertThat(whole.highS()).isEqualTo(1300);
		assertThat(whole.basis()).isEqualTo(EtaView.Basis.HISTORY);
	}

}

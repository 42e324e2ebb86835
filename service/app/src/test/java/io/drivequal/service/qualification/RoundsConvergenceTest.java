/*
 * Rounds left in an adaptive phase from its measured convergence, on made-up round levels: the
 * earliest stop (fresh state, window, horizon), a window inside SNIA's bounds, an excursion that
 * decays toward them, one that does not, and maxRounds as the bound of everything.
 */
package io.drivequal.service.qualification;

import java.util.ArrayList;
import java.util.List;

import io.drivequal.service.catalog.RoundSpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RoundsConvergenceTest {

	private static final RoundSpec.Step WRITE = new RoundSpec.Step("randwrite", null, 4096, 32, null, null);

	private static final RoundSpec.Step READ = new RoundSpec.Step("randread", null, 4096, 32, null, null);

	/** One one-minute random-write step a round, W = 1, at most 25 rounds. */
	private static final RoundSpec WRITES = new RoundSpec(List.of(WRITE), 60, new RoundSpec.Tracking(0, "iops"), 25,
			1.0);

	private static final long GB = 1_000_000_000L;

	/** Rounds that each write 10 GB of a 10 GB range: eligible from round 1. */
	private static RoundsConvergence.Estimate estimate(RoundSpec rounds, List<Double> levels) {
		List<Long> written = levels.stream().map((level) -> 10 * GB).toList();
		return RoundsConvergence.estimate(rounds, levels, written, 10 * GB * levels.size(), levels.size() + 0.5,
				10 * GB, null);
	}

	@Test
	void aFlatLevelStopsAsSoonAsTheHorizonIsFull() {
		List<Double> levels = new ArrayList<>(List.of(50_000.0, 48_000.0, 47_500.0, 47_800.0, 47_600.0, 47_700.0));
		RoundsConvergence.Estimate estimate = estimate(WRITES, levels);
		// Eligible from round 1 (10 GB written before it); ten eligible rounds: 1..10.
		assertThat(estimate.minRounds()).isEqualTo(11);
		assertThat(estimate.expectedRounds()).isEqualTo(11);
		assertThat(estimate.maxRounds()).isEqualTo(25);
		assertThat(estimate.measured()).isTrue();
		assertThat(estimate.detail()).startsWith("round 7 of at most 25: window 1 % / 0 % of 20 % / 10 %");
	}

	@Test
	void aDecayingExcursionIsExtrapolatedToTheBound() {
		// level = 40000 + 40000 * 0.85^r: the window's excursion shrinks by about 0.85 a
		// round (its average moves a little too)
		List<Double> levels = new ArrayList<>();
		for (int r = 0; r < 12; r++) {
			levels.add(40_000 + 40_000 * Math.pow(0.85, r));
		}
		RoundsConvergence.Estimate estimate = estimate(WRITES, levels);
		List<double[]> windows = RoundsConvergence.excursions(levels, 1);
		double last = windows.get(windows.size() - 1)[3];
		assertThat(last).isGreaterThan(1.0);
		// log(ratio) falls by about -log(0.85) = 0.163 a round: the bound about
		// log(last) / 0.163 rounds after round 11, the round that ends it counted
		int more = (int) Math.ceil(Math.log(last) / -Math.log(0.85));
		assertThat(estimate.expectedRounds()).isBetween(11 + more, 11 + more + 2);
		assertThat(estimate.expectedRounds()).isBetween(estimate.minRounds(), 25);
	}

	@Test
	void aLevelThatKeepsSwingingRunsToMaxRounds() {
		List<Double> levels = new ArrayList<>();
		for (int r = 0; r < 12; r++) {
			levels.add((r % 2 == 0) ? 30_000.0 : 50_000.0);
		}
		assertThat(estimate(WRITES, levels).expectedRounds()).isEqualTo(25);
	}

	@Test
	void noTrackingMeansEveryRound() {
		RoundSpec fixed = new RoundSpec(List.of(WRITE), 60, null, 12, 1.0);
		RoundsConvergence.Estimate estimate = estimate(fixed, List.of(1.0, 2.0));
		assertThat(estimate.minRounds()).isEqualTo(12);
		assertThat(estimate.expectedRounds()).isEqualTo(12);
	}

	@Test
	void eligibilityIsProjectedAtTheWriteRateSoFar() {
		// 2 GB a round of a 10 GB range: W x range written by the start of round 5
		RoundsConvergence.Estimate estimate = RoundsConvergence.estimate(WRITES, List.of(10_000.0, 10_100.0),
				List.of(2 * GB, 2 * GB), 5 * GB, 2.5, 10 * GB, null);
		assertThat(estimate.minRounds()).isEqualTo(5 + RoundsConvergence.HORIZON_ROUNDS);
		assertThat(estimate.measured()).isFalse();
		// a prior from the model's history moves the estimate, never below the earliest
		assertThat(RoundsConvergence.estimate(WRITES, List.of(10_000.0), List.of(2 * GB), 3 * GB, 1.5, 10 * GB, 20)
			.expectedRounds()).isEqualTo(20);
		assertThat(RoundsConvergence.estimate(WRITES, List.of(10_000.0), List.of(2 * GB), 3 * GB, 1.5, 10 * GB, 3)
			.expectedRounds()).isEqualTo(15);
	}

	@Test
	void aPhaseThatOnlyReadsNeedsOnlyTheWindow() {
		RoundSpec reads = new RoundSpec(List.of(READ), 60, new RoundSpec.Tracking(0, "iops"), 25, 1.0);
		RoundsConvergence.Estimate estimate = estimate(reads, List.of(90_000.0, 90_500.0, 90_200.0));
		assertThat(estimate.minRounds()).isEqualTo(RoundsConvergence.WINDOW_ROUNDS);
	}

	@Test
	void theIopsCliffEndsTheFreshState() {
		// round 3 falls below 0.8 x the best: eligible from round 4
		List<Double> levels = List.of(100_000.0, 100_000.0, 95_000.0, 60_000.0, 50_000.0);
		assertThat(RoundsConvergence.firstEligible(levels, List.of(GB, GB, GB, GB, GB), 5 * GB, 5.0, WRITES, 100 * GB,
				true))
			.isEqualTo(4);
	}

}

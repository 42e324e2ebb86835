// The horizon spans at least 5 % of the tested range written: hand-checkable lengths, and the big drive's post-cliff trough it refuses.
package io.drivequal.analysis;

import java.util.Arrays;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SteadyStateHorizonTest {

	private static final long RANGE = 4_000_000_000L;

	/** Rounds of 60 s at the given means, each writing the given bytes at random. */
	static RoundTable table(long[] means, long writeBytesPerRound, Eligibility eligibility) {
		long[] sums = new long[means.length];
		int[] seconds = new int[means.length];
		long[] written = new long[means.length];
		for (int round = 0; round < means.length; round++) {
			sums[round] = means[round] * 60;
			seconds[round] = 60;
			written[round] = writeBytesPerRound;
		}
		return RoundTable.ofRounds(60, sums, seconds, written, eligibility);
	}

	static Eligibility afterFill(long range) {
		return Eligibility.afterRandomWrites(1.0, range, 0, "since the fill");
	}

	@Test
	void tenRoundsWhenTheyWriteAtLeastOneTwentiethOfTheRange() {
		// 1 % of the range a round: ten rounds write 10 % >= 5 %.
		RoundTable rounds = table(flat(40, 30_000), RANGE / 100, afterFill(RANGE));
		assertThat(SteadyStateHorizon.length(rounds, 30)).isEqualTo(10);
	}

	@Test
	void extendedBackUntilTheWritesReachOneTwentiethExactly() {
		// RANGE / 400 a round: 20 rounds write exactly RANGE / 20 (inclusive): 20 rounds.
		assertThat(SteadyStateHorizon.length(table(flat(40, 30_000), RANGE / 400, afterFill(RANGE)), 30)).isEqualTo(20);
		// One byte less a round: 20 rounds are 20 bytes short of RANGE / 20, so one more.
		assertThat(SteadyStateHorizon.length(table(flat(40, 30_000), RANGE / 400 - 1, afterFill(RANGE)), 30))
			.isEqualTo(21);
		// Not enough writes in the whole phase: the horizon is every round from 0.
		assertThat(SteadyStateHorizon.length(table(flat(40, 30_000), 1, afterFill(RANGE)), 30)).isEqualTo(31);
	}

	@Test
	void tenRoundsWhenTheRangeIsUnknownOrThePhaseIsShort() {
		Eligibility unknownRange = Eligibility.rangeUnknown(1.0, "range unknown");
		assertThat(SteadyStateHorizon.length(table(flat(40, 30_000), 1, unknownRange), 30)).isEqualTo(10);
		// x = 9: the ten rounds 0..9 are the whole phase so far.
		assertThat(SteadyStateHorizon.length(table(flat(40, 30_000), 1, afterFill(RANGE)), 9)).isEqualTo(10);
	}

	/**
	 * After its cliff a 30 TB drive sits in a trough for a dozen rounds before it climbs
	 * 1 % a round to a level 22 % higher (the matrix's 30.72 TB-equivalent: rounds 63-72
	 * at 922-932 IOPS, 34 % below its truth). It writes 1/400 of its range a round: ten
	 * flat rounds of the trough are too few writes to see the climb; judged over them,
	 * the drive would be steady at round 15, at the trough's 30k.
	 */
	@Test
	void aBigDrivesPostCliffTroughIsNotSteadyState() {
		long[] means = trough();
		SteadyStateResult big = SteadyStateDetector.detect(table(means, RANGE / 400, afterFill(RANGE)),
				OptionalInt.empty());
		assertThat(big.freshState().evidence()).isEqualTo(FreshState.Evidence.IOPS_CLIFF);
		assertThat(big.freshState().firstEligibleRound()).hasValue(6);
		assertThat(big.reached()).isTrue();
		assertThat(big.window().orElseThrow().avgIops()).isEqualTo(36_606.0);
		assertThat(big.window().orElseThrow().lastRoundIndex()).isEqualTo(53);
		// The same IOPS on a drive that writes 1 % of its range a round: ten rounds are
		// 10 % of it, and the flat trough passes at round 15, as it did before the
		// horizon
		// scaled with the writes; on such a drive the climb that follows would take 5
		// rounds, not 20, and show inside them.
		SteadyStateResult small = SteadyStateDetector.detect(table(means, RANGE / 100, afterFill(RANGE)),
				OptionalInt.empty());
		assertThat(small.reachedAtRound()).hasValue(15);
		assertThat(small.window().orElseThrow().avgIops()).isEqualTo(30_000.0);
	}

	@Test
	void aTroughTheHorizonCannotSeeBeyondIsReportedAsStillMoving() {
		// The trough's phase ends at round 24: the 20 rounds 5-24 reach into the fresh
		// state (round 5 is the cliff), so the level cannot be checked.
		long[] means = Arrays.copyOf(trough(), 25);
		SteadyStateResult result = SteadyStateDetector.detect(table(means, RANGE / 400, afterFill(RANGE)),
				OptionalInt.empty());
		assertThat(result.reached()).isFalse();
		assertThat(result.end().holds()).isFalse();
		SteadyStateHorizon horizon = result.end().horizon().orElseThrow();
		assertThat(horizon.evaluated()).isFalse();
		assertThat(horizon.firstRoundIndex()).isEqualTo(5);
		assertThat(horizon.unusableRounds()).containsExactly(5);
		assertThat(result.end().failures()).extracting(SteadyStateFailure::kind)
			.containsExactly(SteadyStateFailure.Kind.LEVEL_STILL_MOVING);
	}

	/**
	 * 100k fresh (rounds 0-4), 30k (5-16), 1 % a round up (17-36), 36,606 flat (37-69).
	 */
	private static long[] trough() {
		long[] means = new long[70];
		for (int round = 0; round < means.length; round++) {
			if (round < 5) {
				means[round] = 100_000;
			}
			else if (round < 17) {
				means[round] = 30_000;
			}
			else if (round < 37) {
				means[round] = Math.round(30_000 * Math.pow(1.01, round - 16));
			}
			else {
				means[round] = 36_606;
			}
		}
		return means;
	}

	private static long[] flat(int count, long mean) {
		long[] means = new long[count];
		Arrays.fill(means, mean);
		return means;
	}

}

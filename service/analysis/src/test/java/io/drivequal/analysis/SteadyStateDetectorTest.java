// Hand-checkable steady-state cases (arithmetic in the comments) and the exact/fast bound decision agreeing.
package io.drivequal.analysis;

import java.util.OptionalInt;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class SteadyStateDetectorTest {

	/**
	 * The detector on a phase that does not write, so that these cases test the bounds
	 * and round rules alone (eligibility has its own cases below and in the shared
	 * vectors).
	 */
	static SteadyStateResult everyRoundEligible(PerSecondSeries iops, int roundLengthS, OptionalInt maxRounds) {
		return SteadyStateDetector.detect(iops, PerSecondSeries.empty(), Eligibility.notApplicable("reads only"),
				roundLengthS, maxRounds);
	}

	@Test
	void rangeExactlyOnTheBoundHolds() {
		// L = 1 s, so each second is a round: y = 90, 110, 100, 100, 100.
		// avg = 500 / 5 = 100; max - min = 20 <= 0.20 * 100 = 20 (inclusive): holds.
		// b = Σ(i-2)y / 10 = (-180 - 110 + 0 + 100 + 200) / 10 = 1; |b| * 4 = 4 <= 0.10 *
		// 100 = 10.
		SteadyStateResult result = everyRoundEligible(PerSecondSeries.consecutive(90, 110, 100, 100, 100), 1,
				OptionalInt.empty());
		assertThat(result.reached()).isTrue();
		SteadyStateWindow window = result.window().orElseThrow();
		assertThat(window.lastRoundIndex()).isEqualTo(4);
		assertThat(window.windowStartS()).isZero();
		assertThat(window.windowEndS()).isEqualTo(5);
		assertThat(window.avgIops()).isEqualTo(100.0);
		assertThat(window.rangePercent()).isCloseTo(20.0, within(1e-12));
		assertThat(window.slopeIopsPerRound()).isCloseTo(1.0, within(1e-12));
		assertThat(window.slopeExcursionPercent()).isCloseTo(4.0, within(1e-12));
		assertThat(result.steadyStateIops()).hasValue(100.0);
	}

	@Test
	void rangeJustOutsideTheBoundFails() {
		// y = 89, 110, 100, 100, 100: avg = 99.8, max - min = 21 > 0.20 * 99.8 = 19.96.
		SteadyStateResult result = everyRoundEligible(PerSecondSeries.consecutive(89, 110, 100, 100, 100), 1,
				OptionalInt.empty());
		assertThat(result.reached()).isFalse();
		assertThat(result.window().orElseThrow().rangeWithinBound()).isFalse();
		assertThat(result.window().orElseThrow().slopeWithinBound()).isTrue();
		assertThat(result.windowsEvaluated()).isEqualTo(1);
		assertThat(result.steadyStateIops()).isEmpty();
	}

	@Test
	void slopeExactlyOnTheBoundHolds() {
		// L = 2 s: round sums 190, 195, 200, 205, 210 -> y = 95, 97.5, 100, 102.5, 105,
		// avg 100.
		// b = (-2*95 - 97.5 + 0 + 102.5 + 2*105) / 10 = 25 / 10 = 2.5; |b| * 4 = 10 <=
		// 0.10 * 100 = 10.
		PerSecondSeries iops = PerSecondSeries.consecutive(95, 95, 97, 98, 100, 100, 102, 103, 105, 105);
		SteadyStateResult result = everyRoundEligible(iops, 2, OptionalInt.empty());
		assertThat(result.reached()).isTrue();
		assertThat(result.window().orElseThrow().slopeExcursionPercent()).isCloseTo(10.0, within(1e-12));
		assertThat(result.window().orElseThrow().windowEndS()).isEqualTo(10);
		// One IOPS less in the last round: y4 = 104.5, Σy = 499.5, b = 2.4, but |b|*4 =
		// 9.6 <= 9.99: holds.
		// One IOPS more in the last round: y4 = 105.5, Σy = 500.5, b = 2.6: 10.4 > 10.01:
		// fails.
		assertThat(everyRoundEligible(PerSecondSeries.consecutive(95, 95, 97, 98, 100, 100, 102, 103, 105, 104), 2,
				OptionalInt.empty())
			.reached()).isTrue();
		SteadyStateResult outside = everyRoundEligible(
				PerSecondSeries.consecutive(95, 95, 97, 98, 100, 100, 102, 103, 105, 106), 2, OptionalInt.empty());
		assertThat(outside.reached()).isFalse();
		assertThat(outside.window().orElseThrow().slopeWithinBound()).isFalse();
		assertThat(outside.window().orElseThrow().rangeWithinBound()).isTrue();
	}

	@Test
	void noWindowSpansAMissingRound() {
		// L = 1 s, t = 3 missing: round 2 has no second, so windows x = 4, 5, 6 (all
		// holding round 2) are
		// skipped; the first window is x = 7 (rounds 3..7).
		PerSecondSeries iops = PerSecondSeries.of(new long[] { 1, 2, 4, 5, 6, 7, 8 },
				new long[] { 100, 100, 100, 100, 100, 100, 100 });
		SteadyStateResult result = everyRoundEligible(iops, 1, OptionalInt.empty());
		assertThat(result.reached()).isTrue();
		assertThat(result.window().orElseThrow().lastRoundIndex()).isEqualTo(7);
		assertThat(result.windowsEvaluated()).isEqualTo(1);
		assertThat(result.rounds().get(2).counted()).isFalse();
		assertThat(result.rounds().get(2).meanIops()).isEmpty();
	}

	@Test
	void notReachedReportsTheLastEvaluableWindow() {
		// y doubles every round: never steady; 7 rounds -> windows x = 4, 5, 6; the last
		// is reported.
		SteadyStateResult result = everyRoundEligible(PerSecondSeries.consecutive(1, 2, 4, 8, 16, 32, 64), 1,
				OptionalInt.empty());
		assertThat(result.reached()).isFalse();
		assertThat(result.windowsEvaluated()).isEqualTo(3);
		// Window rounds 2..6: y = 4, 8, 16, 32, 64, avg 24.8, range 60 -> 241.9%.
		assertThat(result.window().orElseThrow().lastRoundIndex()).isEqualTo(6);
		assertThat(result.window().orElseThrow().rangePercent()).isCloseTo(100 * 60 / 24.8, within(1e-9));
	}

	@Test
	void fewerThanFiveRoundsCannotBeEvaluated() {
		SteadyStateResult result = everyRoundEligible(PerSecondSeries.consecutive(100, 100, 100, 100), 1,
				OptionalInt.empty());
		assertThat(result.reached()).isFalse();
		assertThat(result.window()).isEmpty();
		assertThat(result.rounds()).hasSize(4);
	}

	@Test
	void maxRoundsStopsTheDetector() {
		// Steady only from round 5 on (y = 1000 from t = 6): windows up to x = 6 with
		// maxRounds = 7 fail.
		PerSecondSeries iops = PerSecondSeries.consecutive(10, 20, 40, 80, 160, 1000, 1000, 1000, 1000, 1000);
		assertThat(everyRoundEligible(iops, 1, OptionalInt.empty()).window().orElseThrow().lastRoundIndex())
			.isEqualTo(9);
		SteadyStateResult limited = everyRoundEligible(iops, 1, OptionalInt.of(7));
		assertThat(limited.reached()).isFalse();
		assertThat(limited.window().orElseThrow().lastRoundIndex()).isEqualTo(6);
		assertThat(limited.rounds()).hasSize(10);
		assertThatIllegalArgumentException().isThrownBy(() -> everyRoundEligible(iops, 1, OptionalInt.of(4)));
	}

	@Test
	void fastPathAgreesWithExactArithmetic() {
		Random random = new Random(7);
		int[] seconds = new int[5];
		long[] sums = new long[5];
		for (int trial = 0; trial < 20_000; trial++) {
			long level = 1 + random.nextInt(2_000_000);
			for (int i = 0; i < 5; i++) {
				seconds[i] = 54 + random.nextInt(7);
				double drift = 1 + (random.nextGaussian() * 0.08);
				sums[i] = Math.max(0, Math.round(level * drift)) * seconds[i] + random.nextInt(seconds[i]);
			}
			assertThat(SniaBounds.decide(sums, seconds, 0)).isEqualTo(SniaBounds.decideExactly(sums, seconds, 0));
		}
	}

	@Test
	void aPhaseTooShortToProjectSaysSoAndNothingElseChanges() {
		// A plateau, a cliff in round 3, then three rounds: too few to project, and the
		// rest of the result is what it would be without the projection.
		long[] sums = { 6_000_000, 6_000_000, 6_000_000, 1_200_000, 1_300_000, 1_350_000, 1_400_000 };
		int[] seconds = { 60, 60, 60, 60, 60, 60, 60 };
		long[] written = new long[sums.length];
		long[] media = new long[sums.length];
		long[] host = new long[sums.length];
		for (int r = 0; r < sums.length; r++) {
			written[r] = sums[r] * 4096;
			host[r] = written[r];
			media[r] = (r < 3) ? written[r] : 3 * written[r];
		}
		RoundTable table = RoundTable.ofRounds(60, sums, seconds, written, media, host,
				Eligibility.afterRandomWrites(1.5, 1L << 34, 0, "test"));
		table.rawNandBytes = java.util.OptionalLong.of((long) ((1L << 34) * 1.28));
		SteadyStateResult result = SteadyStateDetector.detect(table, OptionalInt.empty());
		assertThat(result.freshState().evidence()).isEqualTo(FreshState.Evidence.MEDIA_WRITES);
		assertThat(result.trend().projection()).isEmpty();
		assertThat(result.trend().cannotProject())
			.hasValue("cannot project: 3 counted round(s) since the fresh state ended; a projection needs 5");
		assertThat(result.steadyStateIops()).isEmpty();
		assertThat(result.summary()).contains("cannot project: 3 counted round(s)");
		SteadyStateResult withoutRaw = SteadyStateDetector.detect(RoundTable.ofRounds(60, sums, seconds, written, media,
				host, Eligibility.afterRandomWrites(1.5, 1L << 34, 0, "test")), OptionalInt.empty());
		assertThat(withoutRaw.end()).isEqualTo(result.end());
		assertThat(withoutRaw.rounds()).isEqualTo(result.rounds());
	}

}

// Round boundaries (t is an interval END) and the 90% rule, checked by hand.
package io.drivequal.analysis;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RoundsTest {

	private static final Eligibility READS = Eligibility.notApplicable("reads only");

	@Test
	void secondSixtyBelongsToRoundZero() {
		// Round r holds r*60 < t <= (r+1)*60: t = 60 is in round 0, t = 61 opens round 1.
		List<Round> rounds = Rounds.of(PerSecondSeries.of(new long[] { 60, 61 }, new long[] { 7, 9 }),
				PerSecondSeries.empty(), READS, 60);
		assertThat(rounds).hasSize(2);
		assertThat(rounds.get(0).sumIops()).isEqualTo(7);
		assertThat(rounds.get(0).startExclusiveS()).isZero();
		assertThat(rounds.get(0).endInclusiveS()).isEqualTo(60);
		assertThat(rounds.get(1).sumIops()).isEqualTo(9);
		assertThat(rounds.get(1).startExclusiveS()).isEqualTo(60);
	}

	@Test
	void ninetyPercentOfTheSecondsCount() {
		// 54 of 60 seconds = 90%: counts. 53 = 88.3%: reported, not counted.
		PerSecondSeries.Builder builder = PerSecondSeries.builder();
		for (long t = 1; t <= 54; t++) {
			builder.add(t, 100);
		}
		for (long t = 61; t <= 113; t++) {
			builder.add(t, 200);
		}
		List<Round> rounds = Rounds.of(builder.build(), PerSecondSeries.empty(), READS, 60);
		assertThat(rounds.get(0).secondsPresent()).isEqualTo(54);
		assertThat(rounds.get(0).counted()).isTrue();
		assertThat(rounds.get(1).secondsPresent()).isEqualTo(53);
		assertThat(rounds.get(1).counted()).isFalse();
		// The short round's mean is reported from what is there, never filled in.
		assertThat(rounds.get(1).meanIops()).hasValue(200.0);
	}

	@Test
	void aPartialLastRoundIsReportedButDoesNotCount() {
		// 2000 s / 60 s = 33 full rounds + 20 s: 34 rounds, the last (1980 < t <= 2040)
		// holds 20 s.
		long[] values = new long[2000];
		Arrays.fill(values, 5);
		List<Round> rounds = Rounds.of(PerSecondSeries.consecutive(values), PerSecondSeries.empty(), READS, 60);
		assertThat(rounds).hasSize(34);
		assertThat(rounds.get(33).secondsPresent()).isEqualTo(20);
		assertThat(rounds.get(33).counted()).isFalse();
		assertThat(rounds.get(32).counted()).isTrue();
	}

	@Test
	void randomWritesAreCountedToEachRoundsStart() {
		// 100 bytes per second, 60 s rounds, 200 bytes written before the phase, W = 1
		// over a 6,200-byte range: round r starts at 200 + 6,000·r bytes, so round 1
		// (6,200 exactly, inclusive) is the first eligible round. The IOPS are flat (no
		// cliff) and there is no media counter, so the written-bytes fallback decides.
		long[] iops = new long[180];
		long[] bytes = new long[180];
		Arrays.fill(iops, 10);
		Arrays.fill(bytes, 100);
		List<Round> rounds = Rounds.of(PerSecondSeries.consecutive(iops), PerSecondSeries.consecutive(bytes),
				Eligibility.afterRandomWrites(1.0, 6_200, 200, "by hand"), 60);
		assertThat(rounds).extracting(Round::randomWriteBytesAtStart).containsExactly(200L, 6_200L, 12_200L);
		assertThat(rounds).extracting(Round::eligible).containsExactly(false, true, true);
		assertThat(rounds.get(1).rangeWritesAtStart()).hasValue(1.0);
		assertThat(rounds).extracting(Round::randomWriteBytes).containsExactly(6_000L, 6_000L, 6_000L);
	}

	@Test
	void emptySeriesHasNoRound() {
		assertThat(Rounds.of(PerSecondSeries.empty(), PerSecondSeries.empty(), READS, 60)).isEmpty();
	}

}

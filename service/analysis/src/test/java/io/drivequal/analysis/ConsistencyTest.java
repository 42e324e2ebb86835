// Hand-checkable consistency figures, the nearest-rank edges and the fixed window's inclusive start.
package io.drivequal.analysis;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ConsistencyTest {

	@Test
	void fiveSecondsByHand() {
		// IOPS 100, 90, 110, 80, 120 -> sorted 80, 90, 100, 110, 120; mean 100.
		// Population variance (0 + 100 + 100 + 400 + 400) / 5 = 200 -> stddev 14.1421...,
		// CV 0.141421...
		// P0.1: rank ceil(0.005) = 0 -> 1 -> 80; ratio 80 / 100 = 0.8. P50: rank
		// ceil(2.5) = 3 -> 100.
		// P99: rank ceil(4.95) = 5 -> 120. Within ±10% (90..110, inclusive): 3; within
		// ±20%: 5.
		ConsistencyResult result = Consistency.over(PerSecondSeries.consecutive(100, 90, 110, 80, 120), 1, 5)
			.orElseThrow();
		assertThat(result.sampleCount()).isEqualTo(5);
		assertThat(result.meanIops()).isEqualTo(100.0);
		assertThat(result.stddevIops()).isCloseTo(Math.sqrt(200), within(1e-12));
		assertThat(result.cv().getAsDouble()).isCloseTo(Math.sqrt(200) / 100, within(1e-12));
		assertThat(result.p0_1Iops()).isEqualTo(80);
		assertThat(result.ratio()).hasValue(0.8);
		assertThat(result.p50Iops()).isEqualTo(100);
		assertThat(result.p99Iops()).isEqualTo(120);
		assertThat(result.within10PercentCount()).isEqualTo(3);
		assertThat(result.within20PercentCount()).isEqualTo(5);
		assertThat(result.within10PercentShare()).isEqualTo(0.6);
	}

	@Test
	void nearestRankOn2000And600Seconds() {
		// IOPS 1..2000 shuffled: P0.1 rank ceil(2) = 2 -> 2; P1 rank 20; P5 rank 100; P50
		// rank 1000; P99 rank 1980.
		ConsistencyResult n2000 = Consistency.over(shuffled(2000), 1, 2000).orElseThrow();
		assertThat(new long[] { n2000.p0_1Iops(), n2000.p1Iops(), n2000.p5Iops(), n2000.p50Iops(), n2000.p99Iops() })
			.containsExactly(2, 20, 100, 1000, 1980);
		// IOPS 1..600: P0.1 rank ceil(0.6) = 1; P1 rank 6; P5 rank 30; P50 rank 300; P99
		// rank 594.
		ConsistencyResult n600 = Consistency.over(shuffled(600), 1, 600).orElseThrow();
		assertThat(new long[] { n600.p0_1Iops(), n600.p1Iops(), n600.p5Iops(), n600.p50Iops(), n600.p99Iops() })
			.containsExactly(1, 6, 30, 300, 594);
	}

	@Test
	void fixedWindowStartsAt1400Inclusive() {
		// IOPS = t for t = 1..2000: the window t >= 1400 has 601 seconds (t >
		// 1400 would have 600),
		// the slowest being t = 1400 itself; mean (1400 + 2000) / 2 = 1700.
		ConsistencyResult result = Consistency
			.fixedWindow(PerSecondSeries.consecutive(LongStream.rangeClosed(1, 2000).toArray()),
					Consistency.FIXED_WINDOW_FIRST_T_2000S)
			.orElseThrow();
		assertThat(result.sampleCount()).isEqualTo(601);
		assertThat(result.firstT()).isEqualTo(1400);
		assertThat(result.lastT()).isEqualTo(2000);
		assertThat(result.minIops()).isEqualTo(1400);
		assertThat(result.p0_1Iops()).isEqualTo(1400);
		assertThat(result.meanIops()).isEqualTo(1700.0);
	}

	@Test
	void allEqualSecondsHaveNoSpread() {
		long[] values = new long[300];
		Arrays.fill(values, 50_000);
		ConsistencyResult result = Consistency.over(PerSecondSeries.consecutive(values), 1, 300).orElseThrow();
		assertThat(result.stddevIops()).isZero();
		assertThat(result.cv()).hasValue(0.0);
		assertThat(result.ratio()).hasValue(1.0);
		assertThat(result.within10PercentCount()).isEqualTo(300);
	}

	@Test
	void zeroMeanLeavesRatioUnknown() {
		ConsistencyResult result = Consistency.over(PerSecondSeries.consecutive(0, 0, 0), 1, 3).orElseThrow();
		assertThat(result.ratio()).isEmpty();
		assertThat(result.cv()).isEmpty();
	}

	@Test
	void emptyWindowHasNoResult() {
		assertThat(Consistency.over(PerSecondSeries.consecutive(1, 2, 3), 10, 20)).isEmpty();
		assertThat(Consistency.fixedWindow(PerSecondSeries.consecutive(1, 2, 3), 1400)).isEmpty();
	}

	@Test
	void notReachedSteadyStateHasNoWindowConsistency() {
		PerSecondSeries iops = PerSecondSeries.consecutive(1, 2, 4, 8, 16, 32);
		SteadyStateResult steadyState = SteadyStateDetectorTest.everyRoundEligible(iops, 1, OptionalInt.empty());
		assertThat(Consistency.overSteadyStateWindow(iops, steadyState)).isEmpty();
	}

	private static PerSecondSeries shuffled(int count) {
		List<Long> values = LongStream.rangeClosed(1, count).boxed().collect(Collectors.toList());
		Collections.shuffle(values, new Random(count));
		return PerSecondSeries.consecutive(values.stream().mapToLong(Long::longValue).toArray());
	}

}

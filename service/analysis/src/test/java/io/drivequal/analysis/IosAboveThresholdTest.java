// Counts of IOs above a latency threshold from a phase's histogram: exact to the bucket layout, absolute and per million, judged as a buyer states them.
package io.drivequal.analysis;

import java.util.Optional;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IosAboveThresholdTest {

	/**
	 * 999,000 writes at 100 µs, 990 at 7.9 ms, 10 at 8.2 ms, as the runner exports them.
	 */
	private static PhaseLatencyHistogram writes() {
		Histogram h = new Histogram(PhaseLatencyHistogram.SIGNIFICANT_DIGITS);
		h.recordValueWithCount(100_000, 999_000);
		h.recordValueWithCount(7_900_000, 990);
		h.recordValueWithCount(8_200_000, 10);
		return PhaseLatencyHistogram.from(h, 100_000, 8_200_000);
	}

	@Test
	void countsTheIosInBucketsAboveTheThreshold() {
		assertThat(writes().countAbove(8_000_000)).isEqualTo(10);
		assertThat(writes().countAbove(7_000_000)).isEqualTo(1000);
		assertThat(writes().countAbove(50_000)).isEqualTo(1_000_000);
		// nothing above the maximum
		assertThat(writes().countAbove(8_200_000)).isZero();
	}

	@Test
	void anIoWithinTheThresholdsOwnBucketIsNotCounted() {
		// 8,010,000 ns shares the bucket of 8,000,000 (1/128 wide): not above it by the
		// layout
		Histogram h = new Histogram(PhaseLatencyHistogram.SIGNIFICANT_DIGITS);
		h.recordValue(8_010_000);
		PhaseLatencyHistogram one = PhaseLatencyHistogram.from(h, 8_010_000, 8_010_000);
		assertThat(h.lowestEquivalentValue(8_010_000)).isLessThanOrEqualTo(8_000_000);
		assertThat(one.countAbove(8_000_000)).isZero();
		assertThat(one.countAbove(7_900_000)).isEqualTo(1);
	}

	@Test
	void absoluteAndPerMillionAsCriteria() {
		MetricValues values = new MetricValues().putIosAbove(Metric.WRITE_IOS_ABOVE_8_MS,
				Metric.WRITE_IOS_ABOVE_8_MS_PER_MILLION, "mix", Optional.of(writes()), 8_000_000);
		assertThat(values.of(Metric.WRITE_IOS_ABOVE_8_MS).get("mix").value()).hasValue(10.0);
		assertThat(values.of(Metric.WRITE_IOS_ABOVE_8_MS_PER_MILLION).get("mix").value()).hasValue(10.0);
		assertThat(VerdictJudge.judge(Criterion.atMost(Metric.WRITE_IOS_ABOVE_8_MS_PER_MILLION, 10), values).outcome())
			.isEqualTo(Outcome.PASS);
		assertThat(VerdictJudge.judge(Criterion.atMost(Metric.WRITE_IOS_ABOVE_8_MS, 9), values).outcome())
			.isEqualTo(Outcome.FAIL);
		// a direction without IOs gives no figure
		assertThat(new MetricValues()
			.putIosAbove(Metric.READ_IOS_ABOVE_2500_US, Metric.READ_IOS_ABOVE_2500_US_PER_MILLION, "mix",
					Optional.empty(), 2_500_000)
			.of(Metric.READ_IOS_ABOVE_2500_US)).isEmpty();
	}

}

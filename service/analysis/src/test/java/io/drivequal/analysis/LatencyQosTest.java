// Latency QoS by hand, HdrHistogram's bucket arithmetic, merging, and refusal of histograms not in the contract's layout.
package io.drivequal.analysis;

import java.util.List;
import java.util.Random;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

class LatencyQosTest {

	@Test
	void percentilesByHand() {
		// 2 significant digits: 256 sub-buckets. 1000 ns has bit length 10 -> buckets of
		// 2^(10-8) = 4 ns:
		// [1000, 1003]. 2000 ns: bit length 11 -> 8 ns buckets: [2000, 2007].
		// 99 IOs at 1000..1003 and 1 at 2003 (the exact max). P50 rank 50 and P99 rank 99
		// -> 1003 (highest
		// equivalent value); P99.9 rank ceil(99.9) = 100 -> min(2007, max 2003) = 2003.
		// Mean over bucket medians: (99 * 1002 + 1 * 2004) / 100 = 1012.02.
		PhaseLatencyHistogram histogram = PhaseLatencyHistogram.fromPairs(100, 1001, 2003,
				new long[][] { { 1000, 99 }, { 2000, 1 } });
		LatencyQos qos = LatencyQosAnalyzer.of(histogram).orElseThrow();
		assertThat(qos.count()).isEqualTo(100);
		assertThat(qos.p50Ns()).isEqualTo(1003);
		assertThat(qos.p99Ns()).isEqualTo(1003);
		assertThat(qos.p99_9Ns()).isEqualTo(2003);
		assertThat(qos.p99_9999Ns()).isEqualTo(2003);
		assertThat(qos.meanNs()).isCloseTo(1012.02, within(1e-9));
		assertThat(qos.minNs()).isEqualTo(1001);
		assertThat(qos.maxNs()).isEqualTo(2003);
		assertThat(qos.p99Us()).isEqualTo(1.003);
	}

	@Test
	void p999OfAThousandIsTheFastBucket() {
		// 999 fast IOs and 1 slow: P99.9 is rank 999 (a fast IO), although 99.9 / 100 *
		// 1000 in doubles is
		// 999.0000000000001. HdrHistogram's getValueAtPercentile nudges p down one ulp
		// and agrees.
		Histogram histogram = new Histogram(2);
		histogram.recordValueWithCount(100_000, 999);
		histogram.recordValue(5_000_000);
		LatencyQos qos = LatencyQosAnalyzer.of(PhaseLatencyHistogram.from(histogram, 100_000, 5_000_000)).orElseThrow();
		assertThat(qos.p99_9Ns()).isEqualTo(histogram.highestEquivalentValue(100_000))
			.isEqualTo(histogram.getValueAtPercentile(99.9));
		assertThat(qos.p99_99Ns()).isEqualTo(5_000_000);
	}

	@Test
	void agreesWithHdrHistogramsValueAtPercentileCappedAtTheMax() {
		Random random = new Random(42);
		for (int trial = 0; trial < 200; trial++) {
			Histogram histogram = new Histogram(2);
			int ios = 1 + random.nextInt(5000);
			long max = 0;
			for (int i = 0; i < ios; i++) {
				long value = (long) Math.exp(random.nextDouble() * 20);
				histogram.recordValue(value);
				max = Math.max(max, value);
			}
			long min = histogram.getMinValue();
			LatencyQos qos = LatencyQosAnalyzer.of(PhaseLatencyHistogram.from(histogram, min, max)).orElseThrow();
			long[] ours = { qos.p50Ns(), qos.p90Ns(), qos.p99Ns(), qos.p99_9Ns(), qos.p99_99Ns(), qos.p99_999Ns(),
					qos.p99_9999Ns() };
			for (int i = 0; i < ours.length; i++) {
				double percentile = Double.parseDouble(LatencyQos.PERCENTILES.get(i));
				assertThat(ours[i]).as("P%s of %d IOs", LatencyQos.PERCENTILES.get(i), ios)
					.isEqualTo(Math.min(histogram.getValueAtPercentile(percentile), max));
			}
			assertThat(qos.meanNs()).isEqualTo(histogram.getMean());
		}
	}

	@Test
	void bucketErrorIsAtMostOne128th() {
		Histogram layout = new Histogram(2);
		Random random = new Random(128);
		for (int i = 0; i < 100_000; i++) {
			long value = 1 + (long) Math.exp(random.nextDouble() * 25);
			long highest = layout.highestEquivalentValue(value);
			assertThat(highest).isGreaterThanOrEqualTo(value);
			assertThat((double) (highest - value)).isLessThanOrEqualTo(value / 128.0);
		}
	}

	@Test
	void mergesReadsAndWrites() {
		PhaseLatencyHistogram reads = PhaseLatencyHistogram.fromPairs(10, 200, 210,
				new long[][] { { 200, 5 }, { 210, 5 } });
		PhaseLatencyHistogram writes = PhaseLatencyHistogram.fromPairs(10, 90, 99,
				new long[][] { { 90, 5 }, { 99, 5 } });
		LatencyQos qos = LatencyQosAnalyzer.of(reads, writes).orElseThrow();
		// Values below 256 are exact. 20 IOs: 90 x5, 99 x5, 200 x5, 210 x5; P50 rank 10
		// -> 99.
		assertThat(qos.count()).isEqualTo(20);
		assertThat(qos.minNs()).isEqualTo(90);
		assertThat(qos.maxNs()).isEqualTo(210);
		assertThat(qos.p50Ns()).isEqualTo(99);
		assertThat(qos.p90Ns()).isEqualTo(210);
		assertThat(qos.meanNs()).isEqualTo((90 * 5 + 99 * 5 + 200 * 5 + 210 * 5) / 20.0);
	}

	@Test
	void noIoMeansNoQos() {
		assertThat(LatencyQosAnalyzer.of(PhaseLatencyHistogram.fromPairs(0, 0, 0, new long[0][]))).isEmpty();
	}

	@Test
	void refusesHistogramsOutsideTheContract() {
		assertThatIllegalArgumentException().isThrownBy(() -> new PhaseLatencyHistogram(3, 0, 0, 0, List.of()))
			.withMessageContaining("significantDigits = 3");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PhaseLatencyHistogram.fromPairs(2, 1000, 1000, new long[][] { { 1000, 1 }, { 1000, 1 } }))
			.withMessageContaining("ascending");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PhaseLatencyHistogram.fromPairs(3, 1000, 1000, new long[][] { { 1000, 2 } }))
			.withMessageContaining("totalCount = 3");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PhaseLatencyHistogram.fromPairs(1, 1000, 1000, new long[][] { { 1000, 0 } }))
			.withMessageContaining("count 0");
		// 1001 is inside the bucket [1000, 1003], not its lowest value.
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LatencyQosAnalyzer
				.of(PhaseLatencyHistogram.fromPairs(1, 1001, 1001, new long[][] { { 1001, 1 } })))
			.withMessageContaining("not a bucket's lowest equivalent value (that would be 1000)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> LatencyQosAnalyzer
				.of(PhaseLatencyHistogram.fromPairs(1, 5000, 5000, new long[][] { { 1000, 1 } })))
			.withMessageContaining("not in the first / last bucket");
	}

}

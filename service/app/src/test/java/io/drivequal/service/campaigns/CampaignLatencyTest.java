// Fleet-wide latency merges the samples' histograms: its P99.99 is the pooled IOs', not the mean of the samples' P99.99s.
package io.drivequal.service.campaigns;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import io.drivequal.analysis.PhaseLatencyHistogram;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CampaignLatencyTest {

	/** The contract form of these latencies, as a runner sends a phase's histogram. */
	private static PhaseLatencyHistogram histogram(long[] latenciesNs) {
		Histogram h = new Histogram(PhaseLatencyHistogram.SIGNIFICANT_DIGITS);
		for (long ns : latenciesNs) {
			h.recordValue(ns);
		}
		return PhaseLatencyHistogram.from(h, Arrays.stream(latenciesNs).min().getAsLong(),
				Arrays.stream(latenciesNs).max().getAsLong());
	}

	private static long[] repeat(long[] first, int firstCount, long[] second, int secondCount) {
		long[] values = new long[firstCount + secondCount];
		Arrays.fill(values, 0, firstCount, first[0]);
		Arrays.fill(values, firstCount, values.length, second[0]);
		return values;
	}

	/**
	 * Nearest rank over the pooled raw latencies (exact decimal: 99.9 % of 260,000 is
	 * 259,740).
	 */
	private static long pooledPercentile(long[] sorted, double percent) {
		long rank = new java.math.BigDecimal(Double.toString(percent))
			.multiply(java.math.BigDecimal.valueOf(sorted.length))
			.divide(java.math.BigDecimal.valueOf(100))
			.setScale(0, java.math.RoundingMode.CEILING)
			.longValueExact();
		return sorted[(int) Math.max(0, rank - 1)];
	}

	/**
	 * The value the merged histogram reports for a latency: its bucket's highest value.
	 */
	private static double bucketUs(long ns, long maxNs) {
		return Math.min(new Histogram(PhaseLatencyHistogram.SIGNIFICANT_DIGITS).highestEquivalentValue(ns), maxNs)
				/ 1000.0;
	}

	@Test
	void theFleetP9999IsThePooledIosNotTheMeanOfTheSamples() {
		// Sample A: 100,000 writes, 20 of them stalled 8 ms (its P99.99 is a stall);
		// sample B: 100,000 writes at 120 us, no tail.
		long[] a = repeat(new long[] { 100_000 }, 99_980, new long[] { 8_000_000 }, 20);
		long[] b = repeat(new long[] { 120_000 }, 100_000, new long[] { 120_000 }, 0);
		List<CampaignLatency.FleetLatencyRow> rows = CampaignLatency
			.merge(List.of(new CampaignLatency.SampleHistogram("p", "w", "write", "A", histogram(a)),
					new CampaignLatency.SampleHistogram("p", "w", "write", "B", histogram(b))));
		assertThat(rows).hasSize(1);
		CampaignLatency.FleetLatencyRow row = rows.get(0);
		assertThat(row.samples()).containsExactly("A", "B");
		double p9999A = row.perSample().get(0).figures().p99_99Us();
		double p9999B = row.perSample().get(1).figures().p99_99Us();
		assertThat(p9999A).isEqualTo(bucketUs(8_000_000, 8_000_000));
		assertThat(p9999B).isEqualTo(bucketUs(120_000, 120_000));
		double averaged = (p9999A + p9999B) / 2;
		// The pooled 200,000 IOs: rank 199,980 falls among B's 120 us writes.
		long[] pooled = new long[a.length + b.length];
		System.arraycopy(a, 0, pooled, 0, a.length);
		System.arraycopy(b, 0, pooled, a.length, b.length);
		Arrays.sort(pooled);
		assertThat(pooledPercentile(pooled, 99.99)).isEqualTo(120_000);
		assertThat(row.fleet().p99_99Us()).isEqualTo(bucketUs(120_000, 8_000_000));
		assertThat(row.fleet().p99_99Us()).as("the mean of the samples' P99.99s, %.1f us, is no IO's", averaged)
			.isLessThan(averaged / 30);
		assertThat(row.fleet().ios()).isEqualTo(200_000);
		assertThat(row.fleet().maxUs()).isEqualTo(8000.0);
	}

	@Test
	void everyFleetPercentileIsThePooledIosWithinItsBucket() {
		SplittableRandom random = new SplittableRandom(7);
		long[][] samples = new long[4][];
		List<CampaignLatency.SampleHistogram> histograms = new java.util.ArrayList<>();
		for (int s = 0; s < samples.length; s++) {
			// Log-normal latencies, each sample at its own scale, with a rare slow tail.
			samples[s] = new long[50_000 + 10_000 * s];
			for (int i = 0; i < samples[s].length; i++) {
				double u1 = 1 - random.nextDouble();
				double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random.nextDouble());
				double us = (80 + 20 * s) * Math.exp(0.4 * z) * ((random.nextDouble() < 0.0005 * s) ? 50 : 1);
				samples[s][i] = Math.max(1000, Math.round(us * 1000));
			}
			histograms.add(new CampaignLatency.SampleHistogram("p", "w", "read", "S" + s, histogram(samples[s])));
		}
		CampaignLatency.FleetLatencyRow row = CampaignLatency.merge(histograms).get(0);
		long[] pooled = Arrays.stream(samples).flatMapToLong(Arrays::stream).sorted().toArray();
		long maxNs = pooled[pooled.length - 1];
		assertThat(row.fleet().ios()).isEqualTo(pooled.length);
		assertThat(row.fleet().p50Us()).isEqualTo(bucketUs(pooledPercentile(pooled, 50), maxNs));
		assertThat(row.fleet().p99Us()).isEqualTo(bucketUs(pooledPercentile(pooled, 99), maxNs));
		assertThat(row.fleet().p99_9Us()).isEqualTo(bucketUs(pooledPercentile(pooled, 99.9), maxNs));
		assertThat(row.fleet().p99_99Us()).isEqualTo(bucketUs(pooledPercentile(pooled, 99.99), maxNs));
		assertThat(row.fleet().p99_9999Us()).isEqualTo(bucketUs(pooledPercentile(pooled, 99.9999), maxNs));
		double averaged = row.perSample().stream().mapToDouble((p) -> p.figures().p99_99Us()).average().orElseThrow();
		assertThat(row.fleet().p99_99Us()).isNotCloseTo(averaged, org.assertj.core.data.Percentage.withPercentage(2));
	}

	@Test
	void phasesAndDirectionsAreMergedApart() {
		long[] fast = repeat(new long[] { 50_000 }, 10, new long[] { 50_000 }, 0);
		long[] slow = repeat(new long[] { 900_000 }, 10, new long[] { 900_000 }, 0);
		List<CampaignLatency.FleetLatencyRow> rows = CampaignLatency
			.merge(List.of(new CampaignLatency.SampleHistogram("p", "w", "write", "A", histogram(slow)),
					new CampaignLatency.SampleHistogram("p", "w", "read", "A", histogram(fast)),
					new CampaignLatency.SampleHistogram("p", "w", "write", "B", histogram(slow)),
					new CampaignLatency.SampleHistogram("q", "w", "write", "B", histogram(fast))));
		assertThat(rows).extracting((r) -> r.profile() + "/" + r.direction() + "/" + r.samples())
			.containsExactly("p/write/[A, B]", "p/read/[A]", "q/write/[B]");
		assertThat(rows.get(1).fleet().p99Us()).isEqualTo(bucketUs(50_000, 50_000));
	}

}

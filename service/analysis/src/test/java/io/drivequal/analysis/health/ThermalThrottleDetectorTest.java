// Known answers for the throttling detector, and the detector against the simulated drive's own count of its throttling.
package io.drivequal.analysis.health;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.drivequal.analysis.PerSecondSeries;
import io.drivequal.analysis.health.ThermalThrottleDetector.Interval;
import io.drivequal.analysis.health.ThermalThrottleDetector.Options;
import io.drivequal.analysis.health.ThermalThrottleDetector.Result;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThermalThrottleDetectorTest {

	private static final int TMT1_K = 343;

	/** IOPS of t = 1..values.length. */
	private static PerSecondSeries iops(long... values) {
		return PerSecondSeries.consecutive(values);
	}

	private static long[] repeat(long value, int seconds) {
		long[] values = new long[seconds];
		java.util.Arrays.fill(values, value);
		return values;
	}

	private static long[] concat(long[]... parts) {
		return java.util.Arrays.stream(parts).flatMapToLong(java.util.Arrays::stream).toArray();
	}

	private static HealthReading reading(long elapsedMs, int temperatureK) {
		return HealthReading.at(0, elapsedMs).temperatureK(temperatureK).throttleThresholdK(TMT1_K).build();
	}

	@Test
	void hotSecondsWithTheirIopsDroppedAreThrottled() {
		// 1000 IOPS, halved for t = 11..20; readings every 5 s: hot (343 K) from 10 s to
		// 19 s
		PerSecondSeries series = iops(concat(repeat(1000, 10), repeat(500, 10), repeat(1000, 10)));
		List<HealthReading> readings = List.of(reading(0, 330), reading(5000, 335), reading(10000, 343),
				reading(15000, 343), reading(20000, 335), reading(25000, 330), reading(30000, 330));
		Result result = ThermalThrottleDetector.detect(series, readings, Options.defaults());
		assertThat(result.known()).isTrue();
		assertThat(result.thresholdK()).hasValue(TMT1_K);
		assertThat(result.thresholdSource()).contains("TMT1");
		assertThat(result.secondsJudged()).isEqualTo(30);
		// t = 10..19 take the 343 K readings; t = 10 still ran at full speed, t = 20 was
		// cool
		assertThat(result.hotSeconds()).isEqualTo(10);
		assertThat(result.throttledSeconds()).isEqualTo(9);
		assertThat(result.intervals()).containsExactly(new Interval(11, 19));
		assertThat(result.coolMedianIops()).hasValue(1000);
		assertThat(result.throttled(10)).isFalse();
		assertThat(result.throttled(11)).isTrue();
		assertThat(result.throttled(20)).isFalse();
	}

	@Test
	void oneKelvinBelowTheLimitIsAtTheLimitTwoAreNot() {
		PerSecondSeries series = iops(concat(repeat(1000, 10), repeat(500, 10)));
		Result atLimit = ThermalThrottleDetector.detect(series, List.of(reading(0, 330), reading(10000, 342)),
				Options.defaults());
		Result below = ThermalThrottleDetector.detect(series, List.of(reading(0, 330), reading(10000, 341)),
				Options.defaults());
		assertThat(atLimit.throttledSeconds()).isEqualTo(10);
		assertThat(below.throttledSeconds()).isZero();
		assertThat(below.hotSeconds()).isZero();
	}

	@Test
	void aDipWhileCoolOrASmallDropWhileHotIsNotThrottling() {
		// a GC dip to 400 IOPS at t = 5..6 while cool; hot from t = 10, at 850 IOPS (-15
		// %)
		// from t = 11
		PerSecondSeries series = iops(concat(repeat(1000, 4), repeat(400, 2), repeat(1000, 4), repeat(850, 10)));
		Result result = ThermalThrottleDetector.detect(series, List.of(reading(0, 330), reading(10000, 343)),
				Options.defaults());
		assertThat(result.hotSeconds()).isEqualTo(11);
		assertThat(result.throttledSeconds()).isZero();
		assertThat(result.intervals()).isEmpty();
	}

	@Test
	void theReferenceIsTheRecentCoolSecondsNotTheFreshDrive() {
		// fresh 2000 IOPS for 150 s, steady 1000 for 50 s, then hot at 900: not throttled
		// against the last minute of cool seconds, though far below the phase's cool
		// median
		PerSecondSeries series = iops(concat(repeat(2000, 150), repeat(1000, 50), repeat(900, 20)));
		Result result = ThermalThrottleDetector.detect(series, List.of(reading(0, 330), reading(200_000, 343)),
				Options.defaults());
		assertThat(result.coolMedianIops()).hasValue(2000);
		assertThat(result.hotSeconds()).isEqualTo(21);
		assertThat(result.throttledSeconds()).isZero();
	}

	@Test
	void theWarningTemperatureStandsInForAnUnreportedThrottlePoint() {
		PerSecondSeries series = iops(concat(repeat(1000, 10), repeat(300, 5)));
		List<HealthReading> readings = List.of(HealthReading.at(0, 0).temperatureK(320).warningThresholdK(348).build(),
				HealthReading.at(0, 10000).temperatureK(348).warningThresholdK(348).build());
		Result result = ThermalThrottleDetector.detect(series, readings, Options.defaults());
		assertThat(result.thresholdSource()).contains("WCTEMP");
		assertThat(result.thresholdK()).hasValue(348);
		assertThat(result.throttledSeconds()).isEqualTo(5);
	}

	@Test
	void withoutALimitATemperatureOrCoolSecondsTheAnswerIsUnknown() {
		PerSecondSeries series = iops(repeat(1000, 20));
		Result noLimit = ThermalThrottleDetector.detect(series,
				List.of(HealthReading.at(0, 0).temperatureK(330).build()), Options.defaults());
		assertThat(noLimit.known()).isFalse();
		assertThat(noLimit.unknownReason()).hasValueSatisfying((reason) -> assertThat(reason).contains("TMT1"));
		Result noTemperature = ThermalThrottleDetector.detect(series,
				List.of(HealthReading.at(0, 0).unavailable().build()), Options.defaults());
		assertThat(noTemperature.unknownReason()).hasValueSatisfying(
				(reason) -> assertThat(reason).contains("no health reading of the phase reported a temperature"));
		Result alwaysHot = ThermalThrottleDetector.detect(series, List.of(reading(0, 343)), Options.defaults());
		assertThat(alwaysHot.unknownReason())
			.hasValueSatisfying((reason) -> assertThat(reason).contains("only 0 second(s)"));
		assertThat(ThermalThrottleDetector.detect(PerSecondSeries.empty(), List.of(reading(0, 330)), Options.defaults())
			.known()).isFalse();
	}

	@Test
	void theDrivesOwnCountIsReportedBeside() {
		PerSecondSeries series = iops(repeat(1000, 20));
		List<HealthReading> readings = List.of(
				HealthReading.at(0, 0).temperatureK(330).throttleThresholdK(TMT1_K).throttledTimeS(100).build(),
				HealthReading.at(0, 20000).temperatureK(330).throttleThresholdK(TMT1_K).throttledTimeS(112).build());
		assertThat(ThermalThrottleDetector.detect(series, readings, Options.defaults()).driveThrottledS()).hasValue(12);
	}

	/**
	 * The simulated drive throttles from second 15 on, and in its steady state (from
	 * about 140 s) leaves throttling in short bursts. Every second it counted as
	 * throttled is found; the only extra seconds are the second it started throttling in
	 * and burst seconds whose IOPS, still hot and in garbage collection, stay far below
	 * the fresh drive's.
	 */
	@Test
	void againstTheSimulatedDrivesOwnCount() throws IOException {
		for (int pollEveryS : new int[] { 1, 10 }) {
			Fixture sim = Fixture.load(pollEveryS);
			Result result = ThermalThrottleDetector.detect(sim.iops, sim.readings, Options.defaults());
			Set<Long> found = new HashSet<>();
			for (long t = 1; t <= 300; t++) {
				if (result.throttled(t)) {
					found.add(t);
				}
			}
			Set<Long> both = new HashSet<>(found);
			both.retainAll(sim.truth);
			double recall = (double) both.size() / sim.truth.size();
			double precision = (double) both.size() / found.size();
			System.out.printf(
					"sim truth vs detector (health every %d s): drive counted %d s throttled (%d seconds grew its "
							+ "count), detector %d s; recall %.3f, precision %.3f; first run %s%n",
					pollEveryS, result.driveThrottledS().getAsLong(), sim.truth.size(), found.size(), recall, precision,
					result.intervals().get(0));
			assertThat(result.thresholdK()).hasValue(TMT1_K);
			assertThat(result.driveThrottledS()).hasValue(264);
			assertThat(recall).isGreaterThanOrEqualTo(pollEveryS == 1 ? 1.0 : 0.98);
			assertThat(precision).isGreaterThanOrEqualTo(0.9);
			// the drive counts its first throttled second at t = 16 (it began during
			// second
			// 15); read every 10 s, the detector sees the heat at the reading of t = 20
			assertThat(sim.truth).contains(16L).doesNotContain(15L);
			assertThat(result.intervals().get(0).firstT()).isEqualTo((pollEveryS == 1) ? 15 : 20);
		}
	}

	/** sim-thermal-throttle-300s.csv, with every pollEveryS-th reading kept. */
	private record Fixture(PerSecondSeries iops, List<HealthReading> readings, Set<Long> truth) {

		static Fixture load(int pollEveryS) throws IOException {
			List<String> lines;
			try (InputStream in = Fixture.class.getResourceAsStream("/health/sim-thermal-throttle-300s.csv")) {
				lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().skip(1).toList();
			}
			PerSecondSeries.Builder iops = PerSecondSeries.builder();
			List<HealthReading> readings = new ArrayList<>();
			Set<Long> truth = new HashSet<>();
			long previousCount = -1;
			for (String line : lines) {
				String[] cells = line.split(",", -1);
				long t = Long.parseLong(cells[0]);
				long count = Long.parseLong(cells[3]);
				if (!cells[1].isEmpty()) {
					iops.add(t, Long.parseLong(cells[1]));
				}
				if (previousCount >= 0 && count > previousCount) {
					truth.add(t);
				}
				previousCount = count;
				if (t % pollEveryS == 0) {
					readings.add(HealthReading.at(0, t * 1000)
						.temperatureK(Integer.parseInt(cells[2]))
						.throttleThresholdK(TMT1_K)
						.warningThresholdK(348)
						.throttledTimeS(count)
						.build());
				}
			}
			return new Fixture(iops.build(), readings, truth);
		}

	}

}

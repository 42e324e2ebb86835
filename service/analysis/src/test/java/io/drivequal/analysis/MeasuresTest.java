// WAF, endurance projection, TRIM/idle recovery and throughput: the arithmetic by hand and every "unknown" reason.
package io.drivequal.analysis;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MeasuresTest {

	@Test
	void wafFromTheSchemaExample() {
		// after: dataUnitsWritten 1,204,551, media 1,733,955,993,600 B
		// (smart-snapshot-ocp.json); before: 204,551 units,
		// 433,955,993,600 B. Host: 1,000,000 x 512,000 = 512,000,000,000 B; media
		// 1,300,000,000,000 B.
		// WAF = 1.3e12 / 5.12e11 = 2.5390625.
		WriteAmplification.WafResult waf = WriteAmplification.between(SmartCounters.withOcp(204_551, 433_955_993_600L),
				SmartCounters.withOcp(1_204_551, 1_733_955_993_600L));
		assertThat(waf.waf().value()).hasValue(2.5390625);
		assertThat(waf.hostBytesWritten()).hasValue(512_000_000_000L);
		assertThat(waf.mediaBytesWritten()).hasValue(1_300_000_000_000L);
	}

	@Test
	void bandwidthPerTbByHand() {
		// 3.84e12 B drive, 600 s phase, 1,000,000,000,000 B read:
		// 1e12 / 1024 / 600 = 1,627,604.1666 KiB/s; / 3.84 TB = 423,855.251736 KiB/s per
		// TB.
		MetricValues values = new MetricValues().putBandwidthPerTb(Metric.READ_KIBPS_PER_TB, "mix", 1_000_000_000_000L,
				600_000_000_000L, OptionalLong.of(3_840_000_000_000L));
		assertThat(values.of(Metric.READ_KIBPS_PER_TB).get("mix").value().getAsDouble()).isCloseTo(423_855.251736,
				within(1e-6));
		assertThat(new MetricValues().putBandwidthPerTb(Metric.TRIM_KIBPS_PER_TB, "mix", 1, 1, OptionalLong.empty())
			.of(Metric.TRIM_KIBPS_PER_TB)
			.get("mix")
			.value()).isEmpty();
	}

	@Test
	void wafIsUnknownNotGuessed() {
		SmartCounters withOcp = SmartCounters.withOcp(100, 1_000_000_000L);
		assertThat(reason(WriteAmplification.between(SmartCounters.withoutOcp(100), SmartCounters.withOcp(200, 2L))))
			.contains("before has no OCP C0h log");
		assertThat(reason(
				WriteAmplification.between(withOcp, SmartCounters.unavailable("/dev/loop0 is not an NVMe namespace"))))
			.contains("after is unavailable: /dev/loop0 is not an NVMe namespace");
		assertThat(reason(WriteAmplification.between(withOcp, SmartCounters.withOcp(100, 2_000_000_000L))))
			.contains("no data unit");
		assertThat(reason(WriteAmplification.between(withOcp, SmartCounters.withOcp(50, 2_000_000_000L))))
			.contains("went backwards");
	}

	@Test
	void enduranceFromPeCycles() {
		// 3000 P/E x 8 TiB raw / WAF 2.5 = 3000 * 8,796,093,022,208 / 2.5 =
		// 10,555,311,626,649,600 B.
		// DWPD = TBW / (7.68e12 x 365 x 5) = 0.75305...
		EnduranceSpec spec = new EnduranceSpec(OptionalLong.of(3000), OptionalLong.of(8_796_093_022_208L),
				OptionalLong.of(7_680_000_000_000L), OptionalDouble.of(5), OptionalLong.of(1L));
		EnduranceProjection projection = Endurance.project(spec, Measure.known(2.5));
		assertThat(projection.source()).isEqualTo(EnduranceProjection.TbwSource.PROJECTED_FROM_PE_CYCLES);
		assertThat(projection.tbwBytes().value().getAsDouble()).isCloseTo(1.05553116266496e16, within(64.0));
		assertThat(projection.dwpd().value().getAsDouble()).isCloseTo(1.05553116266496e16 / (7.68e12 * 365 * 5),
				within(1e-12));
	}

	@Test
	void enduranceFallsBackToRatedTbwAndOtherwiseStaysUnknown() {
		// Rated 14,016 TB on 7.68 TB for 5 years: 14.016e15 / (7.68e12 * 1825) = 1.0
		// DWPD.
		EnduranceSpec rated = new EnduranceSpec(OptionalLong.of(3000), OptionalLong.empty(),
				OptionalLong.of(7_680_000_000_000L), OptionalDouble.of(5), OptionalLong.of(14_016_000_000_000_000L));
		EnduranceProjection fromRated = Endurance.project(rated, Measure.unknown("no OCP log"));
		assertThat(fromRated.source()).isEqualTo(EnduranceProjection.TbwSource.RATED_TBW);
		assertThat(fromRated.dwpd().value().getAsDouble()).isCloseTo(1.0, within(1e-12));
		// Shown as the vendor's, never judged: the criteria's values stay unknown.
		assertThat(((Measure.Unknown) fromRated.measuredDwpd()).reason())
			.isEqualTo("not measured: raw NAND bytes not given; WAF unknown: no OCP log; "
					+ "the vendor's rated TBW is the datasheet's figure, not this drive's");
		assertThat(fromRated.measuredTbwBytes()).isInstanceOf(Measure.Unknown.class);
		MetricValues values = new MetricValues().putEndurance("steady", fromRated);
		assertThat(values.of(Metric.DWPD).get("steady")).isInstanceOf(Measure.Unknown.class);
		assertThat(values.of(Metric.TBW_BYTES).get("steady")).isInstanceOf(Measure.Unknown.class);

		EnduranceProjection nothing = Endurance.project(EnduranceSpec.none(), Measure.unknown("no OCP log"));
		assertThat(nothing.source()).isEqualTo(EnduranceProjection.TbwSource.UNKNOWN);
		assertThat(((Measure.Unknown) nothing.tbwBytes()).reason()).contains("rated P/E cycles not given")
			.contains("raw NAND bytes not given")
			.contains("WAF unknown: no OCP log");
		assertThat(((Measure.Unknown) nothing.dwpd()).reason()).contains("user capacity not given")
			.contains("warranty years not given");

		EnduranceSpec noCapacity = new EnduranceSpec(OptionalLong.of(3000), OptionalLong.of(1000L),
				OptionalLong.empty(), OptionalDouble.of(5), OptionalLong.empty());
		EnduranceProjection partial = Endurance.project(noCapacity, Measure.known(2));
		assertThat(partial.tbwBytes().value()).hasValue(1_500_000.0);
		assertThat(partial.dwpd().isKnown()).isFalse();
	}

	@Test
	void trimRecovery() {
		// (2500 - 1000) / (3000 - 1000) = 0.75
		assertThat(Recovery.trimRecovery(3000, 1000, 2500).value()).hasValue(0.75);
		assertThat(Recovery.trimRecovery(3000, 3000, 2500).isKnown()).isFalse();
		assertThat(
				Recovery.trimRecovery(Measure.known(3000), Measure.unknown("phase failed"), Measure.known(1)).isKnown())
			.isFalse();
	}

	@Test
	void idleRecovery() {
		// First 60 s after idle at 90 IOPS (then 1000, ignored) over a steady state of
		// 100 IOPS: 0.9.
		long[] after = new long[120];
		Arrays.fill(after, 0, 60, 90);
		Arrays.fill(after, 60, 120, 1000);
		assertThat(Recovery.idleRecovery(PerSecondSeries.consecutive(after), 100).value()).hasValue(0.9);
		// 53 of the first 60 seconds: like a round, not enough.
		long[] t = java.util.stream.LongStream.rangeClosed(1, 53).toArray();
		assertThat(Recovery.idleRecovery(PerSecondSeries.of(t, new long[53]), 100).isKnown()).isFalse();
		SteadyStateResult notReached = SteadyStateDetectorTest
			.everyRoundEligible(PerSecondSeries.consecutive(1, 2, 4, 8, 16), 1, OptionalInt.empty());
		assertThat(((Measure.Unknown) Recovery.idleRecovery(PerSecondSeries.consecutive(after), notReached)).reason())
			.isEqualTo("the phase before idle is not steady at the end of the phase: "
					+ "range 241.9 % of the average exceeds 20 %; slope excursion 232.3 % of the average exceeds 10 %");
	}

	@Test
	void throughputInDecimalMegabytes() {
		// (1e9 + 2e9 + 3e9) B / 3 s / 1e6 = 2000 MB/s
		assertThat(Throughput.meanMBps(PerSecondSeries.consecutive(1_000_000_000L, 2_000_000_000L, 3_000_000_000L)))
			.map(Throughput.ThroughputResult::meanMBps)
			.contains(2000.0);
		assertThat(Throughput.meanMBps(PerSecondSeries.empty())).isEqualTo(Optional.empty());
	}

	private static String reason(WriteAmplification.WafResult result) {
		return ((Measure.Unknown) result.waf()).reason();
	}

}

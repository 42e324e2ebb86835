// Compares the Java analysis with answers computed independently by src/test/python/known_answers.py (exact fractions).
package io.drivequal.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Known answers: the Python script implements docs/methodology.md's definitions literally
 * with {@code fractions.Fraction}, the Java code with its own arithmetic; floating-point
 * results agree to 1e-9 relative, integers and booleans exactly.
 */
class KnownAnswersTest {

	private static final double RELATIVE = 1e-9;

	private static final JsonNode ANSWERS = load();

	@TestFactory
	Stream<DynamicTest> steadyState() {
		return cases("steadyState").map((c) -> DynamicTest.dynamicTest(c.path("name").asString(), () -> {
			PerSecondSeries iops = series(c);
			OptionalInt maxRounds = c.path("maxRounds").isNull() ? OptionalInt.empty()
					: OptionalInt.of(c.path("maxRounds").asInt());
			// Per-second cases of a phase that does not write: every round is eligible.
			Eligibility eligibility = Eligibility.notApplicable("known answers: the phase does not write");
			SteadyStateResult result = SteadyStateDetector.detect(iops, PerSecondSeries.empty(), eligibility,
					c.path("roundLengthS").asInt(), maxRounds);
			JsonNode expected = c.path("expected");
			assertThat(result.reached()).as("reached").isEqualTo(expected.path("reached").asBoolean());
			assertThat(result.windowsEvaluated()).as("windowsEvaluated")
				.isEqualTo(expected.path("windowsEvaluated").asInt());
			assertRounds(result.rounds(), expected.path("rounds"));
			JsonNode window = expected.path("window");
			assertThat(result.window().isPresent()).isEqualTo(!window.isNull());
			if (!window.isNull()) {
				assertWindow(result.window().get(), window);
			}
			JsonNode end = expected.path("end");
			assertThat(result.end().holds()).as("steady at end").isEqualTo(end.path("holds").asBoolean());
			assertThat(result.end().lastRoundIndex()).as("end window").isEqualTo(end.path("lastRound").asInt());
			if (!end.path("window").isNull()) {
				assertWindow(result.end().window().orElseThrow(), end.path("window"));
			}
			if (expected.has("steadyStateConsistency")) {
				ConsistencyResult consistency = Consistency.overSteadyStateWindow(iops, result).orElseThrow();
				assertConsistency(consistency, expected.path("steadyStateConsistency"));
				IopsPhaseAnalysis analysis = IopsPhaseAnalyzer.analyze(iops, PerSecondSeries.empty(), eligibility,
						new IopsPhaseOptions(c.path("roundLengthS").asInt(), maxRounds, OptionalLong.empty()));
				assertThat(analysis.steadyStateConsistency()).contains(consistency);
			}
			else {
				assertThat(Consistency.overSteadyStateWindow(iops, result)).isEmpty();
			}
		}));
	}

	@TestFactory
	Stream<DynamicTest> consistency() {
		return cases("consistency").map((c) -> DynamicTest.dynamicTest(c.path("name").asString(), () -> {
			ConsistencyResult result = Consistency.over(series(c), c.path("firstT").asLong(), c.path("lastT").asLong())
				.orElseThrow();
			assertConsistency(result, c.path("expected"));
		}));
	}

	@TestFactory
	Stream<DynamicTest> latency() {
		return cases("latency").map((c) -> DynamicTest.dynamicTest(c.path("name").asString(), () -> {
			List<PhaseLatencyHistogram> histograms = new ArrayList<>();
			for (JsonNode histogram : c.path("histograms")) {
				histograms.add(histogram(histogram));
			}
			LatencyQos qos = LatencyQosAnalyzer.of(histograms).orElseThrow();
			JsonNode expected = c.path("expected");
			assertThat(qos.count()).isEqualTo(expected.path("count").asLong());
			assertThat(qos.minNs()).isEqualTo(expected.path("minNs").asLong());
			assertThat(qos.maxNs()).isEqualTo(expected.path("maxNs").asLong());
			assertClose(qos.meanNs(), expected.path("meanNs").asDouble(), "meanNs");
			assertThat(new long[] { qos.p50Ns(), qos.p90Ns(), qos.p99Ns(), qos.p99_9Ns(), qos.p99_99Ns(),
					qos.p99_999Ns(), qos.p99_9999Ns() })
				.containsExactly(expected.path("p50Ns").asLong(), expected.path("p90Ns").asLong(),
						expected.path("p99Ns").asLong(), expected.path("p99_9Ns").asLong(),
						expected.path("p99_99Ns").asLong(), expected.path("p99_999Ns").asLong(),
						expected.path("p99_9999Ns").asLong());
		}));
	}

	@TestFactory
	Stream<DynamicTest> endurance() {
		JsonNode endurance = ANSWERS.path("endurance");
		return Stream.of(DynamicTest.dynamicTest("waf", () -> {
			JsonNode waf = endurance.path("waf");
			WriteAmplification.WafResult result = WriteAmplification.between(snapshot(waf.path("before")),
					snapshot(waf.path("after")));
			assertClose(result.waf().value().getAsDouble(), waf.path("waf").asDouble(), "waf");
			assertThat(result.hostBytesWritten()).hasValue(waf.path("hostBytesWritten").asLong());
			assertThat(result.mediaBytesWritten()).hasValue(waf.path("mediaBytesWritten").asLong());
		}), DynamicTest.dynamicTest("projection", () -> {
			JsonNode projection = endurance.path("projection");
			JsonNode spec = projection.path("spec");
			EnduranceProjection result = Endurance.project(
					new EnduranceSpec(OptionalLong.of(spec.path("ratedPeCycles").asLong()),
							OptionalLong.of(spec.path("rawNandBytes").asLong()),
							OptionalLong.of(spec.path("userCapacityBytes").asLong()),
							OptionalDouble.of(spec.path("warrantyYears").asDouble()), OptionalLong.empty()),
					Measure.known(endurance.path("waf").path("waf").asDouble()));
			assertThat(result.source()).isEqualTo(EnduranceProjection.TbwSource.PROJECTED_FROM_PE_CYCLES);
			assertClose(result.tbwBytes().value().getAsDouble(), projection.path("tbwBytes").asDouble(), "tbw");
			assertClose(result.dwpd().value().getAsDouble(), projection.path("dwpd").asDouble(), "dwpd");
		}), DynamicTest.dynamicTest("rated-tbw", () -> {
			JsonNode rated = endurance.path("ratedTbw");
			EnduranceProjection result = Endurance.project(new EnduranceSpec(OptionalLong.empty(), OptionalLong.empty(),
					OptionalLong.of(rated.path("userCapacityBytes").asLong()),
					OptionalDouble.of(rated.path("warrantyYears").asDouble()),
					OptionalLong.of(rated.path("ratedTbwBytes").asLong())), Measure.unknown("no OCP log"));
			assertThat(result.source()).isEqualTo(EnduranceProjection.TbwSource.RATED_TBW);
			assertClose(result.dwpd().value().getAsDouble(), rated.path("dwpd").asDouble(), "dwpd");
		}), DynamicTest.dynamicTest("trim-recovery", () -> {
			JsonNode trim = endurance.path("trimRecovery");
			Measure result = Recovery.trimRecovery(trim.path("cleanMBps").asDouble(), trim.path("dirtyMBps").asDouble(),
					trim.path("afterTrimMBps").asDouble());
			assertClose(result.value().getAsDouble(), trim.path("recovery").asDouble(), "trim recovery");
		}), DynamicTest.dynamicTest("idle-recovery", () -> {
			JsonNode idle = endurance.path("idleRecovery");
			Measure result = Recovery.idleRecovery(series(idle), idle.path("steadyStateIopsBefore").asDouble());
			assertClose(result.value().getAsDouble(), idle.path("expected").asDouble(), "idle recovery");
		}));
	}

	static void assertConsistency(ConsistencyResult actual, JsonNode expected) {
		assertThat(actual.firstT()).isEqualTo(expected.path("firstT").asLong());
		assertThat(actual.lastT()).isEqualTo(expected.path("lastT").asLong());
		assertThat(actual.sampleCount()).isEqualTo(expected.path("sampleCount").asInt());
		assertThat(actual.minIops()).isEqualTo(expected.path("minIops").asLong());
		assertThat(actual.maxIops()).isEqualTo(expected.path("maxIops").asLong());
		assertThat(
				new long[] { actual.p0_1Iops(), actual.p1Iops(), actual.p5Iops(), actual.p50Iops(), actual.p99Iops() })
			.as("P0.1, P1, P5, P50, P99")
			.containsExactly(expected.path("p0_1Iops").asLong(), expected.path("p1Iops").asLong(),
					expected.path("p5Iops").asLong(), expected.path("p50Iops").asLong(),
					expected.path("p99Iops").asLong());
		assertThat(actual.within10PercentCount()).as("within ±10%")
			.isEqualTo(expected.path("within10PercentCount").asInt());
		assertThat(actual.within20PercentCount()).as("within ±20%")
			.isEqualTo(expected.path("within20PercentCount").asInt());
		assertClose(actual.meanIops(), expected.path("meanIops").asDouble(), "mean");
		assertClose(actual.stddevIops(), expected.path("stddevIops").asDouble(), "stddev");
		if (expected.path("ratio").isNull()) {
			assertThat(actual.ratio()).isEmpty();
			assertThat(actual.cv()).isEmpty();
		}
		else {
			assertClose(actual.ratio().getAsDouble(), expected.path("ratio").asDouble(), "ratio");
			assertClose(actual.cv().getAsDouble(), expected.path("cv").asDouble(), "cv");
		}
	}

	static void assertWindow(SteadyStateWindow actual, JsonNode expected) {
		assertThat(actual.firstRoundIndex()).isEqualTo(expected.path("firstRoundIndex").asInt());
		assertThat(actual.lastRoundIndex()).as("x").isEqualTo(expected.path("lastRoundIndex").asInt());
		assertThat(actual.windowStartS()).isEqualTo(expected.path("windowStartS").asLong());
		assertThat(actual.windowEndS()).isEqualTo(expected.path("windowEndS").asLong());
		assertThat(actual.rangeWithinBound()).as("range within bound")
			.isEqualTo(expected.path("rangeWithinBound").asBoolean());
		assertThat(actual.slopeWithinBound()).as("slope within bound")
			.isEqualTo(expected.path("slopeWithinBound").asBoolean());
		assertClose(actual.avgIops(), expected.path("avgIops").asDouble(), "avg");
		assertClose(actual.minRoundIops(), expected.path("minRoundIops").asDouble(), "min");
		assertClose(actual.maxRoundIops(), expected.path("maxRoundIops").asDouble(), "max");
		assertClose(actual.rangePercent(), expected.path("rangePercent").asDouble(), "range %");
		// A slope of 0 in exact arithmetic may come out as ±1e-12 in doubles: compare it
		// on
		// the scale of the window's average, which is what the bound compares it with.
		assertThat(actual.slopeIopsPerRound()).as("slope")
			.isCloseTo(expected.path("slopeIopsPerRound").asDouble(),
					within(Math.max(Math.abs(expected.path("avgIops").asDouble()) * RELATIVE, 1e-12)));
		assertClose(actual.slopeExcursionPercent(), expected.path("slopeExcursionPercent").asDouble(), "slope %");
	}

	private static void assertRounds(List<Round> actual, JsonNode expected) {
		assertThat(actual).hasSize(expected.size());
		for (int i = 0; i < actual.size(); i++) {
			Round round = actual.get(i);
			JsonNode want = expected.get(i);
			assertThat(round.index()).isEqualTo(want.path("index").asInt());
			assertThat(round.secondsPresent()).as("round %d seconds", i).isEqualTo(want.path("secondsPresent").asInt());
			assertThat(round.counted()).as("round %d counted", i).isEqualTo(want.path("counted").asBoolean());
			assertThat(round.sumIops()).isEqualTo(want.path("sumIops").asLong());
			assertThat(round.eligible()).as("round %d eligible", i).isEqualTo(want.path("eligible").asBoolean());
			if (want.path("meanIops").isNull()) {
				assertThat(round.meanIops()).isEmpty();
			}
			else {
				assertClose(round.meanIops().getAsDouble(), want.path("meanIops").asDouble(), "round mean");
			}
		}
	}

	static void assertClose(double actual, double expected, String what) {
		assertThat(actual).as(what).isCloseTo(expected, within(Math.max(Math.abs(expected) * RELATIVE, 1e-12)));
	}

	static PerSecondSeries series(JsonNode c) {
		List<Long> t = new ArrayList<>();
		for (JsonNode range : c.path("tRanges")) {
			for (long second = range.get(0).asLong(); second <= range.get(1).asLong(); second++) {
				t.add(second);
			}
		}
		JsonNode iops = c.path("iops");
		assertThat(iops.size()).isEqualTo(t.size());
		long[] tArray = new long[t.size()];
		long[] values = new long[t.size()];
		for (int i = 0; i < tArray.length; i++) {
			tArray[i] = t.get(i);
			values[i] = iops.get(i).asLong();
		}
		return PerSecondSeries.of(tArray, values);
	}

	static PhaseLatencyHistogram histogram(JsonNode histogram) {
		JsonNode counts = histogram.path("counts");
		long[][] pairs = new long[counts.size()][];
		for (int i = 0; i < pairs.length; i++) {
			pairs[i] = new long[] { counts.get(i).get(0).asLong(), counts.get(i).get(1).asLong() };
		}
		return PhaseLatencyHistogram.fromPairs(histogram.path("totalCount").asLong(), histogram.path("minNs").asLong(),
				histogram.path("maxNs").asLong(), pairs);
	}

	private static SmartCounters snapshot(JsonNode snapshot) {
		return SmartCounters.withOcp(snapshot.path("dataUnitsWritten").asLong(),
				snapshot.path("physicalMediaUnitsWrittenBytes").asLong());
	}

	private static Stream<JsonNode> cases(String kind) {
		List<JsonNode> list = new ArrayList<>();
		ANSWERS.path(kind).forEach(list::add);
		assertThat(list).as(kind + " cases").isNotEmpty();
		return list.stream();
	}

	private static JsonNode load() {
		try (InputStream in = KnownAnswersTest.class.getResourceAsStream("/known-answers.json")) {
			return JsonMapper.builder().build().readTree(in);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

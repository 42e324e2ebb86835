// The shared steady-state vectors (schemas/examples/steady-state), which the C runner's detector will read too: one rule, pinned by the same answers.
package io.drivequal.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static io.drivequal.analysis.KnownAnswersTest.assertClose;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each vector gives round totals and the eligibility inputs; the expected answers were
 * computed in exact fractions by src/test/python/known_answers.py, which also writes the
 * files. Integers and booleans must agree exactly, doubles to 1e-9 relative.
 */
class SteadyStateVectorsTest {

	private static final Path VECTORS = Path.of(System.getProperty("drivequal.schemas.dir", "../../schemas"))
		.resolve("examples/steady-state");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TestFactory
	Stream<DynamicTest> everyVectorGivesTheExpectedAnswer() throws IOException {
		return vectors().stream().map((file) -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
			JsonNode vector = JSON.readTree(Files.readString(file));
			check(run(vector.path("input")), vector.path("expected"));
		}));
	}

	@Test
	void theVectorsCoverEveryFailureKindAndBothSidesOfTheBounds() throws IOException {
		List<String> kinds = new ArrayList<>();
		List<String> names = new ArrayList<>();
		for (Path file : vectors()) {
			names.add(file.getFileName().toString());
			JSON.readTree(Files.readString(file))
				.path("expected")
				.path("end")
				.path("failures")
				.forEach((failure) -> kinds.add(failure.path("kind").asString()));
		}
		for (SteadyStateFailure.Kind kind : SteadyStateFailure.Kind.values()) {
			assertThat(kinds).as("a vector fails with " + kind.wireName()).contains(kind.wireName());
		}
		assertThat(names).contains("sim-client-7pct-op25.json", "eligible-exactly-at-w.json",
				"eligible-one-byte-short.json", "range-bound-on.json", "range-bound-just-outside.json",
				"slope-bound-on.json", "slope-bound-just-outside.json");
	}

	static SteadyStateResult run(JsonNode input) {
		JsonNode rounds = input.path("rounds");
		long[] sums = new long[rounds.size()];
		int[] seconds = new int[rounds.size()];
		long[] written = new long[rounds.size()];
		long[] media = new long[rounds.size()];
		long[] host = new long[rounds.size()];
		boolean withMedia = false;
		for (int i = 0; i < sums.length; i++) {
			sums[i] = rounds.get(i).path("sumIops").asLong();
			seconds[i] = rounds.get(i).path("secondsPresent").asInt();
			written[i] = rounds.get(i).path("randomWriteBytes").asLong();
			JsonNode mediaBytes = rounds.get(i).path("mediaBytes");
			withMedia |= mediaBytes.isNumber();
			media[i] = mediaBytes.isNumber() ? mediaBytes.asLong() : -1;
			host[i] = rounds.get(i).path("hostBytes").isNumber() ? rounds.get(i).path("hostBytes").asLong() : -1;
		}
		OptionalInt maxRounds = input.path("maxRounds").isNull() ? OptionalInt.empty()
				: OptionalInt.of(input.path("maxRounds").asInt());
		return SteadyStateDetector.detect(
				RoundTable.ofRounds(input.path("roundLengthS").asInt(), sums, seconds, written,
						withMedia ? media : null, withMedia ? host : null, eligibility(input.path("eligibility"))),
				maxRounds);
	}

	static Eligibility eligibility(JsonNode given) {
		JsonNode range = given.path("testedRangeBytes");
		return new Eligibility(given.path("applies").asBoolean(),
				Eligibility.History.ofWireName(given.path("history").asString("reset")),
				given.path("rangeWritesRequired").asDouble(),
				range.isNull() ? OptionalLong.empty() : OptionalLong.of(range.asLong()),
				given.path("randomWriteBytesBefore").asLong(), "from the vector");
	}

	static void check(SteadyStateResult actual, JsonNode expected) {
		JsonNode rounds = expected.path("rounds");
		assertThat(actual.rounds()).hasSize(rounds.size());
		for (int i = 0; i < rounds.size(); i++) {
			Round round = actual.rounds().get(i);
			JsonNode want = rounds.get(i);
			assertThat(round.counted()).as("round %d counted", i).isEqualTo(want.path("counted").asBoolean());
			assertThat(round.eligible()).as("round %d eligible", i).isEqualTo(want.path("eligible").asBoolean());
			if (want.path("waf").isNumber()) {
				assertClose(round.waf().getAsDouble(), want.path("waf").asDouble(), "round WAF");
			}
			assertThat(round.randomWriteBytesAtStart()).as("round %d random writes at start", i)
				.isEqualTo(want.path("randomWriteBytesAtStart").asLong());
			if (!want.path("meanIops").isNull()) {
				assertClose(round.meanIops().getAsDouble(), want.path("meanIops").asDouble(), "round mean");
			}
		}
		assertThat(actual.firstEligibleRound()).as("first eligible round")
			.isEqualTo(optionalInt(expected.path("firstEligibleRound")));
		assertThat(actual.freshState().evidence().wireName()).as("fresh-state evidence")
			.isEqualTo(expected.path("freshStateEvidence").asString());
		assertThat(actual.reached()).as("reached").isEqualTo(expected.path("reached").asBoolean());
		assertThat(actual.reachedAtRound()).as("reached at round")
			.isEqualTo(optionalInt(expected.path("reachedAtRound")));
		assertThat(actual.windowsEvaluated()).as("windows evaluated")
			.isEqualTo(expected.path("windowsEvaluated").asInt());
		assertThat(actual.window().isPresent()).as("window").isEqualTo(!expected.path("window").isNull());
		actual.window().ifPresent((window) -> KnownAnswersTest.assertWindow(window, expected.path("window")));
		JsonNode end = expected.path("end");
		assertThat(actual.end().firstRoundIndex()).as("end window first round")
			.isEqualTo(end.path("firstRound").asInt());
		assertThat(actual.end().lastRoundIndex()).as("end window last round").isEqualTo(end.path("lastRound").asInt());
		assertThat(actual.end().holds()).as("steady at end").isEqualTo(end.path("holds").asBoolean());
		assertThat(actual.end().window().isPresent()).as("end window figures").isEqualTo(!end.path("window").isNull());
		actual.end().window().ifPresent((window) -> KnownAnswersTest.assertWindow(window, end.path("window")));
		JsonNode horizon = end.path("horizon");
		if (horizon.isMissingNode() || horizon.isNull()) {
			assertThat(actual.end().horizon().filter(SteadyStateHorizon::evaluated)).as("end horizon").isEmpty();
		}
		else {
			SteadyStateHorizon got = actual.end().horizon().orElseThrow();
			assertThat(got.evaluated()).as("end horizon evaluated").isTrue();
			assertThat(got.firstRoundIndex()).isEqualTo(horizon.path("firstRoundIndex").asInt());
			assertThat(got.lastRoundIndex()).isEqualTo(horizon.path("lastRoundIndex").asInt());
			assertThat(got.holds()).as("end horizon holds").isEqualTo(horizon.path("holds").asBoolean());
			assertThat(got.crossed()).as("end horizon crossed").isEqualTo(horizon.path("crossed").asBoolean());
			assertClose(got.earlierChangePercent(), horizon.path("earlierChangePercent").asDouble(),
					"horizon earlier change");
			assertClose(got.rangePercent(), horizon.path("rangePercent").asDouble(), "horizon range");
			assertClose(got.slopeExcursionPercent(), horizon.path("slopeExcursionPercent").asDouble(),
					"horizon excursion");
		}
		List<String> wantFailures = new ArrayList<>();
		end.path("failures").forEach((failure) -> {
			List<Integer> failed = new ArrayList<>();
			failure.path("rounds").forEach((round) -> failed.add(round.asInt()));
			wantFailures.add(failure.path("kind").asString() + " " + failed);
		});
		assertThat(
				actual.end().failures().stream().map((failure) -> failure.kind().wireName() + " " + failure.rounds()))
			.as("end window failures")
			.containsExactlyElementsOf(wantFailures);
		actual.end().failures().forEach((failure) -> assertThat(failure.message()).isNotBlank());
		if (expected.path("steadyStateIops").isNull()) {
			assertThat(actual.steadyStateIops()).isEmpty();
			assertThat(actual.notSteadyReason()).isPresent();
		}
		else {
			assertClose(actual.steadyStateIops().getAsDouble(), expected.path("steadyStateIops").asDouble(),
					"steady-state IOPS");
		}
	}

	private static OptionalInt optionalInt(JsonNode value) {
		return value.isNull() ? OptionalInt.empty() : OptionalInt.of(value.asInt());
	}

	private static List<Path> vectors() throws IOException {
		try (Stream<Path> files = Files.list(VECTORS)) {
			List<Path> list = files.filter((file) -> file.toString().endsWith(".json")).sorted().toList();
			assertThat(list).as("vectors in " + VECTORS.toAbsolutePath()).hasSizeGreaterThan(10);
			return list;
		}
	}

}

/*
 * One criterion type from submission to verdict: the submission's JSON is read once into the
 * typed criterion the analysis judges, by the API's mapper (Jackson 3) and by the store's
 * (Jackson 2, the Elasticsearch client's), and written back in the same JSON, so stored jobs,
 * campaigns and criteria sets keep their shape and old documents still read; a stored verdict
 * keeps its own form of the criterion.
 */
package io.drivequal.service.qualification;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.drivequal.analysis.Comparison;
import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.CriterionResult;
import io.drivequal.analysis.Metric;
import io.drivequal.analysis.Outcome;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.CriteriaSet;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CriterionJsonTest {

	private static final String WITH_PHASE = """
			{"metric":"readLatencyP99999Us","comparator":"atMost","limit":60.0,"phase":"randread-4k-qd1"}""";

	private static final String WITHOUT_PHASE = """
			{"metric":"consistencyRatio","comparator":"atLeast","limit":0.9}""";

	private final JsonMapper api = JsonMapper.builder().build();

	private final ObjectMapper store = new ObjectMapper();

	@Test
	void theWireFormIsReadIntoTheTypedCriterionByBothMappers() throws Exception {
		Criterion expected = new Criterion(Metric.READ_LATENCY_P99999_US, Comparison.AT_MOST, 60.0,
				Optional.of("randread-4k-qd1"));
		assertThat(this.api.readValue(WITH_PHASE, Criterion.class)).isEqualTo(expected);
		assertThat(this.store.readValue(WITH_PHASE, Criterion.class)).isEqualTo(expected);
		assertThat(this.api.readValue(WITHOUT_PHASE, Criterion.class))
			.isEqualTo(Criterion.atLeast(Metric.CONSISTENCY_RATIO, 0.9));
	}

	@Test
	void itIsWrittenBackInTheSameShape() throws Exception {
		for (String json : List.of(WITH_PHASE, WITHOUT_PHASE)) {
			Criterion criterion = this.api.readValue(json, Criterion.class);
			assertThat(this.api.writeValueAsString(criterion)).isEqualTo(json);
			assertThat(this.store.writeValueAsString(criterion)).isEqualTo(json);
		}
	}

	@Test
	void anOldStoredJobsCriteriaStillRead() throws Exception {
		// the former record wrote every member, an absent phase as null
		String old = """
				{"metric":"waf","comparator":"atMost","limit":3.0,"phase":null}""";
		assertThat(this.store.readValue(old, Criterion.class)).isEqualTo(Criterion.atMost(Metric.WAF, 3.0));
		assertThat(this.store.writeValueAsString(this.store.readValue(old, Criterion.class)))
			.isEqualTo("{\"metric\":\"waf\",\"comparator\":\"atMost\",\"limit\":3.0}");
	}

	@Test
	void aCriteriaSetsLinesKeepTheirSource() throws Exception {
		CriteriaSet flash = new Catalog().criteriaSet("fiosynth-4k-l2r6dwpd-wtrim").orElseThrow();
		assertThat(flash.criteria()).allSatisfy((line) -> assertThat(line.source()).isPresent());
		Map<String, Object> first = this.api.readValue(this.api.writeValueAsString(flash.criteria().get(0)),
				new tools.jackson.core.type.TypeReference<Map<String, Object>>() {
				});
		assertThat(first.keySet()).contains("metric", "comparator", "limit", "source");
		assertThat(first.get("metric")).isEqualTo(flash.criteria().get(0).metric().wireName());
	}

	@Test
	void eachWrongMemberIsNamed() {
		assertInvalid("{\"metric\":\"latencyP100\",\"comparator\":\"atMost\",\"limit\":1}", "metric",
				"unknown metric latencyP100");
		assertInvalid("{\"comparator\":\"atMost\",\"limit\":1}", "metric", "is required");
		assertInvalid("{\"metric\":\"waf\",\"comparator\":\"below\",\"limit\":1}", "comparator",
				"must be atLeast or atMost, got below");
		assertInvalid("{\"metric\":\"waf\",\"comparator\":\"atMost\"}", "limit", "must be a finite number");
		assertInvalid("{\"metric\":\"waf\",\"comparator\":\"atMost\",\"limit\":1,\"phase\":\" \"}", "phase",
				"is blank");
	}

	@Test
	void aStoredVerdictKeepsItsFormOfTheCriterion() throws Exception {
		CriterionResult result = new CriterionResult(Criterion.atMost(Metric.WAF, 3.0).inPhase("randwrite"),
				Outcome.PASS, OptionalDouble.of(2.5), Optional.of("randwrite"), "measured 2.5");
		Map<?, ?> stored = this.api.convertValue(result, Map.class);
		assertThat(stored.get("criterion"))
			.isEqualTo(Map.of("metric", "WAF", "comparison", "AT_MOST", "limit", 3.0, "phaseName", "randwrite"));
		Map<?, ?> withoutPhase = this.api.convertValue(new CriterionResult(Criterion.atMost(Metric.WAF, 3.0),
				Outcome.PASS, OptionalDouble.of(2.5), Optional.empty(), "measured 2.5"), Map.class);
		Map<?, ?> criterion = (Map<?, ?>) withoutPhase.get("criterion");
		assertThat(criterion.containsKey("phaseName")).isTrue();
		assertThat(criterion.get("phaseName")).isNull();
		assertThat(criterion).hasSize(4);
	}

	private void assertInvalid(String json, String member, String message) {
		assertThatThrownBy(() -> this.api.readValue(json, Criterion.class)).rootCause()
			.isInstanceOfSatisfying(Criterion.Invalid.class,
					(invalid) -> assertThat(invalid.member()).as(json).isEqualTo(member))
			.hasMessageContaining(message);
	}

}

/*
 * The destructive-phase rule against the shared vectors in schemas/examples/phase-rules, which the
 * runner's C tests read too: the service warns exactly where the runner's interlocks will act.
 */
package io.drivequal.service.catalog;

import java.util.List;
import java.util.stream.Stream;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.Validation;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

class DestructivePhaseRuleTest {

	private static final String VECTORS = "examples/phase-rules/destructive.json";

	private final Contracts contracts = Contracts.load();

	private final JsonNode vectors = this.contracts.mapper().readTree(Contracts.resource(VECTORS));

	@TestFactory
	Stream<DynamicTest> everyVectorGetsItsVerdict() {
		return cases().map((vector) -> DynamicTest.dynamicTest(vector.path("why").asString(), () -> {
			PhaseSpec phase = this.contracts.mapper().treeToValue(vector.path("phase"), PhaseSpec.class);
			assertThat(phase.destroysData()).as(vector.path("why").asString())
				.isEqualTo(vector.path("destructive").asBoolean());
		}));
	}

	/** A vector the contract would refuse could not pin anything. */
	@Test
	void everyVectorIsAPhaseTheContractAccepts() {
		cases().forEach((vector) -> {
			Validation validation = StartCommands.validate(this.contracts,
					List.of(((ObjectNode) vector.path("phase").deepCopy()).put("index", 0)));
			assertThat(validation.errors()).as(vector.path("why").asString()).isEmpty();
		});
	}

	/**
	 * The runner gets the plan's powerCycle as the plan gave it, or the phase runs blind.
	 */
	@Test
	void aPowerCyclePhaseReachesTheRunnerUnchanged() {
		JsonNode start = this.contracts.mapper()
			.readTree(Contracts.resource("examples/job-command/valid/start-power-cycle-sim.json"));
		JsonNode given = start.path("phases").path(0);
		PhaseSpec phase = this.contracts.mapper().treeToValue(given, PhaseSpec.class);
		assertThat(phase.powerCycle().powerDriver()).isEqualTo("sim");
		assertThat(phase.destroysData()).isTrue();
		JsonNode sent = this.contracts.mapper().valueToTree(phase);
		assertThat(sent).isEqualTo(given);
		JsonNode renumbered = this.contracts.mapper().valueToTree(phase.withIndex(3));
		assertThat(renumbered.path("powerCycle")).isEqualTo(given.path("powerCycle"));
	}

	@Test
	void bothVerdictsAreCovered() {
		assertThat(cases().map((vector) -> vector.path("destructive").asBoolean()).distinct()).hasSize(2);
	}

	private Stream<JsonNode> cases() {
		return this.vectors.path("cases").valueStream();
	}

}

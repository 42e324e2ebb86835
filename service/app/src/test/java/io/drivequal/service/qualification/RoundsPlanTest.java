/*
 * The round checks a submission gets before anything is stored: each bad definition refused with
 * its field, SNIA's defaults filled in, and steps a drive cannot issue left out with a warning.
 */
package io.drivequal.service.qualification;

import java.util.List;

import io.drivequal.schemas.Contracts;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.RoundSpec;
import io.drivequal.service.platform.BadRequestException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoundsPlanTest {

	private static final RoundSpec.Step WRITE_4K = new RoundSpec.Step("randwrite", null, 4096, 32, null, null);

	private static final RoundSpec.Step READ_512 = new RoundSpec.Step("randread", null, 512, 32, null, null);

	private static final RoundSpec.Step IDLE = new RoundSpec.Step(null, null, null, null, null, 5);

	@Test
	void badDefinitionsNameTheirField() {
		assertField(new RoundSpec(List.of(), null, new RoundSpec.Tracking(0, "iops"), null, null),
				"plan.phases[0].rounds.steps");
		assertField(new RoundSpec(List.of(WRITE_4K), null, new RoundSpec.Tracking(0, "latency"), null, null),
				"plan.phases[0].rounds.tracking.metric");
		assertField(new RoundSpec(List.of(WRITE_4K), null, new RoundSpec.Tracking(1, "iops"), null, null),
				"plan.phases[0].rounds.tracking.step");
		assertField(new RoundSpec(List.of(WRITE_4K, IDLE), null, new RoundSpec.Tracking(1, "iops"), null, null),
				"plan.phases[0].rounds.tracking.step");
		assertField(new RoundSpec(List.of(WRITE_4K), null, null, null, -0.5),
				"plan.phases[0].rounds.rangeWritesRequired");
		assertField(new RoundSpec(List.of(new RoundSpec.Step("randwrite", null, 6144, 32, null, null)), null, null,
				null, null), "plan.phases[0].rounds.steps[0].blockSizeBytes");
		assertField(new RoundSpec(List.of(READ_512, WRITE_4K), null, new RoundSpec.Tracking(0, "iops"), null, null),
				"plan.phases[0].rounds.tracking.step");
	}

	@Test
	void fillsSniaDefaultsAndLeavesOutStepsBelowTheLba() {
		RoundsPlan.Checked checked = RoundsPlan.checked(List
			.of(phase(new RoundSpec(List.of(READ_512, WRITE_4K), null, new RoundSpec.Tracking(1, "iops"), null, null))),
				4096, 0.75);
		RoundSpec rounds = checked.phases().get(0).rounds();
		assertThat(rounds.steps()).containsExactly(WRITE_4K);
		assertThat(rounds.tracking()).isEqualTo(new RoundSpec.Tracking(0, "iops"));
		assertThat(rounds.stepRuntimeS()).isEqualTo(60);
		assertThat(rounds.maxRounds()).isEqualTo(25);
		assertThat(rounds.rangeWritesRequired()).isEqualTo(0.75);
		assertThat(checked.warnings()).singleElement().asString().contains("step 0 (512-byte blocks) is left out");
		assertThat(RoundsPlan
			.checked(List.of(phase(new RoundSpec(List.of(READ_512, WRITE_4K), 60, null, 25, 1.0))), 512, 1.0)
			.warnings()).isEmpty();
	}

	@Test
	void theTrackingMetricsAreTheContracts() {
		JsonNode metric = JsonMapper.builder()
			.build()
			.readTree(Contracts.resource("messages/common.schema.json"))
			.at("/$defs/roundSpec/properties/tracking/properties/metric/enum");
		assertThat(metric.valueStream().map(JsonNode::asString).toList())
			.containsExactlyInAnyOrderElementsOf(RoundSpec.METRICS)
			.contains("meanLatencyNs");
		assertThat(RoundsPlan
			.checked(List.of(phase(
					new RoundSpec(List.of(WRITE_4K), null, new RoundSpec.Tracking(0, "meanLatencyNs"), null, null))),
					4096, 1.0)
			.phases()
			.get(0)
			.rounds()
			.tracking()
			.metric()).isEqualTo("meanLatencyNs");
	}

	private static void assertField(RoundSpec rounds, String field) {
		assertThatThrownBy(() -> RoundsPlan.checked(List.of(phase(rounds)), 4096, 1.0))
			.isInstanceOfSatisfying(BadRequestException.class, (ex) -> assertThat(ex.field()).isEqualTo(field));
	}

	private static PhaseSpec phase(RoundSpec rounds) {
		return new PhaseSpec(0, "iops", "workload", null, null, null, null, 100.0, null, null, null, null, null, null,
				null, null, rounds);
	}

}

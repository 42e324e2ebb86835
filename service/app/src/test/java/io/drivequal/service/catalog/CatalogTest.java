/*
 * Every profile of the catalog, resolved for a real drive, is a plan a runner accepts: its start
 * command passes the contract's JSON Schema. A catalog edit that breaks the contract fails here.
 */
package io.drivequal.service.catalog;

import java.util.List;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.Validation;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class CatalogTest {

	private static final long CAPACITY = 3_840_755_982_336L;

	private final Catalog catalog = new Catalog();

	private final Contracts contracts = Contracts.load();

	@Test
	void holdsTheProfilesOfTheDesign() {
		assertThat(this.catalog.all()).extracting(Profile::name)
			.containsExactly("consistency-2000s", "consistency-2000s-op25", "steady-state-2h", "trim-validation",
					"idle-recovery", "database-oltp", "endurance-waf", "snia-iops", "snia-wsat", "latency-qos");
	}

	@Test
	void everyProfileIsAValidStartCommand() {
		for (Profile profile : this.catalog.all()) {
			Validation validation = StartCommands.validate(this.contracts,
					profile.phases()
						.stream()
						.map((phase) -> (JsonNode) this.contracts.mapper().valueToTree(phase.resolvedFor(CAPACITY)))
						.toList());
			assertThat(validation.errors()).as(profile.name()).isEmpty();
			assertThat(profile.phases().stream().map(PhaseSpec::name)).as(profile.name())
				.contains(profile.primaryPhase());
		}
	}

	@Test
	void spareAreaProfileUsesThreeQuartersOfTheDrive() {
		Profile op25 = this.catalog.find("consistency-2000s-op25").orElseThrow();
		assertThat(op25.phases().get(2).rangePercent()).isEqualTo(75.0);
		assertThat(op25.phases().get(1).rangePercent()).isEqualTo(75.0);
	}

	@Test
	void writeSaturationResolvesToFourTimesTheCapacity() {
		PhaseSpec wsat = this.catalog.find("snia-wsat").orElseThrow().phases().get(1).resolvedFor(CAPACITY);
		assertThat(wsat.sizeBytes()).isEqualTo(4 * CAPACITY);
		assertThat(wsat.capacityMultiple()).isNull();
	}

	@Test
	void overridesReplaceOnlyTheGivenFields() {
		PhaseSpec base = this.catalog.find("consistency-2000s").orElseThrow().phases().get(2);
		PhaseSpec shorter = base.overriddenBy(new PhaseSpec(null, null, null, null, null, null, 64, null, 60L, null,
				null, null, null, null, null, null));
		assertThat(List.of(shorter.runtimeS(), (long) shorter.queueDepth(), (long) shorter.blockSizeBytes()))
			.containsExactly(60L, 64L, 4096L);
		assertThat(shorter.name()).isEqualTo(base.name());
	}

}

/*
 * Every profile of the catalog, resolved for a real drive, is a plan a runner accepts: its start
 * command passes the contract's JSON Schema. A catalog edit that breaks the contract fails here.
 */
package io.drivequal.service.catalog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.Metric;
import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.Validation;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CatalogTest {

	private static final long CAPACITY = 3_840_755_982_336L;

	private final Catalog catalog = new Catalog();

	private final Contracts contracts = Contracts.load();

	@Test
	void holdsTheProfilesOfTheDesign() {
		assertThat(this.catalog.all()).extracting(Profile::name)
			.containsExactly("consistency-2000s", "consistency-2000s-op25", "steady-state-2h", "trim-validation",
					"idle-recovery", "database-oltp", "endurance-waf", "pts-iops", "pts-throughput", "pts-latency",
					"pts-wsat", "pts-hir", "pts-xsr", "latency-qos", "latency-at-load", "fdp-hot-cold");
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
	void writeSaturationStopsAtFourTimesTheCapacityOr24Hours() {
		PhaseSpec wsat = this.catalog.find("pts-wsat").orElseThrow().phases().get(1).resolvedFor(CAPACITY);
		assertThat(wsat.sizeBytes()).isEqualTo(4 * CAPACITY);
		assertThat(wsat.runtimeS()).isEqualTo(86_400L);
		assertThat(wsat.capacityMultiple()).isNull();
		// The ETA takes the nearer limit at the nominal 400 MB/s of random writes: 4 x
		// 3.84 TB in 38,408 s, 4 x 30.72 TB only in 24 h.
		assertThat(Durations.expectedS(wsat, CAPACITY)).isEqualTo(38_408L);
		PhaseSpec big = this.catalog.find("pts-wsat").orElseThrow().phases().get(1);
		assertThat(Durations.expectedS(big, 8 * CAPACITY)).isEqualTo(86_400L);
	}

	@Test
	void anOverrideReplacesOneLimitAndKeepsTheOther() {
		PhaseSpec wsat = this.catalog.find("pts-wsat").orElseThrow().phases().get(1);
		PhaseSpec shorter = wsat.overriddenBy(new PhaseSpec(null, null, null, null, null, null, null, null, 600L, null,
				null, null, null, null, null, null));
		assertThat(shorter.resolvedFor(CAPACITY).runtimeS()).isEqualTo(600L);
		assertThat(shorter.resolvedFor(CAPACITY).sizeBytes()).isEqualTo(4 * CAPACITY);
		PhaseSpec smaller = wsat.overriddenBy(new PhaseSpec(null, null, null, null, null, null, null, null, null,
				1_000_000L, null, null, null, null, null, null));
		assertThat(List.of(smaller.runtimeS(), smaller.sizeBytes())).containsExactly(86_400L, 1_000_000L);
		assertThat(smaller.capacityMultiple()).isNull();
		PhaseSpec twice = this.catalog.find("consistency-2000s")
			.orElseThrow()
			.phases()
			.get(2)
			.overriddenBy(new PhaseSpec(null, null, null, null, null, null, null, null, null, null, null, null, null,
					null, null, 2));
		assertThat(List.of(twice.runtimeS(), twice.resolvedFor(CAPACITY).sizeBytes())).containsExactly(2000L,
				2 * CAPACITY);
	}

	@Test
	void limitsAreCheckedBeforeAnyDriveResolvesThem() {
		PhaseSpec wsat = this.catalog.find("pts-wsat").orElseThrow().phases().get(1);
		assertThat(wsat.limitProblem()).isNull();
		PhaseSpec sizedTwice = new PhaseSpec(1, "wsat", "workload", "randwrite", null, 4096, 32, 100.0, null, 4096L,
				null, null, null, null, null, 4);
		assertThat(sizedTwice.limitProblem().field()).isEqualTo("capacityMultiple");
		assertThat(new PhaseSpec(1, "wsat", "workload", "randwrite", null, 4096, 32, 100.0, null, null, null, null,
				null, null, null, 0)
			.limitProblem()
			.reason()).contains("must be 1..1000");
		PhaseSpec unlimited = new PhaseSpec(1, "w", "workload", "randwrite", null, 4096, 32, 100.0, null, null, null,
				null, null, null, null, null);
		assertThat(unlimited.limitProblem().field()).isEqualTo("runtimeS");
		assertThatIllegalStateException()
			.isThrownBy(() -> Catalog.checkLimits(new Profile("p", "p", "p", "p", "w", null, List.of(unlimited))))
			.withMessageStartingWith("profile p, phase w: runtimeS: a workload needs a limit");
	}

	@Test
	void theIopsProfileRunsTheWholePtsMatrixAndTracks4KiBWrites() {
		PhaseSpec iops = this.catalog.find("pts-iops").orElseThrow().phases().get(2);
		assertThat(iops.rounds().steps()).hasSize(7 * 8);
		RoundSpec.Step tracked = iops.rounds().steps().get(iops.rounds().tracking().step());
		assertThat(tracked.readPercent()).isZero();
		assertThat(tracked.blockSizeBytes()).isEqualTo(4096);
		assertThat(iops.rounds().tracking().metric()).isEqualTo("iops");
		assertThat(iops.rounds().stepRuntimeS()).isEqualTo(60);
		assertThat(iops.rounds().maxRounds()).isEqualTo(25);
		assertThat(iops.rounds().steps().stream().map(RoundSpec.Step::readPercent).distinct()).containsExactly(100, 95,
				65, 50, 35, 5, 0);
		assertThat(iops.rounds().steps().stream().map(RoundSpec.Step::blockSizeBytes).distinct())
			.containsExactly(1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512);
	}

	@Test
	void theLatencyProfileTracksTheMeanLatencyOf4KiBWritesAtQd1() {
		PhaseSpec latency = this.catalog.find("pts-latency").orElseThrow().phases().get(3);
		RoundSpec.Step tracked = latency.rounds().steps().get(latency.rounds().tracking().step());
		assertThat(latency.rounds().tracking().metric()).isEqualTo("meanLatencyNs");
		assertThat(List.of(tracked.readPercent(), tracked.blockSizeBytes(), tracked.queueDepth())).containsExactly(0,
				4096, 1);
		assertThat(latency.rounds().steps()).hasSize(9).allSatisfy((step) -> assertThat(step.queueDepth()).isOne());
	}

	@Test
	void everyProfileSetsW() {
		for (Profile profile : this.catalog.all()) {
			assertThat(profile.analysis().rangeWritesRequired()).as(profile.name()).isEqualTo(1.5);
		}
		assertThatIllegalArgumentException().isThrownBy(() -> new Profile.AnalysisHints(60, null, null, -0.5))
			.withMessageContaining("rangeWritesRequired must be a finite number >= 0");
	}

	@Test
	void criteriaSetsNameTheirSourceAndOnlyPhasesTheirProfilesHave() {
		assertThat(this.catalog.criteriaSets()).extracting(CriteriaSet::name)
			.containsExactly("snia-steady-state", "intel-optane-p4800x-qd1", "fiosynth-4k-l2r6dwpd-wtrim");
		for (CriteriaSet set : this.catalog.criteriaSets()) {
			assertThat(set.source().document()).as(set.name()).isNotBlank();
			assertThat(set.source().version()).as(set.name()).isNotBlank();
			assertThat(set.source().section()).as(set.name()).isNotBlank();
			assertThat(set.criteria()).as(set.name()).isNotEmpty();
		}
		CriteriaSet optane = this.catalog.criteriaSet("intel-optane-p4800x-qd1").orElseThrow();
		assertThat(optane.appliesTo("latency-qos")).isTrue();
		assertThat(optane.appliesTo("consistency-2000s")).isFalse();
		assertThat(optane.appliesTo(null)).isFalse();
		assertThat(optane.criteria()).extracting(Criterion::limit).containsExactly(60.0, 100.0);
		Map<String, Profile> profiles = new LinkedHashMap<>();
		this.catalog.all().forEach((profile) -> profiles.put(profile.name(), profile));
		CriteriaSet.Source source = new CriteriaSet.Source("doc", "1", "2.3", null);
		assertThatIllegalStateException().isThrownBy(() -> Catalog.check(
				new CriteriaSet("x", "x", "x", source, List.of("latency-qos"),
						List.of(Criterion.fromJson("readLatencyP99999Us", "atMost", 1.0, "no-such-phase", null))),
				profiles))
			.withMessage("criteria set x: profile latency-qos has no phase no-such-phase");
		// a set's lines are read as every criterion is: an unknown metric does not load
		assertThatThrownBy(() -> new ObjectMapper()
			.readValue("{\"metric\":\"latencyP100\",\"comparator\":\"atMost\",\"limit\":1}", Criterion.class))
			.rootCause()
			.isInstanceOf(Criterion.Invalid.class)
			.hasMessageStartingWith("unknown metric latencyP100");
		assertThatIllegalStateException()
			.isThrownBy(
					() -> Catalog.check(new CriteriaSet("x", "x", "x", new CriteriaSet.Source("doc", null, "1", null),
							null, List.of(Criterion.atMost(Metric.WAF, 1))), profiles))
			.withMessageContaining("name the document, version and section");
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

/*
 * plan.sweep expanded at submission: one multi-stream phase becomes a step per offered rate, in one
 * sweepGroup, in the phase's place; each bad sweep refused with the field that is wrong.
 */
package io.drivequal.service.qualification;

import java.util.ArrayList;
import java.util.List;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.StreamSpec;
import io.drivequal.service.platform.BadRequestException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SweepPlanTest {

	private static StreamSpec reads(String name, Long rateIops) {
		return new StreamSpec(name, "randread", null, null, null, 4096L, null, 256, null, null, null, null, rateIops,
				null, (rateIops != null) ? "poisson" : null, null, null, null, null);
	}

	private static final PhaseSpec PRECONDITION = new PhaseSpec(null, "precondition", "precondition", "write", null,
			131072, 32, 100.0, null, null, 1, null, null, null, null, null);

	private static final PhaseSpec READS = PhaseSpec.ofStreams(null, "randread-4k", 60,
			List.of(reads("reads", 1000L), reads("background", null)));

	private static final PhaseSpec IDLE = new PhaseSpec(null, "rest", "idle", null, null, null, null, null, null, null,
			null, null, 5L, null, null, null);

	private static final List<PhaseSpec> PLAN = List.of(PRECONDITION, READS, IDLE);

	private static SubmitRequest.Sweep list(Long... rates) {
		return new SubmitRequest.Sweep("randread-4k", null, List.of(rates), null, null, null);
	}

	@Test
	void aListOfRatesBecomesOneStepPerRateInOneSweepGroupInThePhasesPlace() {
		List<PhaseSpec> phases = SweepPlan.expanded(PLAN, list(10_000L, 20_000L, 50_000L, 1_000_000L));
		assertThat(phases).extracting(PhaseSpec::name)
			.containsExactly("precondition", "randread-4k-10k", "randread-4k-20k", "randread-4k-50k", "randread-4k-1m",
					"rest");
		for (PhaseSpec step : phases.subList(1, 5)) {
			assertThat(step.sweepGroup()).isEqualTo("randread-4k");
			assertThat(step.runtimeS()).isEqualTo(60L);
			// the closed-loop stream beside it is left as it is
			assertThat(step.streams().get(1)).isEqualTo(READS.streams().get(1));
		}
		assertThat(phases.subList(1, 5)).extracting((step) -> step.streams().get(0).rateIops())
			.containsExactly(10_000L, 20_000L, 50_000L, 1_000_000L);
		assertThat(phases.get(0).sweepGroup()).isNull();
		assertThat(SweepPlan.expanded(PLAN, null)).isSameAs(PLAN);
	}

	@Test
	void startStepAndCountGiveTheSameAsTheirList() {
		List<PhaseSpec> phases = SweepPlan.expanded(PLAN,
				new SubmitRequest.Sweep("randread-4k", "reads", null, 25_000L, 12_500L, 3));
		assertThat(phases.subList(1, 4)).extracting(PhaseSpec::name)
			.containsExactly("randread-4k-25k", "randread-4k-37500", "randread-4k-50k");
		assertThat(phases).isEqualTo(SweepPlan.expanded(PLAN, list(25_000L, 37_500L, 50_000L)));
	}

	@Test
	void eachBadSweepNamesItsField() {
		assertField(new SubmitRequest.Sweep("randread-4k", null, null, null, null, null), "plan.sweep");
		assertField(new SubmitRequest.Sweep("randread-4k", null, List.of(1L, 2L), 1L, 1L, 2), "plan.sweep");
		assertField(new SubmitRequest.Sweep(null, null, List.of(1L, 2L), null, null, null), "plan.sweep.phase");
		assertField(new SubmitRequest.Sweep("randread-9k", null, List.of(1L, 2L), null, null, null),
				"plan.sweep.phase");
		assertField(new SubmitRequest.Sweep("rest", null, List.of(1L, 2L), null, null, null), "plan.sweep.phase");
		assertField(new SubmitRequest.Sweep("randread-4k", "background", List.of(1L, 2L), null, null, null),
				"plan.sweep.stream");
		assertField(list(10_000L), "plan.sweep.ratesIops");
		assertField(list(10_000L, 10_000L), "plan.sweep.ratesIops[1]");
		assertField(list(10_000L, 0L), "plan.sweep.ratesIops[1]");
		assertField(new SubmitRequest.Sweep("randread-4k", null, null, 0L, 1L, 2), "plan.sweep.startIops");
		assertField(new SubmitRequest.Sweep("randread-4k", null, null, 1L, null, 2), "plan.sweep.stepIops");
		assertField(new SubmitRequest.Sweep("randread-4k", null, null, 1L, 1L, 1), "plan.sweep.steps");
		assertField(new SubmitRequest.Sweep("randread-4k", null, null, 1L, 1L, 63), "plan.sweep");
		// two open-loop streams: the sweep must say which
		PhaseSpec two = PhaseSpec.ofStreams(null, "randread-4k", 60, List.of(reads("a", 1L), reads("b", 1L)));
		assertThatThrownBy(() -> SweepPlan.expanded(List.of(two), list(1L, 2L)))
			.isInstanceOfSatisfying(BadRequestException.class,
					(e) -> assertThat(e.field()).isEqualTo("plan.sweep.stream"))
			.hasMessageContaining("2 open-loop streams");
		// a step named like a phase already in the plan
		List<PhaseSpec> clash = new ArrayList<>(PLAN);
		clash.add(PhaseSpec.ofStreams(null, "randread-4k-20k", 10, List.of(reads("reads", 5L))));
		assertThatThrownBy(() -> SweepPlan.expanded(clash, list(10_000L, 20_000L))).isInstanceOfSatisfying(
				BadRequestException.class, (e) -> assertThat(e.field()).isEqualTo("plan.sweep.phase"));
	}

	private static void assertField(SubmitRequest.Sweep sweep, String field) {
		assertThatThrownBy(() -> SweepPlan.expanded(PLAN, sweep)).as(field)
			.isInstanceOfSatisfying(BadRequestException.class, (e) -> assertThat(e.field()).isEqualTo(field));
	}

}

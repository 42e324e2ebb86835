/*
 * What a submission's criteria set and W turn into, and the 400s naming the field when they
 * cannot be used; these checks run before the job is created, so a refused submission leaves
 * nothing behind.
 */
package io.drivequal.service.qualification;

import java.util.List;

import io.drivequal.analysis.Criterion;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.platform.BadRequestException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SubmissionCriteriaTest {

	private final Catalog catalog = new Catalog();

	@Test
	void aSetsCriteriaComeFirstThenTheBuyersOwn() {
		Criterion own = Criterion.fromJson("waf", "atMost", 3.0, null, null);
		List<Criterion> criteria = QualificationService.criteria(this.catalog,
				request("latency-qos", "intel-optane-p4800x-qd1", List.of(own), null), "latency-qos");
		assertThat(criteria).containsExactly(
				Criterion.fromJson("readLatencyP99999Us", "atMost", 60.0, "randread-4k-qd1", null),
				Criterion.fromJson("writeLatencyP99999Us", "atMost", 100.0, "randwrite-4k-qd1", null), own);
		assertThat(QualificationService.criteria(this.catalog,
				request("consistency-2000s", "snia-steady-state", null, null), "consistency-2000s"))
			.containsExactly(Criterion.fromJson("steadyStateReached", "atLeast", 1.0, null, null));
		assertThat(QualificationService.criteria(this.catalog, request("consistency-2000s", null, null, null),
				"consistency-2000s"))
			.isEmpty();
	}

	@Test
	void anUnknownSetOrOneForOtherProfilesIsA400OnCriteriaSet() {
		assertThatExceptionOfType(BadRequestException.class)
			.isThrownBy(() -> QualificationService.criteria(this.catalog,
					request("consistency-2000s", "ocp-qos", null, null), "consistency-2000s"))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("criteriaSet"))
			.withMessage("no criteria set named ocp-qos; known: snia-steady-state, intel-optane-p4800x-qd1,"
					+ " fiosynth-4k-l2r6dwpd-wtrim");
		assertThatExceptionOfType(BadRequestException.class)
			.isThrownBy(() -> QualificationService.criteria(this.catalog,
					request("consistency-2000s", "intel-optane-p4800x-qd1", null, null), "consistency-2000s"))
			.satisfies((ex) -> assertThat(ex.field()).isEqualTo("criteriaSet"))
			.withMessage("criteria set intel-optane-p4800x-qd1 judges phases of latency-qos; the plan uses "
					+ "consistency-2000s");
	}

	@Test
	void wMustBeAFiniteNumberAtLeastZero() {
		assertThat(QualificationService.analysisSettings(plan(new AnalysisSettings(2.0, null))))
			.isEqualTo(new AnalysisSettings(2.0, null));
		assertThat(QualificationService.analysisSettings(plan(new AnalysisSettings(0.0, null))).rangeWritesRequired())
			.isZero();
		assertThat(QualificationService.analysisSettings(plan(null))).isNull();
		for (double wrong : new double[] { -1e-9, Double.POSITIVE_INFINITY, Double.NaN }) {
			assertThatExceptionOfType(BadRequestException.class)
				.isThrownBy(() -> QualificationService.analysisSettings(plan(new AnalysisSettings(wrong, null))))
				.satisfies((ex) -> assertThat(ex.field()).isEqualTo("plan.analysis.rangeWritesRequired"));
		}
	}

	private static SubmitRequest request(String profile, String set, List<Criterion> criteria,
			AnalysisSettings analysis) {
		return new SubmitRequest(new SubmitRequest.DriveSelector("SIM-1", null, null),
				new SubmitRequest.TestPlan(profile, null, null, null, analysis, null, null), null, criteria, set, null,
				null);
	}

	private static SubmitRequest.TestPlan plan(AnalysisSettings analysis) {
		return new SubmitRequest.TestPlan("consistency-2000s", null, null, null, analysis, null, null);
	}

}

/*
 * A contract error's JSON pointer becomes the request field a caller can fix.
 */
package io.drivequal.service.qualification;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ContractFieldTest {

	@Test
	void pointersIntoPhasesNameThePhaseField() {
		assertThat(QualificationService.fieldOf("/phases/2/queueDepth: must have a maximum value of 1024"))
			.isEqualTo("plan.phases[2].queueDepth");
		assertThat(QualificationService.fieldOf("/phases/0: required property 'rw' not found"))
			.isEqualTo("plan.phases[0]");
		assertThat(QualificationService.fieldOf("/device/serial: does not match")).isEqualTo("plan");
		assertThat(QualificationService.fieldOf("/latencyMonitor/thresholdsMs/1: must be a multiple of 5"))
			.isEqualTo("plan.latencyMonitor.thresholdsMs[1]");
	}

}

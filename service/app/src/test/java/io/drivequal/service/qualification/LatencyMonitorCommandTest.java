/*
 * A submission's latency monitor reaches the runner as the start command's latencyMonitor, checked
 * by the contract (5 ms steps, 5..1280 ms, four thresholds) and by the service (increasing), each
 * refusal naming the field a caller can fix.
 */
package io.drivequal.service.qualification;

import java.time.Clock;
import java.util.List;

import io.drivequal.schemas.Contracts;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.platform.BadRequestException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LatencyMonitorCommandTest {

	private final CommandPublisher commands = new CommandPublisher(null, Contracts.load(), Clock.systemUTC());

	@Test
	void theThresholdsGoIntoTheStartCommandAsTheContractSays() {
		ObjectNode command = this.commands.startCommand(job(List.of(5, 10, 20, 50)));
		assertThat(command.path("latencyMonitor").toString()).isEqualTo("{\"thresholdsMs\":[5,10,20,50]}");
		assertThat(this.commands.check(command).valid()).isTrue();
		assertThat(this.commands.startCommand(job(null)).has("latencyMonitor")).isFalse();
	}

	@Test
	void thresholdsTheDriveCannotTakeAreRefusedNamingTheField() {
		var notAStep = this.commands.check(this.commands.startCommand(job(List.of(5, 12, 20, 50))));
		assertThat(notAStep.valid()).isFalse();
		assertThat(QualificationService.fieldOf(notAStep.errors())).as(notAStep.errors().toString())
			.isEqualTo("plan.latencyMonitor.thresholdsMs[1]");
		assertThat(this.commands.check(this.commands.startCommand(job(List.of(5, 10, 20, 1285)))).valid()).isFalse();
		assertThatThrownBy(
				() -> new LatencyMonitorConfig(List.of(5, 10, 10, 50)).requireIncreasing("plan.latencyMonitor"))
			.isInstanceOf(BadRequestException.class)
			.hasMessageContaining("10 ms is not above 10 ms");
	}

	private static Job job(List<Integer> thresholdsMs) {
		Job.Draft draft = new Job.Draft();
		draft.jobId = "q-lm";
		draft.runnerId = "rack7-host3";
		draft.commandId = "start-q-lm";
		draft.deviceSerial = "S6CKNE0T801234";
		draft.engine = "uring";
		draft.plan = List.of(new PhaseSpec(0, "smart", "smart", null, null, null, null, null, null, null, null, null,
				null, null, null, null));
		draft.latencyMonitor = (thresholdsMs != null) ? new LatencyMonitorConfig(thresholdsMs) : null;
		return draft.build();
	}

}

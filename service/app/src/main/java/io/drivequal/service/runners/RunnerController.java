/*
 * GET /api/v1/runners: the fleet with each runner's liveness.
 */
package io.drivequal.service.runners;

import java.time.Instant;
import java.util.List;

import io.drivequal.service.platform.NotFoundException;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/runners")
class RunnerController {

	private final RunnerRegistry registry;

	RunnerController(RunnerRegistry registry) {
		this.registry = registry;
	}

	record RunnerView(String runnerId, String hostname, String runnerVersion, List<String> engines, int deviceCount,
			List<String> activeJobIds, Instant lastHeartbeatAt, boolean alive) {
	}

	@GetMapping
	List<RunnerView> runners() {
		return this.registry.runners().stream().map(this::view).toList();
	}

	@GetMapping("/{runnerId}")
	RunnerView runner(@PathVariable String runnerId) {
		return this.registry.runner(runnerId)
			.map(this::view)
			.orElseThrow(() -> new NotFoundException("no runner " + runnerId + " has sent a heartbeat"));
	}

	private RunnerView view(Runner runner) {
		return new RunnerView(runner.runnerId(), runner.hostname(), runner.runnerVersion(), runner.engines(),
				runner.deviceCount(), runner.activeJobIds(), runner.lastHeartbeatAt(), this.registry.isAlive(runner));
	}

}

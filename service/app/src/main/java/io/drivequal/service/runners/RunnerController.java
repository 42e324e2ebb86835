/*
 * /api/v1/runners: the fleet with each runner's liveness and drain state, and the admin's drain
 * and undrain (docs/operations.md, "Upgrading runners").
 */
package io.drivequal.service.runners;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.service.audit.Audited;
import io.drivequal.service.platform.NotFoundException;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/runners")
class RunnerController {

	private final RunnerRegistry registry;

	private final RunnerDrains drains;

	private final HeldJobs heldJobs;

	RunnerController(RunnerRegistry registry, RunnerDrains drains, HeldJobs heldJobs) {
		this.registry = registry;
		this.drains = drains;
		this.heldJobs = heldJobs;
	}

	/**
	 * @param state {@code active} (gets jobs), {@code draining} (drained by an admin,
	 * still holding jobs: they run to their end) or {@code drained} (holds none: safe to
	 * restart)
	 * @param heldJobIds the jobs the scheduler has given this runner and not yet seen end
	 */
	record RunnerView(String runnerId, String hostname, String runnerVersion, List<String> engines, int deviceCount,
			List<String> activeJobIds, Instant lastHeartbeatAt, boolean alive, String state, Instant drainRequestedAt,
			String drainRequestedBy, List<String> heldJobIds) {
	}

	@GetMapping
	List<RunnerView> runners() {
		Map<String, RunnerDrains.Drain> drained = this.drains.all();
		Map<String, List<String>> held = this.heldJobs.byRunner();
		return this.registry.runners()
			.stream()
			.map((runner) -> view(runner, Optional.ofNullable(drained.get(runner.runnerId())), held))
			.toList();
	}

	@GetMapping("/{runnerId}")
	RunnerView runner(@PathVariable String runnerId) {
		return view(known(runnerId), this.drains.of(runnerId), this.heldJobs.byRunner());
	}

	/**
	 * Admins only (the role rules): no new job goes to this runner; the jobs it holds run
	 * to their end. Idempotent. The state is draining while it holds jobs, then drained.
	 */
	@PostMapping("/{runnerId}/drain")
	@Audited("runner.drain")
	@ApiResponse(responseCode = "200", description = "the runner, draining or already drained")
	RunnerView drain(@PathVariable String runnerId, Authentication caller) {
		Runner runner = known(runnerId);
		return view(runner, Optional.of(this.drains.drain(runnerId, caller.getName())), this.heldJobs.byRunner());
	}

	/** Admins only: the runner gets jobs again. Idempotent. */
	@PostMapping("/{runnerId}/undrain")
	@Audited("runner.undrain")
	@ApiResponse(responseCode = "200", description = "the runner, active")
	RunnerView undrain(@PathVariable String runnerId) {
		Runner runner = known(runnerId);
		this.drains.undrain(runnerId);
		return view(runner, Optional.empty(), this.heldJobs.byRunner());
	}

	private Runner known(String runnerId) {
		return this.registry.runner(runnerId)
			.orElseThrow(() -> new NotFoundException("no runner " + runnerId + " has sent a heartbeat"));
	}

	private RunnerView view(Runner runner, Optional<RunnerDrains.Drain> drain, Map<String, List<String>> heldJobIds) {
		List<String> held = heldJobIds.getOrDefault(runner.runnerId(), List.of());
		String state = drain.isEmpty() ? "active"
				: (held.isEmpty() && runner.activeJobIds().isEmpty()) ? "drained" : "draining";
		return new RunnerView(runner.runnerId(), runner.hostname(), runner.runnerVersion(), runner.engines(),
				runner.deviceCount(), runner.activeJobIds(), runner.lastHeartbeatAt(), this.registry.isAlive(runner),
				state, drain.map(RunnerDrains.Drain::requestedAt).orElse(null),
				drain.map(RunnerDrains.Drain::requestedBy).orElse(null), held);
	}

}

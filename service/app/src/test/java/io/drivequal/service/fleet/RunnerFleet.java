/*
 * The drive hosts: real C agent processes (drivequal-runner agent), each owning its share of
 * paced simulated drives (the fluid model in real time), configured as a lab would configure them.
 */
package io.drivequal.service.fleet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

final class RunnerFleet implements AutoCloseable {

	private final List<Process> agents = new ArrayList<>();

	private final List<String> runnerIds = new ArrayList<>();

	/** Starts settings.runners() agents; runner i owns drives seeded i * 1000 + 1 ... */
	static RunnerFleet start(FleetSettings settings, String brokers, String run, Path dir) throws IOException {
		RunnerFleet fleet = new RunnerFleet();
		Path runner = settings.runner().toAbsolutePath();
		if (!Files.isExecutable(runner)) {
			throw new IllegalStateException(runner + " is not built (mvn -B verify -pl spdk-runner)");
		}
		for (int r = 0; r < settings.runners(); r++) {
			String runnerId = "fleet-" + run + "-" + r;
			StringBuilder devices = new StringBuilder();
			for (int d = 0; d < settings.drivesPerRunner(); d++) {
				String profile = settings.profiles()
					.get((r * settings.drivesPerRunner() + d) % settings.profiles().size());
				devices.append(devices.isEmpty() ? "" : ",\n    ")
					.append("{\"engine\":\"sim\",\"target\":\"sim:%s@%d\",\"options\":{\"sim_model\":\"fluid\",\"sim_time_scale\":1}}"
						.formatted(profile, r * 1000 + d + 1));
			}
			Path config = Files.writeString(dir.resolve(runnerId + ".json"), """
					{"runnerId":"%s","brokers":"%s","heartbeatIntervalMs":5000,
					 "devices":[
					    %s]}
					""".formatted(runnerId, brokers, devices));
			fleet.runnerIds.add(runnerId);
			fleet.agents.add(new ProcessBuilder(runner.toString(), "agent", "--config", config.toString())
				.redirectErrorStream(true)
				.redirectOutput(dir.resolve(runnerId + ".log").toFile())
				.start());
		}
		return fleet;
	}

	List<String> runnerIds() {
		return this.runnerIds;
	}

	List<Long> pids() {
		return this.agents.stream().filter(Process::isAlive).map(Process::pid).toList();
	}

	@Override
	public void close() throws InterruptedException {
		for (Process agent : this.agents) {
			agent.destroy();
		}
		for (Process agent : this.agents) {
			if (!agent.waitFor(60, TimeUnit.SECONDS)) {
				agent.destroyForcibly();
			}
		}
	}

}

/*
 * Starts the real C runner's agent as a process for integration tests, owning the given
 * simulated or null drives (all allowlisted), and stops what it started.
 */
package io.drivequal.service.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.drivequal.harness.RealInfrastructure;

public final class RunnerAgents implements AutoCloseable {

	private final List<Process> agents = new ArrayList<>();

	/**
	 * @param targets engine targets such as {@code sim:test-client-7pct@1} or
	 * {@code null:1g}
	 */
	public void start(String runnerId, List<String> targets) throws IOException {
		Path dir = Files.createDirectories(Path.of("target", "agents", runnerId));
		StringBuilder devices = new StringBuilder();
		StringBuilder allowed = new StringBuilder();
		for (String target : targets) {
			String engine = target.substring(0, target.indexOf(':'));
			devices.append(devices.isEmpty() ? "" : ",")
				.append("{\"engine\":\"%s\",\"target\":\"%s\"}".formatted(engine, target));
			allowed.append(allowed.isEmpty() ? "" : ",").append("{\"transportAddress\":\"%s\"}".formatted(target));
		}
		Path allowlist = Files.writeString(dir.resolve("allowlist.json"), "{\"devices\":[" + allowed + "]}");
		Path config = Files.writeString(dir.resolve("agent.json"), """
				{"runnerId":"%s","brokers":"%s","heartbeatIntervalMs":1000,"allowlist":"%s","devices":[%s]}
				""".formatted(runnerId, RealInfrastructure.shared().kafkaBootstrapServers(), allowlist.toAbsolutePath(),
				devices));
		Path runner = Path.of(System.getProperty("drivequal.runner.binary", "drivequal-runner"));
		if (!Files.isExecutable(runner)) {
			throw new IllegalStateException(
					"the C runner must be built before the service's integration tests: " + runner);
		}
		this.agents
			.add(new ProcessBuilder(runner.toString(), "agent", "--config", config.toString()).redirectErrorStream(true)
				.redirectOutput(dir.resolve("agent.log").toFile())
				.start());
	}

	@Override
	public void close() throws InterruptedException {
		for (Process agent : this.agents) {
			agent.destroy();
			agent.waitFor(30, TimeUnit.SECONDS);
		}
		this.agents.clear();
	}

}

/*
 * Starts the real C runner's agent (drivequal-runner agent) as a process for integration tests:
 * its own configuration and allowlist under target/agents/<runnerId>, its log next to them. Used
 * wherever a test needs the real runner rather than the Java stand-in: kills, broker restarts,
 * poison commands.
 */
package io.drivequal.service.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

public final class RunnerAgents {

	private RunnerAgents() {
	}

	/**
	 * @param targets engine targets such as {@code sim:test-enterprise-eager@1} or
	 * {@code null:1g}; each is allowlisted by its transport address
	 */
	public static Process start(String runnerId, String brokers, List<String> targets) throws IOException {
		Path dir = Files.createDirectories(Path.of("target", "agents", runnerId));
		StringBuilder devices = new StringBuilder();
		StringBuilder allowed = new StringBuilder();
		for (String target : targets) {
			String engine = target.substring(0, target.indexOf(':'));
			devices.append(devices.isEmpty() ? "" : ",")
				.append("{\"engine\":\"")
				.append(engine)
				.append("\",\"target\":\"")
				.append(target)
				.append("\"}");
			allowed.append(allowed.isEmpty() ? "" : ",")
				.append("{\"transportAddress\":\"")
				.append(target)
				.append("\"}");
		}
		Path allowlist = Files.writeString(dir.resolve("allowlist.json"), "{\"devices\":[" + allowed + "]}");
		Path config = Files.writeString(dir.resolve("agent.json"), """
				{"runnerId":"%s","brokers":"%s","heartbeatIntervalMs":1000,"allowlist":"%s","devices":[%s]}
				""".formatted(runnerId, brokers, allowlist.toAbsolutePath(), devices));
		Path runner = Path.of(System.getProperty("drivequal.runner.binary", "drivequal-runner"));
		assertThat(runner).as("the C runner must be built before the service's integration tests").isExecutable();
		return new ProcessBuilder(runner.toString(), "agent", "--config", config.toString()).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("agent.log").toFile()))
			.start();
	}

	/** SIGKILL: no goodbye, no flush, as when a host loses power. */
	public static void kill(Process agent) throws InterruptedException {
		agent.destroyForcibly();
		agent.waitFor();
	}

}

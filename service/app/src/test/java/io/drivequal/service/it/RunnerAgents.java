/*
 * Starts the real C runner's agent (drivequal-runner agent) as a process for integration tests:
 * its own configuration and allowlist under target/agents/<runnerId> (every target allowlisted by
 * its transport address), its log next to them. Used wherever a test needs the real runner rather
 * than the Java stand-in: reports, kills, broker restarts, poison commands. Either one process at
 * a time (static start/kill), or an instance that stops every agent it started when closed.
 */
package io.drivequal.service.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.drivequal.harness.RealInfrastructure;

import static org.assertj.core.api.Assertions.assertThat;

public final class RunnerAgents implements AutoCloseable {

	private final List<Process> agents = new ArrayList<>();

	/**
	 * Starts an agent on the shared broker, stopped by {@link #close()}.
	 * @param targets engine targets such as {@code sim:test-client-7pct@1} or
	 * {@code null:1g}
	 */
	public void start(String runnerId, List<String> targets) throws IOException {
		this.agents.add(start(runnerId, RealInfrastructure.shared().kafkaBootstrapServers(), targets));
	}

	/**
	 * As {@link #start(String, List)}, every device with the engine options
	 * {@code deviceOptions} (JSON, e.g. {@code {"sim_medium":1}}) and the process with
	 * extra environment variables (e.g. the test build's fault switch).
	 */
	public void start(String runnerId, List<String> targets, String deviceOptions, Map<String, String> environment)
			throws IOException {
		this.agents.add(start(runnerId, RealInfrastructure.shared().kafkaBootstrapServers(), targets, deviceOptions,
				environment, null));
	}

	/**
	 * As {@link #start(String, List)}, with more members of the agent's configuration.
	 * @param configMembers JSON members added to agent.json, e.g.
	 * {@code "healthPollIntervalS":1}
	 */
	public void start(String runnerId, List<String> targets, String configMembers) throws IOException {
		this.agents.add(start(runnerId, RealInfrastructure.shared().kafkaBootstrapServers(), targets, null, Map.of(),
				configMembers));
	}

	/**
	 * As {@link #start(String, List)}, the process started through {@code commandPrefix}
	 * (e.g. setpriv dropping CAP_SYS_ADMIN, as the Helm chart's default runner runs). A
	 * target that is a path ({@code /dev/loop0}) runs under the uring engine.
	 */
	public void startWith(List<String> commandPrefix, String runnerId, List<String> targets) throws IOException {
		this.agents.add(start(runnerId, RealInfrastructure.shared().kafkaBootstrapServers(), targets, null, Map.of(),
				null, commandPrefix));
	}

	@Override
	public void close() throws InterruptedException {
		for (Process agent : this.agents) {
			agent.destroy();
			agent.waitFor(30, TimeUnit.SECONDS);
		}
		this.agents.clear();
	}

	/**
	 * @param targets engine targets such as {@code sim:test-enterprise-eager@1} or
	 * {@code null:1g}; each is allowlisted by its transport address
	 */
	public static Process start(String runnerId, String brokers, List<String> targets) throws IOException {
		return start(runnerId, brokers, targets, null, Map.of(), null);
	}

	/**
	 * As {@link #start(String, String, List)}, every device with the engine options
	 * {@code deviceOptions} (JSON, e.g.
	 * {@code {"sim_model":"fluid","sim_time_scale":1}}): for tests that stop and start
	 * one runner themselves.
	 */
	public static Process start(String runnerId, String brokers, List<String> targets, String deviceOptions)
			throws IOException {
		return start(runnerId, brokers, targets, deviceOptions, Map.of(), null);
	}

	/**
	 * Rewrites a started agent's allowlist file (as a ConfigMap update would: a new file
	 * renamed over the old one), each target allowlisted by its transport address; the
	 * agent reloads it without a restart.
	 */
	public static void writeAllowlist(String runnerId, List<String> targets) throws IOException {
		StringBuilder allowed = new StringBuilder();
		for (String target : targets) {
			allowed.append(allowed.isEmpty() ? "" : ",")
				.append("{\"transportAddress\":\"%s\"}".formatted(deviceTarget(target)));
		}
		writeAllowlistText(runnerId, "{\"devices\":[" + allowed + "]}");
	}

	/** Rewrites a started agent's allowlist file with any text, well-formed or not. */
	public static void writeAllowlistText(String runnerId, String text) throws IOException {
		Path dir = Files.createDirectories(Path.of("target", "agents", runnerId));
		Path next = Files.writeString(dir.resolve("allowlist.json.next"), text);
		Files.move(next, dir.resolve("allowlist.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
				java.nio.file.StandardCopyOption.ATOMIC_MOVE);
	}

	private static Process start(String runnerId, String brokers, List<String> targets, String deviceOptions,
			Map<String, String> environment, String configMembers) throws IOException {
		return start(runnerId, brokers, targets, deviceOptions, environment, configMembers, List.of());
	}

	private static Process start(String runnerId, String brokers, List<String> targets, String deviceOptions,
			Map<String, String> environment, String configMembers, List<String> commandPrefix) throws IOException {
		Path dir = Files.createDirectories(Path.of("target", "agents", runnerId));
		StringBuilder devices = new StringBuilder();
		for (String target : targets) {
			String engine = target.startsWith("/") ? "uring" : target.substring(0, target.indexOf(':'));
			devices.append(devices.isEmpty() ? "" : ",")
				.append("{\"engine\":\"%s\",\"target\":\"%s\"%s}".formatted(engine, deviceTarget(target),
						(deviceOptions != null) ? ",\"options\":" + deviceOptions : ""));
		}
		writeAllowlist(runnerId, targets);
		Path allowlist = dir.resolve("allowlist.json");
		Path config = Files.writeString(dir.resolve("agent.json"), """
				{"runnerId":"%s","brokers":"%s","heartbeatIntervalMs":1000,"allowlist":"%s","devices":[%s]%s}
				""".formatted(runnerId, brokers, allowlist.toAbsolutePath(), devices,
				(configMembers != null) ? "," + configMembers : ""));
		Path runner = Path.of(System.getProperty("drivequal.runner.binary", "drivequal-runner"));
		assertThat(runner).as("the C runner must be built before the service's integration tests").isExecutable();
		List<String> command = new ArrayList<>(commandPrefix);
		command.addAll(List.of(runner.toString(), "agent", "--config", config.toString()));
		ProcessBuilder agent = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("agent.log").toFile()));
		agent.environment().putAll(environment);
		return agent.start();
	}

	/**
	 * The agent's device target of a test target: the sim and null engines take the whole
	 * string ({@code sim:test-client-7pct@1}), the uring engine the path after
	 * {@code uring:} (a file or block device, also its transport address).
	 */
	public static String deviceTarget(String target) {
		return target.startsWith("uring:") ? target.substring("uring:".length()) : target;
	}

	/** SIGKILL: no goodbye, no flush, as when a host loses power. */
	public static void kill(Process agent) throws InterruptedException {
		agent.destroyForcibly();
		agent.waitFor();
	}

}

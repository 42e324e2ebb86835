/*
 * One service replica as its own JVM (the production jar, production schedules), so replicas
 * share the work through their consumer groups exactly as pods would, and one can be killed.
 */
package io.drivequal.service.fleet;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;

import static org.awaitility.Awaitility.await;

final class ServiceReplica implements AutoCloseable {

	final String name;

	final int port;

	final Process process;

	final ApiClient api;

	private ServiceReplica(String name, int port, Process process) {
		this.name = name;
		this.port = port;
		this.process = process;
		this.api = new ApiClient("http://127.0.0.1:" + port);
	}

	static ServiceReplica start(String name, FleetSettings settings, RealInfrastructure infrastructure, Path dir)
			throws IOException {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		// A private copy: a rebuild of target/*.jar during the run would pull classes
		// from
		// under the running replica (seen: NoClassDefFoundError in the survivor of a
		// kill).
		Path jar = Files.copy(settings.serviceJar(), dir.resolve(name + ".jar"), StandardCopyOption.REPLACE_EXISTING);
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
						"-Xmx" + settings.serviceHeapMb() + "m"));
		if (!settings.replicaJvmArgs().isEmpty()) {
			command.addAll(List.of(settings.replicaJvmArgs().replace("{replica}", name).split("\\s+")));
		}
		command.addAll(List.of("-jar", jar.toAbsolutePath().toString(), "--server.port=" + port,
				"--server.address=127.0.0.1",
				"--spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
				"--drivequal.elasticsearch.url=" + infrastructure.elasticsearchUrl(), "--drivequal.security.mode=local",
				"--drivequal.security.users[0].name=viewer", "--drivequal.security.users[0].password={noop}viewer-pw",
				"--drivequal.security.users[0].roles=VIEWER", "--drivequal.security.users[1].name=alice",
				"--drivequal.security.users[1].password={noop}alice-pw",
				"--drivequal.security.users[1].roles=SUBMITTER", "--drivequal.security.users[2].name=admin",
				"--drivequal.security.users[2].password={noop}admin-pw", "--drivequal.security.users[2].roles=ADMIN",
				"--logging.level.root=WARN", "--logging.level.io.drivequal=WARN"));
		if (!settings.serviceArgs().isEmpty()) {
			command.addAll(List.of(settings.serviceArgs().split("\\s+")));
		}
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(dir.resolve(name + ".log").toFile())
			.start();
		return new ServiceReplica(name, port, process);
	}

	void awaitHealthy(int timeoutS) {
		await().atMost(Duration.ofSeconds(timeoutS))
			.pollInterval(Duration.ofSeconds(1))
			.ignoreExceptions()
			.until(() -> {
				if (!this.process.isAlive()) {
					throw new IllegalStateException(this.name + " exited; see its log");
				}
				return this.api.request(null, "GET", "/actuator/health", null).status() == 200;
			});
	}

	long pid() {
		return this.process.pid();
	}

	/** SIGKILL: no shutdown hook, no offset commit, no goodbye to the consumer group. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor();
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(60, TimeUnit.SECONDS)) {
			kill();
		}
	}

}

/*
 * The packaged service started as a process of its own, for the tests that kill it (SIGKILL) or
 * run two replicas: a private copy of the jar, the command line that points it at the harness's
 * Kafka and Elasticsearch with local users, a free port, and the wait until it is healthy.
 */
package io.drivequal.service.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.drivequal.harness.RealInfrastructure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

public final class ServiceJar {

	private ServiceJar() {
	}

	/**
	 * A private copy of the packaged jar in {@code dir}: a rebuild of target/*.jar must
	 * not pull classes from under running processes.
	 */
	public static Path copy(Path dir) throws IOException {
		Path built = Path.of(System.getProperty("drivequal.service.jar"));
		assertThat(built).as("the packaged service jar").exists();
		return Files.copy(built, dir.resolve("service.jar"), StandardCopyOption.REPLACE_EXISTING);
	}

	/**
	 * Starts the service from {@code jar} on 127.0.0.1:{@code port}, security local with
	 * {@code users} (each "name:ROLE", password name + "-pw"), output to {@code log}.
	 * @param properties further {@code --name=value} arguments
	 */
	public static Process start(Path jar, int port, RealInfrastructure infrastructure, Path log, List<String> users,
			List<String> properties) throws IOException {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-jar",
						jar.toString(), "--server.port=" + port, "--server.address=127.0.0.1",
						"--spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
						"--drivequal.elasticsearch.url=" + infrastructure.elasticsearchUrl(),
						"--drivequal.security.mode=local"));
		for (int i = 0; i < users.size(); i++) {
			String name = users.get(i).substring(0, users.get(i).indexOf(':'));
			String role = users.get(i).substring(users.get(i).indexOf(':') + 1);
			command.addAll(List.of("--drivequal.security.users[" + i + "].name=" + name,
					"--drivequal.security.users[" + i + "].password={noop}" + name + "-pw",
					"--drivequal.security.users[" + i + "].roles=" + role));
		}
		command.addAll(properties);
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	/**
	 * Within the harness's start bound: a service starts as slowly as the machine is
	 * busy.
	 */
	public static void awaitHealthy(ApiClient api) {
		await().atMost(Duration.ofSeconds(Math.max(180, Long.getLong("drivequal.it.startTimeoutS", 180))))
			.pollInterval(Duration.ofMillis(250))
			.ignoreExceptions()
			.until(() -> api.request(null, "GET", "/actuator/health", null).status() == 200);
	}

	public static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}

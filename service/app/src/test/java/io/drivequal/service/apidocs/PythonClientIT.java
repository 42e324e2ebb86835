/*
 * The typed Python client, built from the committed OpenAPI document by service/python-client/build (the
 * pinned generator, a wheel, a venv with the pinned test tools), runs its pytest suite against
 * this service on the real stack: Kafka, Elasticsearch and the C runner's agent owning a simulated
 * drive, which runs the submitted job. The suite's output is kept in
 * target/python-client/pytest.log.
 */
package io.drivequal.service.apidocs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.WithRealInfrastructure;
import io.drivequal.service.it.RunnerAgents;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PythonClientIT {

	private static final Path OUT = Path.of("target", "python-client").toAbsolutePath();

	@LocalServerPort
	private int port;

	@Test
	void theGeneratedClientSubmitsPollsToTheVerdictAndExportsSamplesOnTheRealStack() throws Exception {
		Path client = Path.of(System.getProperty("drivequal.python.client", "../python-client"))
			.toAbsolutePath()
			.normalize();
		Files.createDirectories(OUT);
		run(List.of("bash", client.resolve("build").toString(), OUT.toString()), client, OUT.resolve("build.log"),
				List.of());

		String runnerId = "py-" + UUID.randomUUID().toString().substring(0, 8);
		try (RunnerAgents agents = new RunnerAgents()) {
			// A seed no other test uses: the drive's serial follows from it,
			// and one serial is one drive to the service.
			agents.start(runnerId, List.of("sim:test-enterprise-eager@31"));
			ApiClient api = new ApiClient("http://127.0.0.1:" + this.port);
			String serial = api.awaitDriveSerial(runnerId);
			Path log = OUT.resolve("pytest.log");
			int status = run(
					List.of(OUT.resolve("test-venv/bin/python").toString(), "-m", "pytest", "-v", "-s", "-p",
							"no:cacheprovider", client.resolve("tests").toString()),
					client, log,
					List.of("DRIVEQUAL_URL=http://127.0.0.1:" + this.port, "DRIVEQUAL_SUBMITTER=alice:alice-pw",
							"DRIVEQUAL_VIEWER=viewer:viewer-pw", "DRIVEQUAL_SERIAL=" + serial,
							"DRIVEQUAL_RUNNER=" + runnerId));
			String output = Files.readString(log);
			System.out.println(output);
			assertThat(status).as("pytest of the generated client (output above and in " + log + ")").isZero();
			// Every test of the suite ran and passed: none skipped, none left
			// uncollected.
			long tests;
			try (var lines = Files.lines(client.resolve("tests").resolve("test_client.py"))) {
				tests = lines.filter((line) -> line.startsWith("def test_")).count();
			}
			assertThat(tests).isPositive();
			assertThat(output).contains(tests + " passed in ").doesNotContain("skipped");
		}
	}

	/** Runs a command to its end, output to {@code log}; returns its exit status. */
	private static int run(List<String> command, Path dir, Path log, List<String> environment)
			throws IOException, InterruptedException {
		ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile());
		for (String variable : environment) {
			builder.environment()
				.put(variable.substring(0, variable.indexOf('=')), variable.substring(variable.indexOf('=') + 1));
		}
		Process process = builder.start();
		if (!process.waitFor(15, TimeUnit.MINUTES)) {
			process.destroyForcibly();
			throw new IllegalStateException(command.get(0) + " did not finish within 15 minutes; see " + log);
		}
		if (command.get(0).equals("bash") && process.exitValue() != 0) {
			throw new IllegalStateException("building the Python client failed:\n" + Files.readString(log));
		}
		return process.exitValue();
	}

}

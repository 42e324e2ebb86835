/*
 * Fault suite, item 6: schemathesis (from PyPI, pinned, in a venv the suite script creates under
 * target/) generates requests from the service's own OpenAPI document and sends them as an admin,
 * so they reach the handlers. No response may be a 5xx or break the documented response schema,
 * and a run must send at least 1000 requests. The drive it may submit to is a real inventory entry
 * (a stand-in runner's heartbeat), so valid submissions exist among the generated ones.
 */
package io.drivequal.service.qualification;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.apidocs.ContractFuzzIT;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.FaultFigures;
import io.drivequal.service.it.RunnerStandIn;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("fault-suite")
@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ApiFuzzIT {

	private static final int MIN_REQUESTS = 1000;

	@LocalServerPort
	private int port;

	@Test
	void generatedRequestsNeverGetA5xxNorAResponseThatBreaksTheDocumentedSchema() throws Exception {
		Path venv = Path.of(System.getProperty("drivequal.fault.venv", "target/fault-suite/venv"));
		Path schemathesis = venv.resolve("bin/schemathesis");
		assertThat(schemathesis).as("schemathesis, installed by service/bin/drivequal-fault-suite").isExecutable();
		Path dir = Files
			.createDirectories(Path.of(System.getProperty("drivequal.fault.dir", "target/fault-suite"), "fuzz"));
		String base = "http://127.0.0.1:" + this.port;
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"fuzz-runner")) {
			try (var old = Files.list(dir)) {
				for (Path file : old.filter(Files::isRegularFile).toList()) {
					Files.delete(file);
				}
			}
			runner.heartbeat(List.of("FUZZ-0001"));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> new ApiClient(base).get("viewer", "/api/v1/drives/FUZZ-0001").status() == 200);
			List<String> command = new ArrayList<>(List.of(schemathesis.toString(), "--no-color", "run",
					base + "/v3/api-docs", "--continue-on-failure", "--auth", "admin:admin-pw", "--checks",
					"not_a_server_error,response_schema_conformance", "--phases", "examples,coverage,fuzzing",
					"--max-examples", System.getProperty("drivequal.fault.fuzzExamples", "60"), "--seed", "20261122",
					"--request-timeout", "10", "--report", "har,junit", "--report-dir", dir.toString()));
			// Run in the report directory: schemathesis keeps its example database in
			// the working directory.
			Process process = new ProcessBuilder(command).directory(dir.toFile())
				.redirectErrorStream(true)
				.redirectOutput(dir.resolve("schemathesis.log").toFile())
				.start();
			assertThat(process.waitFor(20, TimeUnit.MINUTES)).as("schemathesis finished").isTrue();
			String log = Files.readString(dir.resolve("schemathesis.log"));
			List<Integer> statuses = ContractFuzzIT.statuses(dir);
			long serverErrors = statuses.stream().filter((status) -> status >= 500).count();
			long schemaFailures = failuresOf(log, "Response violates schema");
			FaultFigures figures = FaultFigures.item("6", "API fuzzing from the OpenAPI document")
				.put("tool", "schemathesis " + version(venv))
				.put("requests", statuses.size())
				.put("responses5xx", serverErrors)
				.put("schemaViolations", schemaFailures)
				.put("exitCode", process.exitValue())
				.put("summary", summary(log));
			System.out.println(log);
			assertThat(statuses.size()).as("requests sent").isGreaterThanOrEqualTo(MIN_REQUESTS);
			assertThat(serverErrors).as("5xx responses (see " + dir + ")").isZero();
			assertThat(process.exitValue()).as("schemathesis found failures; see " + dir.resolve("schemathesis.log"))
				.isZero();
			figures.put("passed", true).write();
		}
	}

	private static long failuresOf(String log, String title) {
		return log.lines().filter((line) -> line.contains(title)).count();
	}

	private static String summary(String log) {
		Matcher matcher = Pattern.compile("(?s)(SUMMARY.*)").matcher(log);
		return matcher.find() ? matcher.group(1).strip() : log.lines().reduce("", (a, b) -> b);
	}

	private static String version(Path venv) throws Exception {
		Process process = new ProcessBuilder(venv.resolve("bin/schemathesis").toString(), "--version").start();
		String out = new String(process.getInputStream().readAllBytes()).strip();
		process.waitFor();
		return out.replaceAll("[^0-9.]", "");
	}

}

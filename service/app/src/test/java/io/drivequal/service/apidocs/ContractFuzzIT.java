/*
 * The API answers as docs/openapi.json says it does: schemathesis (pinned, from PyPI, in a venv
 * under target/) reads the committed document and runs every operation against this service on
 * the real Kafka and Elasticsearch — examples, coverage, fuzzing and stateful sequences along the
 * document's links — with every check, once per role (admin, submitter, viewer), from a fixed seed.
 * Any undocumented status or content type, any response that breaks its schema, any request the
 * document admits but the service refuses (or the reverse) and any 5xx fails the build. The
 * settings, and why each differs from schemathesis's defaults, are in
 * src/test/contract/schemathesis.toml; logs and reports in target/contract-fuzz/.
 */
package io.drivequal.service.apidocs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerStandIn;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public class ContractFuzzIT {

	/** The drive the document's example submission names (see ApiExamples). */
	static final String SERIAL = "CONTRACT-0001";

	private static final Path CONTRACT = Path.of("src", "test", "contract").toAbsolutePath();

	private static final Path OUT = Path.of("target", "contract-fuzz").toAbsolutePath();

	/** Fixed, so a red run is reproducible: run the logged command again. */
	private static final String SEED = "20261128";

	/**
	 * Each role sees the API differently (403s, what an admin may do beyond a submitter):
	 * the admin run covers every phase; the others run the examples and a few fuzzed
	 * cases, which is where a role's refusals show.
	 */
	private record Role(String name, String credentials, String phases, int maxExamples) {
	}

	private static final List<Role> ROLES = List.of(
			new Role("admin", "admin:admin-pw", "examples,coverage,fuzzing,stateful", 25),
			new Role("submitter", "alice:alice-pw", "examples,fuzzing", 5),
			new Role("viewer", "viewer:viewer-pw", "examples,fuzzing", 5));

	@LocalServerPort
	private int port;

	@Test
	void everyOperationAnswersAsTheCommittedDocumentSaysForEveryRole() throws Exception {
		Files.createDirectories(OUT);
		Path venv = OUT.resolve("venv");
		String version = run(List.of("bash", CONTRACT.resolve("install").toString(), venv.toString()), OUT,
				OUT.resolve("install.log"));
		String base = "http://127.0.0.1:" + this.port;
		ApiClient api = new ApiClient(base);
		List<String> failed = new ArrayList<>();
		StringBuilder summaries = new StringBuilder();
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"contract-runner")) {
			runner.heartbeat(List.of(SERIAL));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> api.get("viewer", "/api/v1/drives/" + SERIAL).status() == 200);
			Set<String> subscriptionsBefore = subscriptions(api);
			try {
				for (Role role : ROLES) {
					fuzz(role, venv, version, base, failed, summaries);
				}
			}
			finally {
				cleanUp(api, subscriptionsBefore);
			}
		}
		Files.writeString(OUT.resolve("summary.txt"), summaries);
		System.out.print(summaries);
		assertThat(failed)
			.as("schemathesis runs with failures or server errors; the command.txt beside each "
					+ "log replays its run")
			.isEmpty();
	}

	/**
	 * One role's run; its summary line goes to {@code summaries}, a failure to
	 * {@code failed}.
	 */
	private static void fuzz(Role role, Path venv, String version, String base, List<String> failed,
			StringBuilder summaries) throws IOException, InterruptedException {
		Path document = OpenApiDocumentIT.committed().toAbsolutePath().normalize();
		Path dir = OUT.resolve(role.name());
		clean(dir);
		List<String> command = List.of(venv.resolve("bin/schemathesis").toString(), "--no-color", "--config-file",
				CONTRACT.resolve("schemathesis.toml").toString(), "run", document.toString(), "--url", base, "--auth",
				role.credentials(), "--checks", "all", "--phases", role.phases(), "--max-examples",
				String.valueOf(role.maxExamples()), "--seed", SEED, "--workers", "1", "--continue-on-failure",
				"--request-timeout", "30", "--report", "har,junit", "--report-dir", dir.toString());
		// The service's port changes from run to run; the rest replays the run as it was.
		Files.writeString(dir.resolve("command.txt"), String.join(" ", command) + "\n");
		long started = System.nanoTime();
		// Run in the role's directory: schemathesis keeps its example database in the
		// working directory.
		Process process = new ProcessBuilder(command).directory(dir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(dir.resolve("schemathesis.log").toFile())
			.start();
		if (!process.waitFor(20, TimeUnit.MINUTES)) {
			process.destroyForcibly();
			throw new IllegalStateException("schemathesis did not finish; see " + dir);
		}
		long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
		String log = Files.readString(dir.resolve("schemathesis.log"));
		List<Integer> statuses = statuses(dir);
		long serverErrors = statuses.stream().filter((status) -> status >= 500).count();
		String line = "contract fuzzer (schemathesis " + version + ", seed " + SEED + ") as " + role.name() + ": "
				+ operations(log) + " operations, " + statuses.size() + " requests, " + failures(log) + " failures, "
				+ serverErrors + " server errors, exit " + process.exitValue() + ", " + seconds + " s";
		System.out.println(log);
		System.out.println(line);
		summaries.append(line).append('\n');
		if (process.exitValue() != 0 || serverErrors > 0) {
			failed.add(role.name() + " (" + dir.resolve("schemathesis.log") + ")");
		}
	}

	/**
	 * What the runs created must not outlive them: later tests in this JVM share the
	 * service. Jobs of the fuzzer's drive that are not final are cancelled, new
	 * subscriptions deleted (one with scope "all" would take every later job's events).
	 */
	private static void cleanUp(ApiClient api, Set<String> subscriptionsBefore) {
		for (String id : subscriptions(api)) {
			if (!subscriptionsBefore.contains(id)) {
				api.request("admin", "DELETE", "/api/v1/webhooks/" + id, null);
			}
		}
		for (String state : List.of("QUEUED", "DISPATCHED", "RUNNING")) {
			for (JsonNode job : api.get("admin", "/api/v1/qualifications?size=100&state=" + state + "&serial=" + SERIAL)
				.body()
				.path("items")) {
				api.post("admin", "/api/v1/qualifications/" + job.get("id").asString() + "/cancel", "{}");
			}
		}
	}

	private static Set<String> subscriptions(ApiClient api) {
		Set<String> ids = new HashSet<>();
		for (JsonNode subscription : api.get("admin", "/api/v1/webhooks").body()) {
			ids.add(subscription.get("id").asString());
		}
		return ids;
	}

	/** "N" of schemathesis's "Tested: N" (operations). */
	private static String operations(String log) {
		Matcher matcher = Pattern.compile("Tested:\\s+(\\d+)").matcher(log);
		return matcher.find() ? matcher.group(1) : "?";
	}

	/** The number of distinct failures schemathesis reports, 0 when it reports none. */
	private static String failures(String log) {
		Matcher matcher = Pattern.compile("(\\d+) (?:distinct )?failures?").matcher(log);
		String count = "0";
		while (matcher.find()) {
			count = matcher.group(1);
		}
		return count;
	}

	/**
	 * Every response status in the HAR files schemathesis wrote (the fault suite's fuzzer
	 * reads them too).
	 */
	public static List<Integer> statuses(Path dir) throws IOException {
		List<Integer> statuses = new ArrayList<>();
		JsonMapper json = JsonMapper.builder().build();
		try (var files = Files.list(dir)) {
			for (Path har : files.filter((f) -> f.getFileName().toString().startsWith("har-")).toList()) {
				for (JsonNode entry : json.readTree(har.toFile()).path("log").path("entries")) {
					statuses.add(entry.path("response").path("status").asInt());
				}
			}
		}
		return statuses;
	}

	private static void clean(Path dir) throws IOException {
		Files.createDirectories(dir);
		try (var old = Files.list(dir)) {
			for (Path file : old.filter(Files::isRegularFile).toList()) {
				Files.delete(file);
			}
		}
	}

	/**
	 * Runs a command to its end, output to {@code log}; returns its output's last line.
	 */
	private static String run(List<String> command, Path dir, Path log) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).directory(dir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		if (!process.waitFor(15, TimeUnit.MINUTES)) {
			process.destroyForcibly();
			throw new IllegalStateException(command.get(0) + " did not finish within 15 minutes; see " + log);
		}
		String output = Files.readString(log);
		if (process.exitValue() != 0) {
			throw new IllegalStateException("installing schemathesis failed:\n" + output);
		}
		return output.strip().lines().reduce("", (a, b) -> b).replaceAll("[^0-9.]", "");
	}

}

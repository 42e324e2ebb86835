/*
 * service/bin/drivequal-kibana-import against a stand-in for Kibana: a small HTTP server in this
 * test that records the request and answers as Kibana 8.x's saved objects import API does.
 * Kibana itself is in no registry reachable from the build machines, so the stand-in proves the
 * request (path, query, kbn-xsrf, authentication, the multipart file) and the command's handling
 * of Kibana's answers, not Kibana's acceptance of the objects.
 */
package io.drivequal.schemas;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

class KibanaImportCommandTest {

	/** Surefire runs in schemas/. */
	private static final Path COMMAND = Path.of("../service/bin/drivequal-kibana-import").toAbsolutePath().normalize();

	private final Contracts contracts = Contracts.load();

	private final String ndjson = Contracts.resource(Contracts.KIBANA_SAVED_OBJECTS);

	private final List<Recorded> requests = new CopyOnWriteArrayList<>();

	private HttpServer kibana;

	private volatile int status = 200;

	private volatile String answer;

	private boolean running;

	@TempDir
	Path dir;

	record Recorded(String method, String path, String query, Map<String, List<String>> headers, String body) {

		String header(String name) {
			return this.headers.entrySet()
				.stream()
				.filter((entry) -> entry.getKey().equalsIgnoreCase(name))
				.map((entry) -> entry.getValue().get(0))
				.findFirst()
				.orElse(null);
		}

	}

	record Run(int exitCode, String stdout, String stderr) {
	}

	@BeforeEach
	void startStandIn() throws IOException {
		this.answer = successfulAnswer();
		this.kibana = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.kibana.createContext("/", (exchange) -> {
			byte[] body = exchange.getRequestBody().readAllBytes();
			this.requests.add(new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
					exchange.getRequestURI().getQuery(), Map.copyOf(exchange.getRequestHeaders()),
					new String(body, StandardCharsets.UTF_8)));
			byte[] response = this.answer.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(this.status, response.length);
			exchange.getResponseBody().write(response);
			exchange.close();
		});
		this.kibana.start();
		this.running = true;
	}

	@AfterEach
	void stopStandIn() {
		if (this.running) {
			this.kibana.stop(0);
		}
	}

	@Test
	void postsTheSavedObjectsWithAnApiKeyFromAFileAndPrintsWhatWasImported() throws Exception {
		String apiKey = "a2V5LWlkOnNlY3JldC1mcm9tLXRlc3Q=";
		Path keyFile = secretFile("kibana-api-key", apiKey + "\n");

		Run run = run(Map.of("KIBANA_API_KEY_FILE", keyFile.toString()));

		assertThat(run.exitCode()).as(run.stderr()).isZero();
		assertThat(this.requests).hasSize(1);
		Recorded request = this.requests.get(0);
		assertThat(request.method()).isEqualTo("POST");
		assertThat(request.path()).isEqualTo("/api/saved_objects/_import");
		assertThat(request.query()).isEqualTo("overwrite=true");
		assertThat(request.header("kbn-xsrf")).isNotBlank();
		assertThat(request.header("Authorization")).isEqualTo("ApiKey " + apiKey);
		assertThat(request.header("Content-Type")).startsWith("multipart/form-data; boundary=");
		assertThat(request.body()).contains("Content-Disposition: form-data; name=\"file\"; "
				+ "filename=\"drivequal-saved-objects.ndjson\"\r\nContent-Type: application/ndjson\r\n\r\n"
				+ this.ndjson + "\r\n--");
		int objects = (int) this.ndjson.lines().count();
		assertThat(run.stdout()).contains("Kibana imported " + objects + " of " + objects + " saved objects")
			.contains("  dashboard drivequal-drive-qualification")
			.contains("  index-pattern drivequal-samples")
			.contains("  visualization drivequal-iops-over-time");
		assertThat(run.stdout() + run.stderr()).doesNotContain(apiKey);
	}

	@Test
	void basicAuthenticationAndASpace() throws Exception {
		Path passwordFile = secretFile("kibana-password", "pa:ss wörd\n");

		Run run = run(Map.of("KIBANA_USERNAME", "drivequal-importer", "KIBANA_PASSWORD_FILE", passwordFile.toString(),
				"KIBANA_SPACE", "qualification"));

		assertThat(run.exitCode()).as(run.stderr()).isZero();
		Recorded request = this.requests.get(0);
		assertThat(request.path()).isEqualTo("/s/qualification/api/saved_objects/_import");
		assertThat(request.header("Authorization")).isEqualTo("Basic "
				+ Base64.getEncoder().encodeToString("drivequal-importer:pa:ss wörd".getBytes(StandardCharsets.UTF_8)));
		assertThat(run.stdout()).contains("(user drivequal-importer)").doesNotContain("pa:ss");
	}

	@Test
	void aPartialImportFailsWithKibanasErrors() throws Exception {
		this.answer = """
				{"success":false,"successCount":17,"successResults":[],"errors":[{"id":"drivequal-waf-table",\
				"type":"lens","title":"Write amplification per drive","meta":{"title":"Write amplification per drive"},\
				"error":{"type":"missing_references","references":[{"type":"index-pattern","id":"drivequal-phase-results"}]}}]}""";

		Run run = run(Map.of("KIBANA_API_KEY", "a2V5"));

		assertThat(run.exitCode()).isEqualTo(1);
		assertThat(run.stderr()).contains("Kibana refused the import").contains("missing_references");
	}

	@Test
	void anHttpErrorFailsWithKibanasAnswer() throws Exception {
		this.status = 401;
		this.answer = "{\"statusCode\":401,\"error\":\"Unauthorized\",\"message\":\"[security_exception] unable to authenticate with provided credentials\"}";

		Run run = run(Map.of("KIBANA_API_KEY", "d3Jvbmc="));

		assertThat(run.exitCode()).isEqualTo(1);
		assertThat(run.stderr()).contains("Kibana answered HTTP 401").contains("unable to authenticate");
	}

	@Test
	void noKibanaIsAClearFailure() throws Exception {
		int port = this.kibana.getAddress().getPort();
		this.kibana.stop(0);
		this.running = false;

		Run run = run(Map.of("KIBANA_URL", "http://127.0.0.1:" + port));

		assertThat(run.exitCode()).isEqualTo(1);
		assertThat(run.stderr()).contains("no answer from http://127.0.0.1:" + port + "/api/saved_objects/_import");
	}

	@Test
	void misconfigurationsAreRefusedBeforeAnyRequest() throws Exception {
		assertThat(runWithout("KIBANA_URL").stderr()).contains("KIBANA_URL is not set");
		assertThat(run(Map.of("KIBANA_URL", "kibana:5601")).stderr()).contains("must start with http");
		assertThat(run(Map.of("KIBANA_USERNAME", "u")).stderr()).contains("KIBANA_PASSWORD(_FILE) is not");
		assertThat(run(Map.of("KIBANA_API_KEY_FILE", this.dir.resolve("absent").toString())).stderr())
			.contains("KIBANA_API_KEY_FILE: cannot read");
		assertThat(run(Map.of("KIBANA_API_KEY", "k", "KIBANA_API_KEY_FILE", secretFile("k", "k").toString())).stderr())
			.contains("not both");
		assertThat(run(Map.of("KIBANA_API_KEY", "k", "KIBANA_USERNAME", "u", "KIBANA_PASSWORD", "p")).stderr())
			.contains("not both");
		assertThat(run(Map.of("KIBANA_API_KEY", "k")).exitCode()).isZero();
		assertThat(run(Map.of("KIBANA_URL", "kibana:5601")).exitCode()).isEqualTo(2);
		assertThat(this.requests).hasSize(1);
	}

	private String successfulAnswer() {
		ObjectNode answer = this.contracts.mapper().createObjectNode();
		answer.put("success", true);
		ArrayNode results = answer.putArray("successResults");
		int count = 0;
		for (String line : this.ndjson.strip().split("\n")) {
			JsonNode object = this.contracts.mapper().readTree(line);
			ObjectNode result = results.addObject();
			result.put("type", object.path("type").asString());
			result.put("id", object.path("id").asString());
			result.putObject("meta").put("title", object.path("attributes").path("title").asString());
			result.put("overwrite", true);
			count++;
		}
		answer.put("successCount", count);
		return this.contracts.mapper().writeValueAsString(answer);
	}

	private Path secretFile(String name, String content) throws IOException {
		Path file = this.dir.resolve(name);
		Files.writeString(file, content);
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
		return file;
	}

	private Run run(Map<String, String> environment) throws Exception {
		return run(environment, null);
	}

	private Run runWithout(String variable) throws Exception {
		return run(Map.of(), variable);
	}

	private Run run(Map<String, String> environment, String without) throws Exception {
		List<String> command = new ArrayList<>(List.of(COMMAND.toString()));
		ProcessBuilder builder = new ProcessBuilder(command);
		Map<String, String> env = builder.environment();
		env.keySet().removeIf((name) -> name.startsWith("KIBANA_"));
		env.put("KIBANA_URL", "http://127.0.0.1:" + this.kibana.getAddress().getPort());
		env.put("KIBANA_IMPORT_RETRIES", "0");
		env.putAll(environment);
		if (without != null) {
			env.remove(without);
		}
		builder.redirectOutput(this.dir.resolve("stdout").toFile()).redirectError(this.dir.resolve("stderr").toFile());
		Process process = builder.start();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the command finished").isTrue();
		return new Run(process.exitValue(), Files.readString(this.dir.resolve("stdout")),
				Files.readString(this.dir.resolve("stderr")));
	}

}

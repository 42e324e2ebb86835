/*
 * The Helm chart's setup Job runs the packaged service with the "setup" profile: it must put the
 * index templates in place (the sample indices with the operator's shards and replicas), exit 0
 * when Kafka and Elasticsearch answer, and exit non-zero (so the Job retries) when the topics
 * cannot be created.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.schemas.Contracts;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class SetupModeIT {

	/**
	 * A template whose index already exists, so deleting it for a moment disturbs nobody.
	 */
	private static final String TEMPLATE = "drivequal-drive-leases";

	@Test
	void setupModeInstallsTheTemplatesAndExitsZero() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String elasticsearch = infrastructure.elasticsearchUrl();
		HttpClient http = HttpClient.newHttpClient();
		// The template exists once any test's service started; else a first run makes it.
		// Then it is removed: the setup run must put it back.
		if (templateStatus(http, elasticsearch) != 200) {
			Process first = setupRun(infrastructure.kafkaBootstrapServers(), elasticsearch, "setup-0.log");
			assertThat(first.waitFor(240, TimeUnit.SECONDS)).as("the setup run ends").isTrue();
			assertThat(first.exitValue()).isZero();
			assertThat(templateStatus(http, elasticsearch)).isEqualTo(200);
		}
		http.send(HttpRequest.newBuilder(URI.create(elasticsearch + "/_index_template/" + TEMPLATE)).DELETE().build(),
				HttpResponse.BodyHandlers.discarding());
		assertThat(templateStatus(http, elasticsearch)).isEqualTo(404);

		// With the operator's sample index shape, as a lab of thousands of drives sets
		// it.
		Process second = setupRun(infrastructure.kafkaBootstrapServers(), elasticsearch, "setup-1.log",
				"--drivequal.elasticsearch.samples.shards=3", "--drivequal.elasticsearch.samples.replicas=0");
		assertThat(second.waitFor(240, TimeUnit.SECONDS)).as("the setup run ends").isTrue();
		assertThat(second.exitValue()).isZero();
		assertThat(templateStatus(http, elasticsearch)).isEqualTo(200);
		assertThat(Files.readString(logs().resolve("setup-1.log"))).contains("Setup done")
			.doesNotContain("partitions assigned");
		Contracts contracts = Contracts.load();
		String samplesTemplate = elasticsearch + "/_index_template/" + IndexTemplateInstaller.SAMPLES_TEMPLATE;
		try {
			JsonNode installed = contracts.mapper()
				.readTree(http
					.send(HttpRequest.newBuilder(URI.create(samplesTemplate)).GET().build(),
							HttpResponse.BodyHandlers.ofString())
					.body())
				.get("index_templates")
				.get(0)
				.get("index_template");
			assertThat(installed.get("template").get("settings").get("index").get("number_of_shards").asString())
				.isEqualTo("3");
			assertThat(installed.get("template").get("mappings").get("dynamic").asString()).isEqualTo("strict");
		}
		finally {
			// Back to the contract's shape for the other tests' indices.
			http.send(HttpRequest.newBuilder(URI.create(samplesTemplate))
				.header("Content-Type", "application/json")
				.PUT(HttpRequest.BodyPublishers
					.ofString(contracts.indexTemplate(IndexTemplateInstaller.SAMPLES_TEMPLATE)))
				.build(), HttpResponse.BodyHandlers.discarding());
		}
	}

	/**
	 * An index made by an older release (here: a sample index whose strict mapping lacks
	 * the newest field) gets the fields this release added, so its documents are not
	 * refused after an upgrade.
	 */
	@Test
	void setupAddsNewFieldsToIndicesAnOlderReleaseMade() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String elasticsearch = infrastructure.elasticsearchUrl();
		HttpClient http = HttpClient.newHttpClient();
		Contracts contracts = Contracts.load();
		String index = "drivequal-samples-1999.01";
		tools.jackson.databind.node.ObjectNode older = (tools.jackson.databind.node.ObjectNode) contracts.mapper()
			.readTree(contracts.indexTemplate(IndexTemplateInstaller.SAMPLES_TEMPLATE));
		tools.jackson.databind.node.ObjectNode properties = (tools.jackson.databind.node.ObjectNode) older
			.get("template")
			.get("mappings")
			.get("properties");
		List<String> names = new ArrayList<>(properties.propertyNames());
		String newest = names.get(names.size() - 1);
		properties.remove(newest);
		older.putArray("index_patterns").add(index);
		older.put("priority", 500);
		String olderTemplate = elasticsearch + "/_index_template/it-older-release";
		assertThat(send(http, "PUT", olderTemplate, older.toString())).isEqualTo(200);
		try {
			assertThat(send(http, "PUT", elasticsearch + "/" + index, "{}")).isEqualTo(200);
			assertThat(send(http, "DELETE", olderTemplate, null)).isEqualTo(200);
			assertThat(mappedFields(http, contracts, elasticsearch, index)).doesNotContain(newest);

			Process run = setupRun(infrastructure.kafkaBootstrapServers(), elasticsearch, "setup-upgrade.log");
			assertThat(run.waitFor(240, TimeUnit.SECONDS)).as("the setup run ends").isTrue();
			assertThat(run.exitValue()).isZero();
			assertThat(mappedFields(http, contracts, elasticsearch, index)).contains(newest)
				.containsExactlyInAnyOrderElementsOf(names);
		}
		finally {
			send(http, "DELETE", olderTemplate, null);
			send(http, "DELETE", elasticsearch + "/" + index, null);
		}
	}

	private static int send(HttpClient http, String method, String url, String body) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
			.header("Content-Type", "application/json");
		request.method(method,
				(body != null) ? HttpRequest.BodyPublishers.ofString(body) : HttpRequest.BodyPublishers.noBody());
		return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
	}

	private static List<String> mappedFields(HttpClient http, Contracts contracts, String elasticsearch, String index)
			throws Exception {
		String body = http
			.send(HttpRequest.newBuilder(URI.create(elasticsearch + "/" + index + "/_mapping")).GET().build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
		return new ArrayList<>(
				contracts.mapper().readTree(body).get(index).get("mappings").get("properties").propertyNames());
	}

	@Test
	void setupModeFailsWhenKafkaDoesNotAnswer() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		// A port nobody listens on: the topics cannot be created.
		Process run = setupRun("127.0.0.1:1", infrastructure.elasticsearchUrl(), "setup-no-kafka.log",
				"--spring.kafka.admin.operation-timeout=5s", "--spring.kafka.admin.close-timeout=5s");
		assertThat(run.waitFor(240, TimeUnit.SECONDS)).as("the setup run ends").isTrue();
		assertThat(run.exitValue()).isNotZero();
		assertThat(Files.readString(logs().resolve("setup-no-kafka.log"))).contains("Setup failed");
	}

	private static Process setupRun(String kafka, String elasticsearch, String logName, String... extra)
			throws IOException {
		Path logs = logs();
		// A private copy: a rebuild of target/*.jar must not pull classes from under a
		// running process.
		Path jar = Files.copy(Path.of(System.getProperty("drivequal.service.jar")), logs.resolve("service.jar"),
				StandardCopyOption.REPLACE_EXISTING);
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-jar",
						jar.toString(), "--spring.profiles.active=setup", "--server.address=127.0.0.1",
						"--spring.kafka.bootstrap-servers=" + kafka, "--drivequal.elasticsearch.url=" + elasticsearch,
						"--drivequal.security.mode=local"));
		command.addAll(List.of(extra));
		return new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(logs.resolve(logName).toFile())
			.start();
	}

	private static Path logs() throws IOException {
		return Files.createDirectories(Path.of("target", "setup-mode"));
	}

	private static int templateStatus(HttpClient http, String elasticsearch) throws Exception {
		return http
			.send(HttpRequest.newBuilder(URI.create(elasticsearch + "/_index_template/" + TEMPLATE)).GET().build(),
					HttpResponse.BodyHandlers.discarding())
			.statusCode();
	}

}

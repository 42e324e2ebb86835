/*
 * The audit trail on the real stack: a submission, a cancellation, a cancellation refused for
 * ownership, a webhook subscription and its deletion, a failed sign-in and a viewer's attempt to
 * read the trail each leave one entry with who, when, what, the outcome and the client address;
 * entries are never updated (version 1 in Elasticsearch); and only admins can read them.
 */
package io.drivequal.service.audit;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.WithRealInfrastructure;
import io.drivequal.service.it.RunnerStandIn;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AuditTrailIT {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@LocalServerPort
	private int port;

	@Test
	void everyActionLeavesOneEntryWithWhoWhatOutcomeAndAddressAndOnlyAdminsReadThem() throws Exception {
		Instant start = Instant.now();
		String serial = "AUDIT-" + UUID.randomUUID().toString().substring(0, 8);
		String jobId;
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"runner-" + serial)) {
			runner.heartbeat(List.of(serial));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> api().get("viewer", "/api/v1/drives/" + serial).status() == 200);
			// Two jobs: the first holds the drive, so the second stays queued.
			api().post("alice", "/api/v1/qualifications", job(serial));
			ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", job(serial));
			assertThat(submitted.status()).isEqualTo(201);
			jobId = submitted.body().get("id").asString();
		}
		assertThat(api().post("bob", "/api/v1/qualifications/" + jobId + "/cancel", "").status()).isEqualTo(403);
		assertThat(api().post("alice", "/api/v1/qualifications/" + jobId + "/cancel", "").status()).isIn(200, 202);
		ApiClient.Response subscribed = api().post("alice", "/api/v1/webhooks",
				"{\"url\":\"http://127.0.0.1:9/audit-" + serial + "\",\"events\":[\"verdict\"]}");
		assertThat(subscribed.status()).isEqualTo(201);
		String subscriptionId = subscribed.body().get("id").asString();
		assertThat(api().request("alice", "DELETE", "/api/v1/webhooks/" + subscriptionId, null).status())
			.isEqualTo(204);
		assertThat(wrongPassword("alice")).isEqualTo(401);
		assertThat(api().get("viewer", "/api/v1/audit").status()).isEqualTo(403);
		assertThat(api().get("alice", "/api/v1/audit").status()).isEqualTo(403);
		assertThat(api().request(null, "GET", "/api/v1/audit", null).status()).isEqualTo(401);

		// Each query names what this test did (its job, its subscription, its failed
		// sign-in and refused read since it started), and waits until the entries it
		// expects are searchable: an entry is written as its request completes and is
		// found after Elasticsearch's next refresh, which a busy machine delays.
		String from = "&from=" + start;
		List<JsonNode> onJob = entries("target=" + jobId + from,
				(items) -> assertThat(items)
					.extracting((e) -> e.get("action").asString() + " " + e.get("actor").asString() + " "
							+ e.get("outcome").asString() + " " + e.get("status").asInt())
					.containsExactlyInAnyOrder("qualification.submit alice succeeded 201",
							"qualification.cancel bob refused 403", "qualification.cancel alice succeeded 200"));
		assertThat(onJob).allSatisfy((entry) -> {
			assertThat(entry.get("clientAddress").asString()).isEqualTo("127.0.0.1");
			assertThat(entry.get("@timestamp").asString()).isNotEmpty();
			assertThat(entry.get("path").asString()).startsWith("/api/v1/qualifications");
		});
		List<JsonNode> onSubscription = entries("target=" + subscriptionId + from,
				(items) -> assertThat(items).extracting((e) -> e.get("action").asString())
					.containsExactlyInAnyOrder("webhook.create", "webhook.delete"));
		assertThat(onSubscription)
			.allSatisfy((e) -> assertThat(e.get("details").get("host").asString()).isEqualTo("127.0.0.1"));
		assertThat(onSubscription.toString()).doesNotContain("whsec_");
		List<JsonNode> signIns = entries("action=sign-in.failed&actor=alice" + from,
				(items) -> assertThat(items).isNotEmpty());
		assertThat(signIns).allSatisfy((e) -> assertThat(e.get("status").asInt()).isEqualTo(401));
		List<JsonNode> denied = entries("action=access.denied&actor=viewer" + from, (items) -> assertThat(items)
			.anySatisfy((e) -> assertThat(e.get("path").asString()).isEqualTo("/api/v1/audit")));
		entries("clientAddress=127.0.0.0/8&target=" + jobId + from, (items) -> assertThat(items).hasSize(3));

		// Append-only: every entry this test read is at its first version.
		List<String> ids = new ArrayList<>();
		for (List<JsonNode> read : List.of(onJob, onSubscription, signIns, denied)) {
			read.forEach((entry) -> ids.add(entry.get("entryId").asString()));
		}
		String search = elasticsearch("/drivequal-audit-*/_search?version=true&size=" + ids.size(),
				"{\"query\":{\"ids\":{\"values\":" + JSON.writeValueAsString(ids) + "}}}");
		List<Long> versions = new ArrayList<>();
		JSON.readTree(search).get("hits").get("hits").forEach((hit) -> versions.add(hit.get("_version").asLong()));
		assertThat(versions).hasSize(ids.size()).containsOnly(1L);
		assertThat(api().get("admin", "/api/v1/audit?clientAddress=not-an-address").status()).isEqualTo(400);
	}

	/** The entries {@code query} finds, once they satisfy {@code expected}. */
	private List<JsonNode> entries(String query, ThrowingConsumer<List<JsonNode>> expected) {
		List<JsonNode> items = new ArrayList<>();
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			items.clear();
			ApiClient.Response page = api().get("admin", "/api/v1/audit?size=100&" + query);
			assertThat(page.status()).isEqualTo(200);
			page.body().get("items").forEach(items::add);
			expected.accept(items);
		});
		return items;
	}

	private int wrongPassword(String user) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/v1/profiles"))
			.header("Authorization",
					"Basic " + Base64.getEncoder()
						.encodeToString((user + ":not-the-password").getBytes(StandardCharsets.UTF_8)))
			.build();
		return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
	}

	private static String elasticsearch(String path, String json) throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		String base = RealInfrastructure.shared().elasticsearchUrl();
		http.send(HttpRequest.newBuilder(URI.create(base + "/drivequal-audit-*/_refresh"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.discarding());
		return http
			.send(HttpRequest.newBuilder(URI.create(base + path))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(json))
				.build(), HttpResponse.BodyHandlers.ofString())
			.body();
	}

	private static String job(String serial) {
		return """
				{"drive":{"serial":"%s"},
				 "plan":{"phases":[{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				                    "queueDepth":32,"rangePercent":100,"runtimeS":600}]}}
				""".formatted(serial);
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}

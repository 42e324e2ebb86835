/*
 * Webhooks on the real stack (Kafka broker, Elasticsearch node, the service over HTTP) with real
 * HTTP receivers on loopback: a job's state changes and verdict arrive as signed CloudEvents that
 * independent code verifies; a receiver that is down gets its deliveries once it is back; one that
 * answers 500 forever is given up after the bound, with the reason in the delivery log; a slow one
 * times out without holding up another subscription; bad input is refused and stores nothing.
 * Every test context of this JVM delivers too (as replicas would), with the short bounds of the
 * test configuration: 5 attempts, backoff from 300 ms doubling to 2 s, 1 s timeouts.
 */
package io.drivequal.service.webhooks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.WithRealInfrastructure;
import io.drivequal.service.it.RunnerStandIn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class WebhookDeliveryIT {

	static final Path OUT = Path.of("target", "webhooks");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** drivequal.webhooks.max-attempts of the test configuration. */
	private static final int MAX_ATTEMPTS = 5;

	@LocalServerPort
	private int port;

	@Test
	void aJobsStateChangesAndVerdictArriveAsSignedCloudEventsAndTheSecretIsShownOnce(CapturedOutput output)
			throws Exception {
		String serial = "WH-" + shortId();
		try (WebhookReceiver receiver = WebhookReceiver.answering(204);
				RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
						"runner-" + shortId())) {
			// bob's subscription is also sent the events of jobs other tests
			// submit as bob while it exists: what follows looks only at this
			// job's.
			JsonNode created = subscribe("bob", receiver.url("/drivequal?source=it"), null);
			String subscriptionId = created.get("id").asString();
			String secret = created.get("secret").asString();
			assertThat(secret).startsWith("whsec_");
			assertThat(api().get("bob", "/api/v1/webhooks/" + subscriptionId).body().has("secret")).isFalse();
			assertThat(api().get("bob", "/api/v1/webhooks").body().toString()).contains(subscriptionId)
				.doesNotContain(secret);
			assertThat(api().get("alice", "/api/v1/webhooks/" + subscriptionId).status())
				.as("another user's subscription is not visible")
				.isEqualTo(404);

			runner.heartbeat(List.of(serial));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> api().get("viewer", "/api/v1/drives/" + serial).status() == 200);
			ApiClient.Response submitted = api().post("bob", "/api/v1/qualifications", shortJob(serial));
			assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
			String jobId = submitted.body().get("id").asString();
			runner.awaitStart(jobId, Duration.ofSeconds(60));
			runner.accepted(jobId, serial, 1);
			runner.phaseStarted(jobId, 0, "randwrite");
			runner.samples(jobId, serial, 0, "randwrite", 3);
			runner.phaseCompleted(jobId, 0, "randwrite", 3);
			runner.completed(jobId);

			Set<String> expected = Set.of(jobId + ".QUEUED", jobId + ".DISPATCHED", jobId + ".RUNNING",
					jobId + ".COMPLETED", jobId + ".verdict");
			await().atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(250))
				.until(() -> idsReceived(receiver, jobId).containsAll(expected));
			List<WebhookReceiver.Received> ours = receiver.received()
				.stream()
				.filter((r) -> r.header("webhook-id").startsWith(jobId + "."))
				.toList();
			Map<String, Object> checks = new LinkedHashMap<>();
			for (WebhookReceiver.Received request : ours) {
				assertThat(WebhookReceiver.signatureValid(secret, request))
					.as("signature of " + request.header("webhook-id"))
					.isTrue();
				assertThat(WebhookReceiver.signatureValid(WebhookSignature.newSecret(), request))
					.as("another secret does not verify")
					.isFalse();
				long age = Math
					.abs(Instant.now().getEpochSecond() - Long.parseLong(request.header("webhook-timestamp")));
				assertThat(age).as("timestamp within the 5-minute replay window").isLessThan(300);
				assertThat(request.header("content-type")).startsWith("application/cloudevents+json");
				JsonNode event = JSON.readTree(request.body());
				assertThat(event.get("specversion").asString()).isEqualTo("1.0");
				assertThat(event.get("id").asString()).isEqualTo(request.header("webhook-id"));
				assertThat(event.get("source").asString()).isEqualTo("/api/v1/qualifications");
				assertThat(event.get("subject").asString()).isEqualTo(jobId);
				assertThat(event.get("datacontenttype").asString()).isEqualTo("application/json");
				assertThat(event.get("data").get("jobId").asString()).isEqualTo(jobId);
				assertThat(event.get("data").get("drive").get("serial").asString()).isEqualTo(serial);
				if (event.get("id").asString().endsWith(".verdict")) {
					assertThat(event.get("type").asString()).isEqualTo("io.drivequal.qualification.verdict");
					assertThat(event.get("data").get("verdict").asString()).isEqualTo("INCONCLUSIVE");
				}
				else {
					assertThat(event.get("type").asString()).isEqualTo("io.drivequal.qualification.state-changed");
					assertThat(jobId + "." + event.get("data").get("state").asString())
						.isEqualTo(event.get("id").asString());
				}
			}
			// The log follows once the last attempt's result is written.
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				List<JsonNode> log = deliveries("bob", subscriptionId).stream()
					.filter((delivery) -> jobId.equals(delivery.path("jobId").asString()))
					.toList();
				assertThat(log).hasSize(5);
				assertThat(log).allSatisfy((delivery) -> {
					assertThat(delivery.get("status").asString()).isEqualTo("DELIVERED");
					assertThat(delivery.get("lastStatusCode").asInt()).isEqualTo(204);
				});
			});
			assertThat(output.getAll()).as("the secret is never logged").doesNotContain(secret.substring(6));

			WebhookReceiver.Received completed = ours.stream()
				.filter((r) -> r.header("webhook-id").equals(jobId + ".COMPLETED"))
				.findFirst()
				.orElseThrow();
			Files.createDirectories(OUT);
			Map<String, Object> sample = new LinkedHashMap<>();
			sample.put("secret", secret);
			sample.put("headers", completed.headers());
			sample.put("body", completed.body());
			Files.writeString(OUT.resolve("sample-delivery.json"),
					JSON.writerWithDefaultPrettyPrinter().writeValueAsString(sample));
			Map<String, Long> perId = ours.stream()
				.collect(Collectors.groupingBy((r) -> r.header("webhook-id"), TreeMap::new, Collectors.counting()));
			checks.put("eventsDelivered", perId.size());
			checks.put("requestsReceived", ours.size());
			checks.put("requestsPerEventId", perId);
			checks.put("signaturesVerified", ours.size());
			figures("signed-job-events", checks);
		}
	}

	@Test
	void aReceiverThatIsDownGetsItsDeliveriesOnceItIsBackEachRequestARecordedAttempt() throws Exception {
		int port = WebhookReceiver.unusedPort();
		JsonNode created = subscribe("viewer", "http://127.0.0.1:" + port + "/down-then-up", null);
		String subscriptionId = created.get("id").asString();
		List<String> events = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			events.add(api().post("viewer", "/api/v1/webhooks/" + subscriptionId + "/test", "")
				.body()
				.get("eventId")
				.asString());
		}
		// Down: every delivery fails at least twice, and is still pending.
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> deliveries("viewer", subscriptionId).stream()
				.filter((d) -> d.get("attempts").asInt() >= 2)
				.count() == 3);
		List<JsonNode> whileDown = deliveries("viewer", subscriptionId);
		assertThat(whileDown).allSatisfy((d) -> {
			assertThat(d.get("status").asString()).isEqualTo("PENDING");
			assertThat(d.get("lastError").asString()).contains("ConnectException");
		});
		int attemptsWhileDown = whileDown.stream().mapToInt((d) -> d.get("attempts").asInt()).sum();
		Map<String, Integer> attemptsBeforeUp = attemptsPerEvent(whileDown);
		try (WebhookReceiver receiver = WebhookReceiver.onPort(port)) {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> deliveries("viewer", subscriptionId).stream()
					.allMatch((d) -> d.get("status").asString().equals("DELIVERED")));
			Map<String, Long> perId = receiver.received()
				.stream()
				.collect(Collectors.groupingBy((r) -> r.header("webhook-id"), TreeMap::new, Collectors.counting()));
			assertThat(perId.keySet()).containsExactlyInAnyOrderElementsOf(events);
			// At least once: a request the receiver got but answered after the response
			// timeout is a failed attempt and is sent again, under the same id. Never
			// more
			// requests than attempts recorded since the receiver came up: the claims keep
			// replicas from sending an attempt twice.
			List<JsonNode> after = deliveries("viewer", subscriptionId);
			Map<String, Integer> attemptsAfter = attemptsPerEvent(after);
			perId.forEach((eventId, requests) -> assertThat(requests).as(eventId)
				.isBetween(1L, (long) attemptsAfter.get(eventId) - attemptsBeforeUp.get(eventId)));
			Map<String, Object> checks = new LinkedHashMap<>();
			checks.put("events", events.size());
			checks.put("failedAttemptsWhileDown", attemptsWhileDown);
			checks.put("attemptsPerDelivery", after.stream().map((d) -> d.get("attempts").asInt()).toList());
			checks.put("delivered",
					after.stream().filter((d) -> d.get("status").asString().equals("DELIVERED")).count());
			checks.put("requestsPerEventId", perId);
			checks.put("attemptsSinceUpPerEventId", new TreeMap<>(events.stream()
				.collect(Collectors.toMap((id) -> id, (id) -> attemptsAfter.get(id) - attemptsBeforeUp.get(id)))));
			figures("receiver-down-then-up", checks);
		}
	}

	@Test
	void aReceiverAnswering500ForeverIsGivenUpAfterTheBoundWithTheReasonLogged() throws Exception {
		try (WebhookReceiver receiver = WebhookReceiver.answering(500)) {
			String subscriptionId = subscribe("viewer", receiver.url("/broken"), null).get("id").asString();
			String eventId = api().post("viewer", "/api/v1/webhooks/" + subscriptionId + "/test", "")
				.body()
				.get("eventId")
				.asString();
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> deliveries("viewer", subscriptionId).stream()
					.anyMatch((d) -> d.get("status").asString().equals("FAILED")));
			JsonNode delivery = deliveries("viewer", subscriptionId).get(0);
			assertThat(delivery.get("attempts").asInt()).isEqualTo(MAX_ATTEMPTS);
			assertThat(delivery.get("lastStatusCode").asInt()).isEqualTo(500);
			assertThat(delivery.get("lastError").asString()).isEqualTo("the receiver answered HTTP 500");
			assertThat(delivery.has("nextAttemptAt")).isFalse();
			// Given up means given up: no further attempt arrives.
			Thread.sleep(3000);
			List<WebhookReceiver.Received> received = receiver.received();
			assertThat(received).hasSize(MAX_ATTEMPTS);
			assertThat(received).allSatisfy((r) -> assertThat(r.header("webhook-id")).isEqualTo(eventId));
			List<Long> gapsMs = new ArrayList<>();
			for (int i = 1; i < received.size(); i++) {
				gapsMs.add(Duration.between(received.get(i - 1).at(), received.get(i).at()).toMillis());
			}
			Map<String, Object> checks = new LinkedHashMap<>();
			checks.put("attempts", delivery.get("attempts").asInt());
			checks.put("requestsReceived", received.size());
			checks.put("status", delivery.get("status").asString());
			checks.put("lastError", delivery.get("lastError").asString());
			checks.put("msBetweenAttempts", gapsMs);
			figures("receiver-500-forever", checks);
		}
	}

	@Test
	void aSlowReceiverTimesOutWithoutHoldingUpOtherSubscriptions() throws Exception {
		try (WebhookReceiver slow = WebhookReceiver.slow(Duration.ofSeconds(4));
				WebhookReceiver fast = WebhookReceiver.answering(200)) {
			String slowId = subscribe("viewer", slow.url("/slow"), null).get("id").asString();
			String fastId = subscribe("viewer", fast.url("/fast"), null).get("id").asString();
			int events = 6;
			for (int i = 0; i < events; i++) {
				api().post("viewer", "/api/v1/webhooks/" + slowId + "/test", "");
			}
			for (int i = 0; i < events; i++) {
				api().post("viewer", "/api/v1/webhooks/" + fastId + "/test", "");
			}
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> deliveries("viewer", fastId).stream()
					.filter((d) -> d.get("status").asString().equals("DELIVERED"))
					.count() == events);
			List<JsonNode> slowLog = deliveries("viewer", slowId);
			assertThat(slowLog).noneMatch((d) -> d.get("status").asString().equals("DELIVERED"));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> deliveries("viewer", slowId).stream().anyMatch((d) -> d.has("lastError")));
			slowLog = deliveries("viewer", slowId);
			List<String> errors = slowLog.stream()
				.filter((d) -> d.has("lastError"))
				.map((d) -> d.get("lastError").asString())
				.distinct()
				.toList();
			assertThat(errors).allSatisfy(
					(error) -> assertThat(error).containsAnyOf("no complete answer within", "HttpTimeoutException"));
			long workers = Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter((thread) -> thread.getName().startsWith("webhook-delivery-"))
				.count();
			Map<String, Object> checks = new LinkedHashMap<>();
			checks.put("fastDelivered", events);
			checks.put("slowDeliveredMeanwhile", 0);
			checks.put("slowAttempted", slowLog.stream().filter((d) -> d.get("attempts").asInt() > 0).count());
			checks.put("slowRequestsReceived", slow.received().size());
			checks.put("slowErrors", errors);
			checks.put("deliveryThreadsInThisJvm", workers);
			figures("slow-receiver", checks);
		}
	}

	@Test
	void aUrlThatIsNotHttpOrLeadsOutsideTheAllowedDestinationsIs400AndStoresNothing() throws Exception {
		// Every URL carries this test's mark, so "nothing stored" is looked for among all
		// subscriptions without counting the ones other tests keep.
		String mark = "bad-input-" + shortId();
		Map<String, String> refused = new LinkedHashMap<>();
		for (String url : List.of("ftp://127.0.0.1/" + mark, "javascript:alert('" + mark + "')",
				"http://169.254.169.254/latest/meta-data/" + mark, "http://[fe80::1]/" + mark,
				"http://100.100.100.200/" + mark, "http://[fd00:ec2::254]/" + mark)) {
			ApiClient.Response response = api().post("alice", "/api/v1/webhooks",
					"{\"url\":\"" + url + "\",\"events\":[\"verdict\"]}");
			assertThat(response.status()).as(url).isEqualTo(400);
			assertThat(response.body().get("errors").get(0).get("field").asString()).isEqualTo("url");
			refused.put(url, response.body().get("detail").asString());
		}
		ApiClient.Response notMember = api().post("bob", "/api/v1/webhooks",
				"{\"url\":\"http://127.0.0.1:9/" + mark + "\",\"team\":\"procurement\"}");
		assertThat(notMember.status()).isEqualTo(403);
		ApiClient.Response badEvent = api().post("alice", "/api/v1/webhooks",
				"{\"url\":\"http://127.0.0.1:9/" + mark + "\",\"events\":[\"everything\"]}");
		assertThat(badEvent.status()).isEqualTo(400);
		assertThat(api().get("admin", "/api/v1/webhooks").body().toString()).as("nothing half-created")
			.doesNotContain(mark);
		Map<String, Object> checks = new LinkedHashMap<>();
		checks.put("refused", refused);
		checks.put("teamNotMember", notMember.status());
		figures("bad-input", checks);
	}

	private JsonNode subscribe(String user, String url, String team) {
		String body = "{\"url\":\"" + url + "\"" + ((team != null) ? ",\"team\":\"" + team + "\"" : "") + "}";
		ApiClient.Response created = api().post(user, "/api/v1/webhooks", body);
		assertThat(created.status()).as(String.valueOf(created.body())).isEqualTo(201);
		return created.body();
	}

	private List<JsonNode> deliveries(String user, String subscriptionId) {
		List<JsonNode> items = new ArrayList<>();
		api().get(user, "/api/v1/webhooks/" + subscriptionId + "/deliveries?size=200")
			.body()
			.get("items")
			.forEach(items::add);
		return items;
	}

	private static Map<String, Integer> attemptsPerEvent(List<JsonNode> deliveries) {
		return deliveries.stream()
			.collect(Collectors.toMap((d) -> d.get("eventId").asString(), (d) -> d.get("attempts").asInt()));
	}

	private static Set<String> idsReceived(WebhookReceiver receiver, String jobId) {
		return receiver.received()
			.stream()
			.map((r) -> r.header("webhook-id"))
			.filter((id) -> id.startsWith(jobId + "."))
			.collect(Collectors.toSet());
	}

	static void figures(String name, Map<String, Object> figures) throws java.io.IOException {
		Files.createDirectories(OUT);
		String json = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(figures);
		Files.writeString(OUT.resolve(name + ".json"), json);
		System.out.println("webhook figures, " + name + ": " + JSON.writeValueAsString(figures));
	}

	static String shortJob(String serial) {
		return """
				{"drive":{"serial":"%s"},
				 "plan":{"phases":[{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				                    "queueDepth":32,"rangePercent":100,"runtimeS":3}]},
				 "criteria":[{"metric":"consistencyRatio","comparator":"atLeast","limit":0.5}]}
				""".formatted(serial);
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

	static String shortId() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

}

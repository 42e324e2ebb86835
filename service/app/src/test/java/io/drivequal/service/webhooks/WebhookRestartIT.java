/*
 * Runs in its own JVM (tag "isolated"), with the service jar as a process. Pending webhook
 * deliveries live in Elasticsearch, not in the service's memory: with the receiver down, a job's
 * event and two test events are queued and fail their first attempts; the service is killed
 * (SIGKILL), the receiver comes up while no service runs, and the restarted service delivers every
 * one of them, each once. The subscriber, erin, exists only in this test's service:
 * ServiceCrashReplayIT shares this JVM's broker and indices and submits as alice, whose
 * subscription would be sent those jobs' events too.
 */
package io.drivequal.service.webhooks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerStandIn;
import io.drivequal.service.it.ServiceJar;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("isolated")
class WebhookRestartIT {

	private static final String SUBSCRIBER = "erin";

	private static final List<String> USERS = List.of(SUBSCRIBER + ":SUBMITTER", "viewer:VIEWER");

	private static final List<String> PROPERTIES = List.of(
			"--drivequal.webhooks.secret-key=q0l2m1XGQ8Ww4b2qJYxv0bq5o0Wq8M4Q4t0cKx2Xh6U=",
			"--drivequal.webhooks.destinations.allowed-networks=127.0.0.0/8", "--drivequal.webhooks.max-attempts=50",
			"--drivequal.webhooks.initial-backoff=500ms", "--drivequal.webhooks.max-backoff=2s",
			"--drivequal.webhooks.poll-interval=200ms", "--drivequal.webhooks.connect-timeout=1s",
			"--drivequal.webhooks.response-timeout=2s", "--spring.kafka.consumer.properties.session.timeout.ms=6000",
			"--spring.kafka.consumer.properties.heartbeat.interval.ms=1000");

	@Test
	void pendingDeliveriesSurviveAServiceKillAndAreDeliveredOnceEachAfterTheRestart() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String serial = "WHR-" + UUID.randomUUID().toString().substring(0, 8);
		Path logs = Files.createDirectories(Path.of("target", "webhook-restart", serial));
		Path jar = ServiceJar.copy(logs);
		int port = ServiceJar.freePort();
		int receiverPort = WebhookReceiver.unusedPort();
		ApiClient api = new ApiClient("http://127.0.0.1:" + port);
		Process service = ServiceJar.start(jar, port, infrastructure, logs.resolve("service-0.log"), USERS, PROPERTIES);
		try (RunnerStandIn runner = new RunnerStandIn(infrastructure.kafkaBootstrapServers(), "runner-" + serial)) {
			ServiceJar.awaitHealthy(api);
			ApiClient.Response subscribed = api.post(SUBSCRIBER, "/api/v1/webhooks",
					"{\"url\":\"http://127.0.0.1:" + receiverPort + "/restart\"}");
			assertThat(subscribed.status()).as(String.valueOf(subscribed.body())).isEqualTo(201);
			String subscriptionId = subscribed.body().get("id").asString();
			String secret = subscribed.body().get("secret").asString();
			runner.heartbeat(List.of(serial));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> api.get("viewer", "/api/v1/drives/" + serial).status() == 200);
			ApiClient.Response submitted = api.post(SUBSCRIBER, "/api/v1/qualifications",
					WebhookDeliveryIT.shortJob(serial));
			assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
			String jobId = submitted.body().get("id").asString();
			List<String> expected = new ArrayList<>(List.of(jobId + ".QUEUED"));
			for (int i = 0; i < 2; i++) {
				expected.add(api.post(SUBSCRIBER, "/api/v1/webhooks/" + subscriptionId + "/test", "")
					.body()
					.get("eventId")
					.asString());
			}
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> failedOnce(api, subscriptionId, expected));
			List<JsonNode> beforeKill = deliveries(api, subscriptionId);
			service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

			try (WebhookReceiver receiver = WebhookReceiver.onPort(receiverPort)) {
				Thread.sleep(2000);
				int receivedWhileNoService = receiver.received().size();
				assertThat(receivedWhileNoService).as("nothing is sent while no service runs").isZero();
				service = ServiceJar.start(jar, port, infrastructure, logs.resolve("service-1.log"), USERS, PROPERTIES);
				ServiceJar.awaitHealthy(api);
				await().atMost(Duration.ofSeconds(120))
					.pollInterval(Duration.ofMillis(250))
					.until(() -> receiver.received()
						.stream()
						.map((r) -> r.header("webhook-id"))
						.collect(Collectors.toSet())
						.containsAll(expected));
				await().atMost(Duration.ofSeconds(30))
					.until(() -> deliveries(api, subscriptionId).stream()
						.filter((d) -> expected.contains(d.get("eventId").asString()))
						.allMatch((d) -> d.get("status").asString().equals("DELIVERED")));
				Map<String, Long> perId = receiver.received()
					.stream()
					.filter((r) -> expected.contains(r.header("webhook-id")))
					.collect(Collectors.groupingBy((r) -> r.header("webhook-id"), TreeMap::new, Collectors.counting()));
				assertThat(perId.values()).as("each pending delivery sent once after the restart").containsOnly(1L);
				assertThat(receiver.received()).allSatisfy(
						(r) -> assertThat(WebhookReceiver.signatureValid(secret, r)).as("signed with the same secret")
							.isTrue());
				Map<String, Object> figures = new LinkedHashMap<>();
				figures.put("pendingAtKill",
						beforeKill.stream().filter((d) -> d.get("status").asString().equals("PENDING")).count());
				figures.put("failedAttemptsBeforeKill",
						beforeKill.stream()
							.collect(Collectors.toMap((d) -> d.get("eventId").asString(),
									(d) -> d.get("attempts").asInt(), (a, b) -> a, TreeMap::new)));
				figures.put("receivedWhileNoService", receivedWhileNoService);
				figures.put("requestsPerEventIdAfterRestart", perId);
				figures.put("deliveredAfterRestart",
						deliveries(api, subscriptionId).stream()
							.filter((d) -> d.get("status").asString().equals("DELIVERED"))
							.count());
				WebhookDeliveryIT.figures("restart", figures);
			}
		}
		finally {
			service.destroy();
			if (!service.waitFor(30, TimeUnit.SECONDS)) {
				service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
			}
		}
	}

	private static boolean failedOnce(ApiClient api, String subscriptionId, List<String> expected) {
		List<JsonNode> log = deliveries(api, subscriptionId);
		return expected.stream()
			.allMatch((id) -> log.stream()
				.anyMatch((d) -> d.get("eventId").asString().equals(id) && d.get("attempts").asInt() >= 1
						&& d.get("status").asString().equals("PENDING")));
	}

	private static List<JsonNode> deliveries(ApiClient api, String subscriptionId) {
		List<JsonNode> items = new ArrayList<>();
		api.get(SUBSCRIBER, "/api/v1/webhooks/" + subscriptionId + "/deliveries?size=200")
			.body()
			.get("items")
			.forEach(items::add);
		return items;
	}

}

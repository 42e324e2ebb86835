/*
 * Priorities and start windows on the real stack (Kafka broker, Elasticsearch node, the service
 * over HTTP, the stand-in runner): with a job holding the drive, a normal job and then an urgent
 * one queue behind it, and the urgent one runs first; a priority above the caller's role is a 403
 * that creates nothing; a submitter raises their own job to high, an admin moves another's to the
 * front; a job waiting for its start window does not hold up the one behind it.
 */
package io.drivequal.service.qualification;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerStandIn;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class QueuePriorityIT {

	private static final Duration START = Duration.ofSeconds(90);

	@LocalServerPort
	private int port;

	@Test
	void anUrgentJobSubmittedAfterANormalOneRunsFirstAndNothingIsCreatedForAPriorityAboveTheRole() {
		String serial = "PRIO-" + shortId();
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"runner-" + shortId())) {
			runner.heartbeat(List.of(serial));
			awaitDriveKnown(serial);
			String holder = submit("alice", serial, null, null);
			runner.awaitStart(holder, START);
			String normal = submit("alice", serial, "normal", null);

			ApiClient.Response refused = api().post("alice", "/api/v1/qualifications", job(serial, "urgent", null));
			assertThat(refused.status()).isEqualTo(403);
			assertThat(refused.body().get("detail").asString()).contains("needs the admin role");
			ApiClient.Response bogus = api().post("alice", "/api/v1/qualifications", job(serial, "asap", null));
			assertThat(bogus.status()).isEqualTo(400);
			assertThat(bogus.body().get("errors").get(0).get("field").asString()).isEqualTo("priority");

			String urgent = submit("admin", serial, "urgent", null);
			// The list is a search: once the job submitted after the refusals shows,
			// anything
			// they had stored would show too.
			await().atMost(Duration.ofSeconds(30)).until(() -> jobsOn(serial).contains(urgent));
			assertThat(jobsOn(serial)).as("a refused submission leaves nothing behind")
				.containsExactlyInAnyOrder(holder, normal, urgent);
			awaitPositions(List.of(urgent, normal));
			await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
				JsonNode listed = api().get("viewer", "/api/v1/qualifications?state=QUEUED&serial=" + serial).body();
				Map<String, Integer> listedPositions = new LinkedHashMap<>();
				listed.get("items")
					.forEach((item) -> listedPositions.put(item.get("id").asString(),
							item.get("queuePosition").asInt()));
				assertThat(listedPositions).containsEntry(urgent, 1).containsEntry(normal, 2);
			});

			List<String> runOrder = new ArrayList<>(List.of(holder));
			finish(runner, holder, serial);
			List<JsonNode> next = runner.awaitStart(urgent, START);
			assertThat(next).extracting((command) -> command.get("jobId").asString())
				.as("the first start after the holder's end")
				.containsExactly(urgent);
			runOrder.add(urgent);
			finish(runner, urgent, serial);
			assertThat(runner.awaitStart(normal, START)).extracting((command) -> command.get("jobId").asString())
				.containsExactly(normal);
			runOrder.add(normal);
			System.out.println("priority run order on drive " + serial + ": " + runOrder + " (submitted: holder, "
					+ "normal " + normal + ", then urgent " + urgent + ")");
		}
	}

	@Test
	void aSubmitterRaisesTheirJobAnAdminMovesAnotherAndAStartWindowHoldsNobodyUp() {
		String serial = "PRIO-" + shortId();
		String windowSerial = "PRIO-" + shortId();
		try (RunnerStandIn runner = new RunnerStandIn(RealInfrastructure.shared().kafkaBootstrapServers(),
				"runner-" + shortId())) {
			runner.heartbeat(List.of(serial, windowSerial));
			awaitDriveKnown(serial);
			awaitDriveKnown(windowSerial);
			String holder = submit("alice", serial, null, null);
			runner.awaitStart(holder, START);
			String a = submit("alice", serial, null, null);
			String b = submit("alice", serial, null, null);
			String c = submit("bob", serial, null, null);
			awaitPositions(List.of(a, b, c));

			assertThat(priority("alice", b, "high").status()).isEqualTo(200);
			awaitPositions(List.of(b, a, c));
			assertThat(priority("alice", c, "high").status()).as("another submitter's job").isEqualTo(403);
			assertThat(priority("alice", a, "urgent").status()).as("above the submitter role").isEqualTo(403);
			assertThat(
					api().post("alice", "/api/v1/qualifications/" + c + "/queue-position", "{\"position\":1}").status())
				.as("moving is for admins")
				.isEqualTo(403);

			ApiClient.Response moved = api().post("admin", "/api/v1/qualifications/" + c + "/queue-position",
					"{\"position\":1}");
			assertThat(moved.status()).isEqualTo(200);
			assertThat(moved.body().get("priority").asString()).isEqualTo("high");
			awaitPositions(List.of(c, b, a));
			assertThat(priority("admin", holder, "urgent").status()).as("a dispatched job has left the queue")
				.isEqualTo(409);

			// A start window an hour away: the job after it on the same drive goes first.
			String later = submit("alice", windowSerial, null, Instant.now().plus(Duration.ofHours(1)));
			String now = submit("alice", windowSerial, null, null);
			runner.awaitStart(now, START);
			JsonNode waiting = api().get("viewer", "/api/v1/qualifications/" + later).body();
			assertThat(waiting.get("state").asString()).isEqualTo("QUEUED");
			assertThat(waiting.get("notBefore").asString()).isNotEmpty();
		}
	}

	private void finish(RunnerStandIn runner, String jobId, String serial) {
		runner.accepted(jobId, serial, 1);
		runner.completed(jobId);
		await().atMost(START)
			.until(() -> "COMPLETED"
				.equals(api().get("viewer", "/api/v1/qualifications/" + jobId).body().get("state").asString()));
	}

	private ApiClient.Response priority(String user, String jobId, String priority) {
		return api().post(user, "/api/v1/qualifications/" + jobId + "/priority", "{\"priority\":\"" + priority + "\"}");
	}

	/**
	 * The jobs hold positions 1, 2, ... in the given order; positions follow a change
	 * within Elasticsearch's refresh interval.
	 */
	private void awaitPositions(List<String> jobIds) {
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(250))
			.untilAsserted(() -> assertThat(jobIds.stream().map(this::position).toList())
				.containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, jobIds.size()).boxed().toList()));
	}

	private Integer position(String jobId) {
		JsonNode position = api().get("viewer", "/api/v1/qualifications/" + jobId).body().get("queuePosition");
		return (position != null) ? position.asInt() : null;
	}

	private List<String> jobsOn(String serial) {
		List<String> ids = new ArrayList<>();
		api().get("viewer", "/api/v1/qualifications?serial=" + serial)
			.body()
			.get("items")
			.forEach((item) -> ids.add(item.get("id").asString()));
		return ids;
	}

	private String submit(String user, String serial, String priority, Instant notBefore) {
		ApiClient.Response submitted = api().post(user, "/api/v1/qualifications", job(serial, priority, notBefore));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	private static String job(String serial, String priority, Instant notBefore) {
		return """
				{"drive":{"serial":"%s"},%s%s
				 "plan":{"phases":[{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,
				                    "queueDepth":32,"rangePercent":100,"runtimeS":600}]}}
				""".formatted(serial, (priority != null) ? "\"priority\":\"" + priority + "\"," : "",
				(notBefore != null) ? "\"notBefore\":\"" + notBefore + "\"," : "");
	}

	private void awaitDriveKnown(String serial) {
		await().atMost(Duration.ofSeconds(60))
			.until(() -> api().get("viewer", "/api/v1/drives/" + serial).status() == 200);
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

	private static String shortId() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

}

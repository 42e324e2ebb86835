/*
 * Power-loss integrity on real parts: three runner agents own simulated drives with a power model
 * (protected, an honest volatile cache, a drive that acknowledges flushes it does not keep), the
 * service dispatches a power-cycle plan over the real Kafka broker, the phase results land in the
 * real Elasticsearch node (whose strict mapping takes powerCycle) and the power-loss criteria
 * judge them. A plan with no power driver is refused by the runner before anything is written.
 */
package io.drivequal.service.qualification;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PowerLossIT {

	private static final String CRITERIA = """
			[{"metric":"powerLossFailedCycles","comparator":"atMost","limit":0},
			 {"metric":"powerLossLostDurableBlocks","comparator":"atMost","limit":0}]""";

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	private final RunnerAgents agents = new RunnerAgents();

	@AfterEach
	void stopAgents() throws InterruptedException {
		this.agents.close();
	}

	@Test
	void aDriveThatLiesAboutFlushesFailsAndHonestOnesPass() throws Exception {
		String protectedDrive = start("plp");
		String volatileDrive = start("volatile");
		String liar = start("liar");
		String plan = plan("sim");
		String keptAll = submit(api().awaitDriveSerial(protectedDrive), plan);
		String keptFlushed = submit(api().awaitDriveSerial(volatileDrive), plan);
		String lied = submit(api().awaitDriveSerial(liar), plan);

		JsonNode plp = awaitVerdict(keptAll);
		JsonNode honest = awaitVerdict(keptFlushed);
		JsonNode liars = awaitVerdict(lied);
		Map<String, Object> plpCycles = powerCycle(keptAll);
		Map<String, Object> honestCycles = powerCycle(keptFlushed);
		Map<String, Object> liarCycles = powerCycle(lied);
		System.out.printf("power-loss: plp %s %s; volatile %s %s; liar %s %s%n", plp.get("verdict").asString(),
				counts(plpCycles), honest.get("verdict").asString(), counts(honestCycles),
				liars.get("verdict").asString(), counts(liarCycles));
		assertThat(plp.get("verdict").asString()).isEqualTo("PASS");
		assertThat(plpCycles).containsEntry("durability", "on-acknowledge")
			.containsEntry("cyclesPassed", 20)
			.containsEntry("lostAllowed", 0)
			.containsEntry("lostDurable", 0);
		assertThat(honest.get("verdict").asString()).isEqualTo("PASS");
		assertThat(honestCycles).containsEntry("durability", "on-flush")
			.containsEntry("cyclesPassed", 20)
			.containsEntry("lostDurable", 0);
		assertThat(((Number) honestCycles.get("lostAllowed")).longValue()).as("unflushed writes were lost, allowed")
			.isPositive();
		assertThat(liars.get("verdict").asString()).isEqualTo("FAIL");
		assertThat(((Number) liarCycles.get("cyclesFailed")).longValue()).isPositive();
		assertThat(((Number) liarCycles.get("lostDurable")).longValue()).isPositive();
		assertThat((List<?>) liarCycles.get("perCycle")).hasSize(20);
	}

	@Test
	void noPowerDriverIsRefusedBeforeAnyWrite() throws Exception {
		String runner = start("plp");
		String job = submit(api().awaitDriveSerial(runner), plan("none"));
		await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			String state = api().get("viewer", "/api/v1/qualifications/" + job).body().path("state").asString();
			return "FAILED".equals(state);
		});
		JsonNode failed = api().get("viewer", "/api/v1/qualifications/" + job).body();
		System.out.printf("power-loss, no driver: %s: %s%n", failed.path("failureReason").asString(),
				failed.path("message").asString());
		assertThat(failed.path("message").asString()).contains("no power driver configured");
		assertThat(api().get("viewer", "/api/v1/qualifications/" + job + "/samples?limit=10").body().path("items"))
			.isEmpty();
	}

	private String start(String power) throws Exception {
		String runner = "agent-" + UUID.randomUUID().toString().substring(0, 8);
		this.agents.start(runner, List.of("sim:test-enterprise-eager@" + (7 + power.length())),
				"{\"sim_medium\":1,\"sim_power\":\"%s\",\"sim_cache_kib\":256}".formatted(power), Map.of());
		return runner;
	}

	private static String plan(String driver) {
		return """
				{"phases":[{"name":"power-cycles","kind":"power-cycle","queueDepth":8,"rangePercent":0.2,
				 "powerCycle":{"powerDriver":"%s","cycles":20,"writesPerCycle":2000,"flushEvery":128}}]}"""
			.formatted(driver);
	}

	private String submit(String serial, String plan) {
		ApiClient.Response submitted = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s"},"plan":%s,"criteria":%s}
				""".formatted(serial, plan, CRITERIA));
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		return submitted.body().get("id").asString();
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> powerCycle(String jobId) throws Exception {
		Map<String, Object> result = this.elasticsearch
			.get((get) -> get.index(PhaseResult.INDEX).id(jobId + "/0"), Map.class)
			.source();
		assertThat(result).extractingByKey("powerCycle", MAP).isNotEmpty();
		return (Map<String, Object>) result.get("powerCycle");
	}

	private static String counts(Map<String, Object> cycles) {
		return "%s/%s cycles failed, lost allowed %s, lost durable %s, corrupt %s".formatted(cycles.get("cyclesFailed"),
				cycles.get("cycles"), cycles.get("lostAllowed"), cycles.get("lostDurable"), cycles.get("corrupt"));
	}

	private JsonNode awaitVerdict(String jobId) {
		await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + jobId).body();
			String state = job.get("state").asString();
			assertThat(state).as(jobId + ": " + job.path("message").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return job.has("verdict");
		});
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}

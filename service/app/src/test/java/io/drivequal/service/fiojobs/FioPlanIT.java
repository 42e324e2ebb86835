/*
 * A job that names a shipped fio job file instead of phases, on the real system (Kafka, Elasticsearch,
 * the C runner's simulated drive): the plan stored is the plan POST /api/v1/plans/fio answers for
 * that file, and the job completes with the file's phases. A file with an unsupported option and a
 * malformed one are refused at submission under plan.fio.jobFile with the line (and the option), a
 * name that is not shipped under plan.fio.name, a campaign's refused plan under profiles[i], and
 * none of them queues a job.
 */
package io.drivequal.service.fiojobs;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FioPlanIT {

	private static final String SHIPPED = "read-latency-at-load";

	@LocalServerPort
	private int port;

	private final RunnerAgents agents = new RunnerAgents();

	private String runnerId;

	@BeforeAll
	void start() throws Exception {
		this.runnerId = "fioplan-" + UUID.randomUUID().toString().substring(0, 8);
		// a seed no other test uses: one serial is one drive to the service
		this.agents.start(this.runnerId, List.of("sim:test-enterprise-eager@331"));
	}

	@AfterAll
	void stop() throws Exception {
		this.agents.close();
	}

	@Test
	void aJobNamingAShippedFioJobFileRunsThePhasesTheFileDefinesAndRefusalsQueueNothing() throws Exception {
		String serial = api().awaitDriveSerial(this.runnerId);

		ApiClient.Response unsupported = submit(serial,
				jobFile(Files.readString(FioPlansTest.EXAMPLES.resolve("refused/zipf-distribution.fio"))));
		System.out.println("unsupported option -> " + unsupported.status() + " " + unsupported.body());
		assertThat(unsupported.status()).isEqualTo(400);
		JsonNode option = unsupported.body().get("errors").get(0);
		assertThat(option.get("field").asString()).isEqualTo("plan.fio.jobFile");
		assertThat(option.get("line").asInt()).isEqualTo(11);
		assertThat(option.get("option").asString()).isEqualTo("random_distribution");

		ApiClient.Response malformed = submit(serial,
				jobFile(Files.readString(FioPlansTest.EXAMPLES.resolve("refused/missing-equals.fio"))));
		System.out.println("malformed file -> " + malformed.status() + " " + malformed.body());
		assertThat(malformed.status()).isEqualTo(400);
		assertThat(malformed.body().get("errors").get(0).get("field").asString()).isEqualTo("plan.fio.jobFile");
		assertThat(malformed.body().get("errors").get(0).get("line").asInt()).isEqualTo(10);

		// a campaign's plans take the same: refused under profiles[i], with the line
		JsonNode drive = api().awaitDrives(this.runnerId, 1).get(0).get("drive");
		ApiClient.Response campaign = api().post("alice", "/api/v1/campaigns",
				"{\"model\":{\"model\":\"" + drive.get("model").asString() + "\",\"firmware\":\""
						+ drive.get("firmware").asString() + "\"},\"samples\":[{\"serial\":\"" + serial
						+ "\"}],\"profiles\":[{\"fio\":{\"name\":\"" + SHIPPED + "\"}},{\"fio\":"
						+ jobFile(Files.readString(FioPlansTest.EXAMPLES.resolve("refused/zipf-distribution.fio")))
						+ "}]}");
		System.out.println("campaign with a refused file -> " + campaign.status() + " " + campaign.body());
		assertThat(campaign.status()).isEqualTo(400);
		assertThat(campaign.body().get("errors").get(0).get("field").asString()).isEqualTo("profiles[1].fio.jobFile");
		assertThat(campaign.body().get("errors").get(0).get("line").asInt()).isEqualTo(11);

		ApiClient.Response unknown = submit(serial, "{\"name\":\"zipf-distribution\"}");
		assertThat(unknown.status()).isEqualTo(400);
		assertThat(unknown.body().get("errors").get(0).get("field").asString()).isEqualTo("plan.fio.name");

		String text = Files.readString(FioPlansTest.EXAMPLES.resolve("accepted/" + SHIPPED + ".fio"));
		ApiClient.Response translated = api().postText("alice", "/api/v1/plans/fio", text);
		assertThat(translated.status()).as(String.valueOf(translated.body())).isEqualTo(200);
		JsonNode expectedPlan = translated.body().get("phases");

		ApiClient.Response submitted = submit(serial, "{\"name\":\"" + SHIPPED + "\"}");
		assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
		String jobId = submitted.body().get("id").asString();
		System.out.println("plan.fio.name=" + SHIPPED + " -> stored plan " + job(jobId).get("plan"));
		assertThat(job(jobId).get("plan")).isEqualTo(expectedPlan);

		await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = job(jobId);
			assertThat(job.path("state").asString()).as(jobId + ": " + job.path("failureReason").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED");
			return "COMPLETED".equals(job.path("state").asString()) && job.has("analysis");
		});
		JsonNode streams = api().get("viewer", "/api/v1/qualifications/" + jobId + "/streams").body().get("phases");
		List<String> ran = new ArrayList<>();
		List<String> defined = new ArrayList<>();
		streams.forEach((phase) -> ran.add(phase.get("phaseName").asString() + ":" + phase.get("streams").size()));
		expectedPlan.forEach((phase) -> defined.add(phase.get("name").asString() + ":" + phase.get("streams").size()));
		System.out.println("phases run: " + ran);
		assertThat(ran).containsExactlyElementsOf(defined)
			.containsExactly("fio-1-reads-20k:2", "fio-2-reads-80k:2", "fio-3-reads-160k:2");
		for (JsonNode phase : streams) {
			for (JsonNode stream : phase.get("streams")) {
				assertThat(stream.get("directions").get(0).get("ios").asLong())
					.as(phase.get("phaseName") + " " + stream.get("name"))
					.isPositive();
			}
		}

		// the three refusals queued nothing: the drive's only job is the accepted one
		JsonNode jobs = api().get("viewer", "/api/v1/qualifications?serial=" + serial).body();
		assertThat(jobs.get("total").asLong()).isEqualTo(1);
		assertThat(jobs.get("items").get(0).get("id").asString()).isEqualTo(jobId);
	}

	private ApiClient.Response submit(String serial, String fio) {
		return api().post("alice", "/api/v1/qualifications",
				"{\"drive\":{\"serial\":\"" + serial + "\"},\"plan\":{\"fio\":" + fio + "}}");
	}

	private static String jobFile(String text) {
		return "{\"jobFile\":" + JsonMapper.builder().build().writeValueAsString(text) + "}";
	}

	private JsonNode job(String jobId) {
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

}

/*
 * A vendor's real fio 3.33 results imported over HTTP become a qualification with its samples in
 * Elasticsearch, an analysis and a verdict; logs without per-second averaging are refused.
 */
package io.drivequal.service.imports;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.StoredSamples;
import io.drivequal.service.it.WithRealInfrastructure;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class FioImportIT {

	/** Real fio output, shared with the analysis library's tests (see its README). */
	private static final Path FIXTURES = Path.of("../analysis/src/test/resources/fio");

	private static final String REQUEST = """
			{"drive":{"serial":"VENDOR-0001","model":"Vendor NVMe 3.84TB","firmware":"1.0","capacityBytes":3840755982336},
			 "criteria":[{"metric":"writeLatencyP99Us","comparator":"atMost","limit":100000}]}
			""";

	@LocalServerPort
	private int port;

	@Autowired
	private ElasticsearchClient elasticsearch;

	@Test
	void realFioLogsBecomeAnAnalysedQualification() throws IOException {
		Path dir = FIXTURES.resolve("two-jobs");
		ApiClient api = new ApiClient("http://127.0.0.1:" + this.port);
		ApiClient.Response imported = api.postMultipart("alice", "/api/v1/imports", REQUEST,
				List.of(Map.entry("fio", dir.resolve("vendor.json")),
						Map.entry("logs", dir.resolve("vendor_iops.1.log")),
						Map.entry("logs", dir.resolve("vendor_iops.2.log")),
						Map.entry("logs", dir.resolve("vendor_clat.1.log")),
						Map.entry("logs", dir.resolve("vendor_clat.2.log")),
						Map.entry("logs", dir.resolve("vendor_bw.1.log"))));
		assertThat(imported.status()).as(String.valueOf(imported.body())).isEqualTo(201);
		String jobId = imported.body().get("id").asString();
		assertThat(imported.body().get("state").asString()).isEqualTo("COMPLETED");

		await().atMost(Duration.ofSeconds(60))
			.until(() -> api.get("viewer", "/api/v1/qualifications/" + jobId).body().has("verdict"));
		JsonNode job = api.get("viewer", "/api/v1/qualifications/" + jobId).body();
		assertThat(job.get("plan").size()).isEqualTo(2);
		JsonNode phases = job.get("analysis").get("phases");
		assertThat(phases.get(0).get("samples").asInt()).isEqualTo(phases.get(0).get("expectedSamples").asInt())
			.isPositive();
		assertThat(phases.get(0).get("iops").get("sampleCount").asInt())
			.isEqualTo(phases.get(0).get("samples").asInt());
		assertThat(job.get("verdict").asString()).isIn("PASS", "FAIL", "INCONCLUSIVE");
		// The log does not say how the drive was preconditioned, so SNIA's published
		// rules
		// apply, as the job's message and the phase's evidence say; each phase's tested
		// range is what fio addressed (size=256m of 3.84 TB).
		assertThat(job.get("message").asString())
			.contains("fresh-state check not applicable: the log does not start from a purge or fill");
		assertThat(job.get("plan").get(0).get("rangePercent").asDouble())
			.isCloseTo(100.0 * 268_435_456 / 3_840_755_982_336L, org.assertj.core.api.Assertions.within(1e-12));
		JsonNode steadyState = phases.get(0).get("iops").get("steadyState");
		assertThat(steadyState.get("eligibility").get("testedRangeBytes").asLong()).isEqualTo(268_435_456L);
		assertThat(steadyState.get("eligibility").get("basis").asString())
			.startsWith("fresh-state check not applicable");
		assertThat(steadyState.get("freshState").get("evidence").asString()).isEqualTo("no-reset");
		// 19 s of a 20 s job: no complete round, so no steady state either way.
		assertThat(steadyState.get("end").get("failures").get(0).get("kind").asString()).isEqualTo("TOO_FEW_ROUNDS");
		JsonNode second = api.get("viewer", "/api/v1/qualifications/" + jobId + "/samples?phase=1")
			.body()
			.get("items")
			.get(0);
		assertThat(second.get("writeBytes").asLong()).as("bytes derived from IOPS without a bw log").isPositive();
		assertThat(api.get("viewer", "/api/v1/qualifications/" + jobId + "/samples?phase=0").body().get("items").size())
			.isEqualTo(phases.get(0).get("samples").asInt());
		assertThat(StoredSamples.anyOf(this.elasticsearch, jobId)).containsEntry("driveModel", "Vendor NVMe 3.84TB")
			.containsEntry("firmware", "1.0")
			.containsEntry("simulated", false);
	}

	@Test
	void aStatedPreconditioningBringsTheRulesOfAJob() {
		Path dir = FIXTURES.resolve("two-jobs");
		ApiClient api = new ApiClient("http://127.0.0.1:" + this.port);
		String stated = REQUEST.replace("\"criteria\"", "\"preconditioning\":\"purge-and-fill\",\"criteria\"");
		ApiClient.Response imported = api.postMultipart("alice", "/api/v1/imports", stated,
				List.of(Map.entry("fio", dir.resolve("vendor.json")),
						Map.entry("logs", dir.resolve("vendor_iops.1.log")),
						Map.entry("logs", dir.resolve("vendor_iops.2.log")),
						Map.entry("logs", dir.resolve("vendor_bw.1.log"))));
		assertThat(imported.status()).as(String.valueOf(imported.body())).isEqualTo(201);
		String jobId = imported.body().get("id").asString();
		await().atMost(Duration.ofSeconds(60))
			.until(() -> api.get("viewer", "/api/v1/qualifications/" + jobId).body().has("verdict"));
		JsonNode job = api.get("viewer", "/api/v1/qualifications/" + jobId).body();
		assertThat(job.get("message").asString())
			.contains("the import states the drive was purged and filled just before the first imported job");
		JsonNode steadyState = job.get("analysis").get("phases").get(0).get("iops").get("steadyState");
		assertThat(steadyState.get("eligibility").get("history").asString()).isEqualTo("reset");
		assertThat(steadyState.get("freshState").get("evidence").asString()).isIn("iops-cliff", "written-bytes");
		// An unknown method or an impossible capacity is a 400 naming the field, and
		// nothing is stored.
		String serial = "VENDOR-REFUSED-" + Long.toHexString(System.nanoTime());
		ApiClient.Response refused = api.postMultipart("alice", "/api/v1/imports",
				REQUEST.replace("VENDOR-0001", serial)
					.replace("\"criteria\"", "\"preconditioning\":\"wiped\",\"criteria\""),
				List.of(Map.entry("fio", dir.resolve("vendor.json")),
						Map.entry("logs", dir.resolve("vendor_iops.1.log"))));
		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.body().get("errors").get(0).get("field").asString()).isEqualTo("preconditioning");
		assertThat(api.get("viewer", "/api/v1/qualifications?serial=" + serial).body().get("items").size()).isZero();
	}

	@Test
	void logsWithoutPerSecondAveragingAreA400() {
		Path dir = FIXTURES.resolve("avg-500ms");
		ApiClient api = new ApiClient("http://127.0.0.1:" + this.port);
		ApiClient.Response refused = api.postMultipart("alice", "/api/v1/imports", REQUEST, List
			.of(Map.entry("fio", dir.resolve("avg500.json")), Map.entry("logs", dir.resolve("avg500_iops.1.log"))));
		assertThat(refused.status()).isEqualTo(400);
		assertThat(refused.body().get("detail").asString()).isNotBlank();
		System.out.println("refused: " + refused.body().get("detail").asString());
		assertThat(api.postMultipart("viewer", "/api/v1/imports", REQUEST, List.of()).status()).isEqualTo(403);
	}

}

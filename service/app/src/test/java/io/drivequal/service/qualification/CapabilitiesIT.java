/*
 * What a drive can do, from the runner's probe to the buyer's submission, on real parts: the C
 * agent run as the Helm chart runs it (CAP_SYS_ADMIN dropped) owns a simulated drive and a loop
 * device under the uring engine; GET /api/v1/drives lists each capability and why each missing one
 * is missing; plans that need what the loop device cannot do are refused 422 naming the missing
 * capability (a Format purge; purge auto, which never degrades to a TRIM on its own; WAF criteria
 * without the OCP C0h log); the same plan with purgeFallback deallocate runs, and its results and
 * its report (headless Chromium) say a deallocate ran and the test is not SNIA PTS conformant. Loop devices need root: skipped
 * without it outside CI.
 */
package io.drivequal.service.qualification;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import io.drivequal.service.it.ApiClient;
import io.drivequal.service.it.RunnerAgents;
import io.drivequal.service.it.WithRealInfrastructure;
import io.drivequal.service.report.SniaPages;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@WithRealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CapabilitiesIT {

	/** The Helm chart's default runner: every capability dropped but IPC_LOCK. */
	private static final List<String> WITHOUT_SYS_ADMIN = List.of("setpriv", "--inh-caps=-sys_admin",
			"--bounding-set=-sys_admin", "--");

	private static String loopDevice;

	@LocalServerPort
	private int port;

	private final RunnerAgents agents = new RunnerAgents();

	@BeforeAll
	static void attachLoopDevice() throws Exception {
		boolean root = "root".equals(System.getProperty("user.name"));
		if (!root && !"true".equals(System.getenv("CI"))) {
			Assumptions.abort("loop devices need root (CI runs as root)");
		}
		Path backing = Files.createDirectories(Path.of("target", "capabilities-it")).resolve("loop.img");
		Files.deleteIfExists(backing);
		try (var file = new java.io.RandomAccessFile(backing.toFile(), "rw")) {
			file.setLength(64L * 1024 * 1024);
		}
		loopDevice = run("losetup", "-f", "--show", backing.toAbsolutePath().toString()).strip();
	}

	@AfterAll
	static void detachLoopDevice() throws Exception {
		if (loopDevice != null) {
			run("losetup", "-d", loopDevice);
		}
	}

	@AfterEach
	void stopAgents() throws InterruptedException {
		this.agents.close();
	}

	@Test
	void theInventoryNamesEachCapabilityAndTheSubmissionRefusesWhatTheDriveCannotDo() throws Exception {
		String runnerId = "caps-" + UUID.randomUUID().toString().substring(0, 8);
		this.agents.startWith(WITHOUT_SYS_ADMIN, runnerId,
				List.of("sim:test-client-7pct@32", loopDevice, "sim:test-fdp-enterprise@32"));
		List<JsonNode> drives = api().awaitDrives(runnerId, 3);
		JsonNode loop = drive(drives, loopDevice);
		JsonNode sim = drive(drives, "sim:test-client-7pct@32");
		JsonNode fdpSim = drive(drives, "sim:test-fdp-enterprise@32");
		print("loop device " + loopDevice + " (uring, no CAP_SYS_ADMIN)", loop);
		print("simulated drive sim:test-client-7pct@32", sim);
		print("simulated drive with FDP sim:test-fdp-enterprise@32", fdpSim);

		// FDP: the configuration of a drive that has it; why a drive has not
		JsonNode fdp = capability(fdpSim, "fdp");
		assertThat(fdp.get("available").asBoolean()).isTrue();
		assertThat(fdp.get("enabled").asBoolean()).isTrue();
		assertThat(fdp.get("detail").asString())
			.isEqualTo("1 reclaim group, 8 reclaim unit handles, reclaim unit 16777216 bytes");
		assertThat(capability(sim, "fdp").get("missing").asString()).isEqualTo("device-lacks-it");
		assertThat(capability(sim, "fdp").get("detail").asString()).contains("no FDP section");

		// The inventory: every capability, each missing one with why.
		assertThat(loop.get("capabilities")).hasSize(12);
		assertThat(capability(loop, "deallocate").get("available").asBoolean()).isTrue();
		for (String name : List.of("format", "format-user-data", "sanitize-block", "smart", "ocp-smart-c0h", "fdp")) {
			assertThat(capability(loop, name).get("available").asBoolean()).as(name).isFalse();
			assertThat(capability(loop, name).get("missing").asString()).as(name).isEqualTo("device-lacks-it");
		}
		assertThat(sim.get("capabilities")).hasSize(12);
		for (String name : List.of("format-user-data", "sanitize-block", "deallocate", "smart", "ocp-smart-c0h")) {
			assertThat(capability(sim, name).get("available").asBoolean()).as(name).isTrue();
		}
		assertThat(capability(sim, "sanitize-crypto").get("missing").asString()).isEqualTo("device-lacks-it");
		String loopSerial = loop.get("serial").asString();

		// A Format purge on the loop device: refused, naming format-user-data and why.
		ApiClient.Response format = submit(loopSerial, """
				{"phases":[{"name":"purge","kind":"purge","purgeMethod":"format-user-data"},%s]}""".formatted(WRITE));
		JsonNode missing = refused(format, "a Format purge on the loop device");
		assertThat(missing).hasSize(1);
		assertThat(missing.get(0).get("capability").asString()).isEqualTo("format-user-data");
		assertThat(missing.get(0).get("missing").asString()).isEqualTo("device-lacks-it");
		assertThat(missing.get(0).get("neededBy").asString()).startsWith("plan.phases[0] (purge");
		assertThat(missing.get(0).get("remedy").asString()).contains("purgeFallback: deallocate");

		// purge auto: no Format, no Sanitize, and no silent TRIM instead.
		ApiClient.Response auto = submit(loopSerial, """
				{"phases":[{"name":"purge","kind":"purge","purgeMethod":"auto"},%s]}""".formatted(WRITE));
		assertThat(refused(auto, "purge auto on the loop device").findValuesAsString("capability"))
			.containsExactly("sanitize-block", "format-user-data");

		// WAF criteria on a drive without the OCP C0h log (nor SMART): refused.
		ApiClient.Response waf = api().post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s"},"plan":{"phases":[%s]},
				 "criteria":[{"metric":"waf","comparator":"atMost","limit":3}]}""".formatted(loopSerial,
				WRITE.replace("\"runtimeS\":10", "\"runtimeS\":10,\"smartSnapshot\":true")));
		assertThat(refused(waf, "WAF criteria without C0h").findValuesAsString("capability")).containsExactly("smart",
				"ocp-smart-c0h");
		// The simulated drive has C0h: the same criteria are accepted there.
		ApiClient.Response onSim = api().post("alice", "/api/v1/qualifications",
				"""
						{"drive":{"serial":"%s"},"plan":{"phases":[%s]},
						 "criteria":[{"metric":"waf","comparator":"atMost","limit":3}]}""".formatted(
						sim.get("serial").asString(),
						WRITE.replace("\"runtimeS\":10", "\"runtimeS\":10,\"smartSnapshot\":true")));
		assertThat(onSim.status()).as(String.valueOf(onSim.body())).isEqualTo(201);

		// FDP placement: refused at submission on the drive without FDP, naming the
		// stream;
		// on the FDP drive a handle beyond its 8 passes submission and the runner refuses
		// the
		// job before any write, naming the range.
		String placed = """
				{"phases":[{"name":"hot-cold","kind":"workload","runtimeS":10,"streams":[{"name":"hot",\
				"rw":"randwrite","blockSizeBytes":4096,"queueDepth":8,"rangePercent":10,"placementHandle":%d}]}]}""";
		JsonNode noFdp = refused(submit(sim.get("serial").asString(), placed.formatted(1)),
				"placement on the simulated drive without FDP");
		assertThat(noFdp.findValuesAsString("capability")).containsExactly("fdp");
		assertThat(noFdp.get(0).get("neededBy").asString())
			.isEqualTo("plan.phases[0].streams[0].placementHandle (hot)");
		ApiClient.Response beyond = submit(fdpSim.get("serial").asString(), placed.formatted(8));
		assertThat(beyond.status()).as(String.valueOf(beyond.body())).isEqualTo(201);
		String beyondId = beyond.body().get("id").asString();
		await().atMost(Duration.ofMinutes(2))
			.pollInterval(Duration.ofSeconds(1))
			.until(() -> "FAILED"
				.equals(api().get("viewer", "/api/v1/qualifications/" + beyondId).body().path("state").asString()));
		JsonNode refusedJob = api().get("viewer", "/api/v1/qualifications/" + beyondId).body();
		System.out.printf("handle 8 on the FDP drive: %s %s%n", refusedJob.get("state").asString(),
				refusedJob.path("message").asString());
		assertThat(refusedJob.path("message").asString())
			.contains("stream 'hot': placementHandle 8 is out of range: the drive has 8 reclaim unit handles (0..7)");

		// Within range the placed job runs, and every health reading carries the drive's
		// FDP
		// statistics (the FDP Statistics log's bytes, indexed under the strict health
		// mapping): the host bytes grow from the first reading to the last.
		ApiClient.Response inRange = submit(fdpSim.get("serial").asString(), placed.formatted(1));
		assertThat(inRange.status()).as(String.valueOf(inRange.body())).isEqualTo(201);
		String placedId = inRange.body().get("id").asString();
		awaitAnalysis(placedId);
		await().atMost(Duration.ofMinutes(1))
			.pollInterval(Duration.ofSeconds(1))
			.until(() -> api().get("viewer", "/api/v1/qualifications/" + placedId + "/health").body().size() >= 2);
		JsonNode health = api().get("viewer", "/api/v1/qualifications/" + placedId + "/health").body();
		System.out.printf("placed job %s: %d health readings, FDP statistics %s ... %s%n", placedId, health.size(),
				health.get(0).get("fdp"), health.get(health.size() - 1).get("fdp"));
		health.forEach((reading) -> assertThat(reading.has("fdp")).as(reading.toString()).isTrue());
		assertThat(health.get(health.size() - 1).get("fdp").get("hostBytesWritten").asLong())
			.isGreaterThan(health.get(0).get("fdp").get("hostBytesWritten").asLong());

		// With the buyer's consent the purge runs as a deallocate, and the results say
		// so.
		ApiClient.Response accepted = submit(loopSerial, """
				{"purgeFallback":"deallocate","phases":[{"name":"purge","kind":"purge","purgeMethod":"auto"},%s]}"""
			.formatted(WRITE));
		assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(201);
		String jobId = accepted.body().get("id").asString();
		assertThat(accepted.body().get("plan").get(0).get("purgeFallback").asString()).isEqualTo("deallocate");
		JsonNode job = awaitAnalysis(jobId);
		JsonNode purge = job.get("analysis").get("phases").get(0).get("purgeVerification");
		JsonNode conformance = job.get("analysis").get("sniaConformance").get(0);
		System.out.printf(
				"fallback job %s: %s; purge method that ran: %s (%s, %d canary blocks, %d found)%n" + "  %s: %s%n",
				jobId, job.get("state").asString(), purge.get("method").asString(), purge.get("status").asString(),
				purge.get("canaryBlocks").asLong(), purge.get("blocksFound").asLong(),
				conformance.get("phaseName").asString(), conformance.get("line").asString());
		assertThat(job.get("state").asString()).isEqualTo("COMPLETED");
		assertThat(purge.get("method").asString()).isEqualTo("deallocate");
		assertThat(purge.get("status").asString()).isEqualTo("verified");
		assertThat(conformance.get("conformant").asBoolean()).isFalse();
		assertThat(conformance.get("purge").asString()).isEqualTo("deallocate (TRIM)");
		assertThat(conformance.get("line").asString())
			.startsWith("SNIA PTS: not conformant: purge was deallocate (TRIM), PTS requires Format/Sanitize");

		// The report a buyer reads says the same: the purge line and the conformance
		// line.
		try (SniaPages pages = new SniaPages("http://127.0.0.1:" + this.port);
				BrowserContext context = pages.context()) {
			Page page = pages.signedIn(context);
			pages.openReport(page, jobId);
			String purgeLine = page.textContent("#purge-table tr[data-phase=purge]");
			String conformanceLine = page.textContent("#conformance-table tr[data-phase=randwrite]");
			System.out.printf("report, purge line: %s%nreport, conformance line: %s%n", purgeLine, conformanceLine);
			assertThat(page.getAttribute("#purge-table tr[data-phase=purge]", "data-method")).isEqualTo("deallocate");
			assertThat(purgeLine).contains("deallocate (a TRIM: not a purge under SNIA PTS)");
			assertThat(conformanceLine)
				.contains("SNIA PTS: not conformant: purge was deallocate (TRIM), PTS requires " + "Format/Sanitize");
		}
	}

	/** 10 s of 4 KiB random writes at QD32 over the whole drive. */
	private static final String WRITE = """
			{"name":"randwrite","kind":"workload","rw":"randwrite","blockSizeBytes":4096,"queueDepth":32,\
			"rangePercent":100,"runtimeS":10}""";

	private ApiClient.Response submit(String serial, String plan) {
		return api().post("alice", "/api/v1/qualifications",
				"{\"drive\":{\"serial\":\"%s\"},\"plan\":%s}".formatted(serial, plan));
	}

	/** A 422 problem's missingCapabilities, each printed. */
	private static JsonNode refused(ApiClient.Response response, String what) {
		assertThat(response.status()).as(what + ": " + response.body()).isEqualTo(422);
		assertThat(response.body().get("title").asString()).isEqualTo("The drive cannot run this plan");
		System.out.printf("%s: %d %s%n", what, response.status(), response.body().get("detail").asString());
		return response.body().get("missingCapabilities");
	}

	private JsonNode awaitAnalysis(String jobId) {
		await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).until(() -> {
			JsonNode job = api().get("viewer", "/api/v1/qualifications/" + jobId).body();
			assertThat(job.path("state").asString()).as(jobId + ": " + job.path("message").asString())
				.isIn("QUEUED", "DISPATCHED", "RUNNING", "COMPLETED", "");
			return job.has("analysis") && job.get("analysis").has("sniaConformance");
		});
		return api().get("viewer", "/api/v1/qualifications/" + jobId).body();
	}

	private static JsonNode drive(List<JsonNode> drives, String transportAddress) {
		return drives.stream()
			.map((entry) -> entry.get("drive"))
			.filter((drive) -> transportAddress.equals(drive.get("transportAddress").asString()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no drive at " + transportAddress + " in " + drives));
	}

	private static JsonNode capability(JsonNode drive, String name) {
		for (JsonNode capability : drive.get("capabilities")) {
			if (name.equals(capability.get("name").asString())) {
				return capability;
			}
		}
		throw new AssertionError("no capability " + name + " in " + drive);
	}

	private static void print(String what, JsonNode drive) {
		System.out.println(what + ", serial " + drive.get("serial").asString() + ":");
		for (JsonNode c : drive.get("capabilities")) {
			System.out.printf("  %-22s %s%s%s%n", c.get("name").asString(),
					c.get("available").asBoolean() ? "yes" : "no, " + c.get("missing").asString(),
					c.has("enabled") ? (c.get("enabled").asBoolean() ? ", enabled" : ", disabled") : "",
					c.has("detail") ? " (" + c.get("detail").asString() + ")" : "");
		}
	}

	private ApiClient api() {
		return new ApiClient("http://127.0.0.1:" + this.port);
	}

	private static String run(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		assertThat(process.waitFor()).as(String.join(" ", command) + ": " + output).isZero();
		return output;
	}

}

/*
 * The images as the chart runs them. service/bin/drivequal-images builds both Dockerfiles on a
 * Debian base made here (no registry is reachable from CI), then this test starts them with the
 * chart's securityContext equivalents: a read-only root filesystem, the chart's user, every
 * capability dropped (the runner keeps IPC_LOCK), no privilege escalation, an exec-able /tmp
 * (a Kubernetes emptyDir; podman's own --tmpfs default is noexec, where lz4-java's JNI library
 * could not load), the chart's memory limits and environment. The runner image lists its devices
 * and runs a sim job on its own; then its agent and the service image, on the host's network,
 * qualify a simulated drive through the harness's real Kafka and Elasticsearch.
 *
 * Runs in its own JVM (tag "isolated"): no Spring context of another test may consume the topics
 * the service container reads. Skipped without podman outside CI (drivequal-images check).
 */
package io.drivequal.service.deployment;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ApiClient;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("isolated")
class ContainerImagesIT {

	private static final int SKIP = 77;

	private static final String TAG = "ci";

	/** The agent's drive: a profile and seed no other test class uses. */
	private static final String DRIVE = "sim:test-client-7pct@35";

	/** A short job: the sim engine runs it in virtual time, in well under a second. */
	private static final int WORKLOAD_S = 30;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Path ROOT = Path.of(System.getProperty("drivequal.repository.root", "../.."))
		.toAbsolutePath()
		.normalize();

	/**
	 * podman's defaults that fail on these machines (crun refuses the cgroup layout; the
	 * default open-file limit is too low), a bound on a container left by a killed test
	 * JVM, then the runtime side of the chart's pod specs.
	 */
	private static final List<String> PODMAN_RUN = List.of("podman", "--runtime", "runc", "run", "--ulimit",
			"nofile=20000:20000", "--ulimit", "nproc=32768:32768", "--timeout", "900", "--read-only", "--security-opt",
			"no-new-privileges", "--cap-drop", "ALL", "--network", "host");

	private final Path dir = Path.of("target", "images").toAbsolutePath();

	@Test
	void bothImagesRunAsTheChartRunsThemAndQualifyASimulatedDrive() throws Exception {
		long testStart = System.nanoTime();
		Files.createDirectories(this.dir);
		Result check = run(Duration.ofSeconds(30), images("check"));
		Assumptions.assumeTrue(check.status() != SKIP, check.output());
		assertThat(check.status()).as(check.output()).isZero();

		long buildStart = System.nanoTime();
		Result build = run(Duration.ofMinutes(20), images("build", "--debian-base", "--tag", TAG));
		say(build.output());
		assertThat(build.status()).as(build.output()).isZero();
		long buildS = secondsSince(buildStart);

		long runnerStart = System.nanoTime();
		checkTheRunnerImageAlone();
		long runnerS = secondsSince(runnerStart);

		long serviceStart = System.nanoTime();
		qualifyThroughBothContainers();
		long serviceS = secondsSince(serviceStart);

		say("images: durations: build %d s, runner image checks %d s, service + agent containers %d s, total %d s"
			.formatted(buildS, runnerS, serviceS, secondsSince(testStart)));
	}

	/**
	 * drivequal-runner devices and a sim job, in the runner image as the DaemonSet runs
	 * it.
	 */
	private void checkTheRunnerImageAlone() throws Exception {
		Path etc = Files.createDirectories(this.dir.resolve("runner-alone"));
		// An allowlisted file stands for a drive: devices probes it (libblkid, io_uring).
		Path drive = etc.resolve("drive.img");
		try (var file = new java.io.RandomAccessFile(drive.toFile(), "rw")) {
			file.setLength(64L << 20);
		}
		Files.writeString(etc.resolve("allowlist.json"), """
				{"comment":"ContainerImagesIT","devices":[
				 {"transportAddress":"sim:test-client-7pct@1"},{"transportAddress":"/var/lib/drivequal/drive.img"}]}
				""");
		List<String> runner = runnerContainer(etc, "-v", drive + ":/var/lib/drivequal/drive.img", "--rm");

		Result heartbeat = run(Duration.ofSeconds(60), with(runner, "devices", "--allowlist",
				"/etc/drivequal/allowlist.json", "--runner-id", "ci", "--output-format", "json"));
		assertThat(heartbeat.status()).as(heartbeat.output()).isZero();
		JsonNode inventory = JSON.readTree(heartbeat.output());
		List<String> engines = new ArrayList<>();
		inventory.get("engines").forEach((engine) -> engines.add(engine.asString()));
		// Debian packages no SPDK: the CI-built runner has every engine but spdk.
		assertThat(engines).contains("uring", "sim", "null").doesNotContain("spdk");
		Result listing = run(Duration.ofSeconds(60),
				with(runner, "devices", "--allowlist", "/etc/drivequal/allowlist.json"));
		assertThat(listing.status()).as(listing.output()).isZero();
		say("images: runner devices: engines %s, runner %s; the runtime's default seccomp profile: %s"
			.formatted(engines, inventory.get("runnerVersion").asString(), driveLine(listing.output())));
		// The runtimes' default seccomp profiles (podman's, containerd 2's, CRI-O's)
		// refuse io_uring_setup, which the uring engine needs; unconfined, as the chart
		// runs
		// the runner by default, the image's uring engine and libblkid probe open the
		// drive
		// (docs/operations.md, "Images").
		List<String> unconfined = new ArrayList<>(runner);
		unconfined.addAll(unconfined.size() - 1, List.of("--security-opt", "seccomp=unconfined"));
		Result opened = run(Duration.ofSeconds(60),
				with(unconfined, "devices", "--allowlist", "/etc/drivequal/allowlist.json"));
		assertThat(opened.status()).as(opened.output()).isZero();
		assertThat(driveLine(opened.output())).as(opened.output()).contains("regular file").endsWith("allowed");
		say("images: runner devices: seccomp unconfined (as the chart): %s".formatted(driveLine(opened.output())));

		Result job = run(Duration.ofSeconds(120),
				with(runner, "run", "--engine", "sim", "--filename", "sim:test-client-7pct@1", "--rw", "randwrite",
						"--bs", "4k", "--iodepth", "32", "--runtime", "10", "--allowlist",
						"/etc/drivequal/allowlist.json", "--output-format", "json"));
		assertThat(job.status()).as(job.output()).isZero();
		List<JsonNode> messages = new ArrayList<>();
		for (String line : job.output().split("\n")) {
			if (line.startsWith("{")) {
				messages.add(JSON.readTree(line));
			}
		}
		long samples = messages.stream().filter((message) -> !message.has("type")).count();
		JsonNode last = messages.get(messages.size() - 1);
		assertThat(last.get("type").asString()).isEqualTo("completed");
		assertThat(samples).isEqualTo(10);
		say("images: runner sim job: %s, %d samples, %d messages".formatted(last.get("type").asString(), samples,
				messages.size()));
	}

	/**
	 * The runner image's agent owns a simulated drive; the service image, against the
	 * harness's Kafka and Elasticsearch, qualifies it.
	 */
	private void qualifyThroughBothContainers() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String suffix = UUID.randomUUID().toString().substring(0, 8);
		String runnerId = "image-" + suffix;
		String runnerName = "drivequal-it-runner-" + suffix;
		String serviceName = "drivequal-it-service-" + suffix;
		Path etc = Files.createDirectories(this.dir.resolve("agent"));
		// The ConfigMap's two files, in the shape runner-configmap.yaml renders.
		Files.writeString(etc.resolve("allowlist.json"), """
				{"comment":"ContainerImagesIT","devices":[{"transportAddress":"%s"}]}
				""".formatted(DRIVE));
		Files.writeString(etc.resolve("agent.json"), """
				{"brokers":"%s","kafka":{"security.protocol":"PLAINTEXT"},"heartbeatIntervalMs":5000,
				 "flushTimeoutMs":30000,"allowlist":"/etc/drivequal/allowlist.json",
				 "devices":[{"engine":"sim","target":"%s"}]}
				""".formatted(infrastructure.kafkaBootstrapServers(), DRIVE));
		int port = freePort();
		try {
			Result runner = run(Duration.ofSeconds(60),
					with(runnerContainer(etc, "--detach", "--name", runnerName, "--env", "NODE_NAME=" + runnerId),
							"agent", "--config", "/etc/drivequal/agent.json", "--runner-id", runnerId));
			assertThat(runner.status()).as(runner.output()).isZero();
			Result service = run(Duration.ofSeconds(60), serviceContainer(serviceName, infrastructure, port));
			assertThat(service.status()).as(service.output()).isZero();

			ApiClient api = new ApiClient("http://127.0.0.1:" + port);
			long started = System.nanoTime();
			// The chart's startup probe allows 180 s; a busy 2-core machine needs some of
			// it.
			await().atMost(Duration.ofSeconds(240))
				.pollInterval(Duration.ofSeconds(1))
				.failFast("the service container exited", () -> !running(serviceName))
				.ignoreExceptions()
				.until(() -> api.request(null, "GET", "/actuator/health/readiness", null).body().contains("\"UP\""));
			ApiClient.RawResponse health = api.request(null, "GET", "/actuator/health", null);
			assertThat(health.status()).as(health.body()).isEqualTo(200);
			assertThat(JSON.readTree(health.body()).get("status").asString()).isEqualTo("UP");
			String log = logs(serviceName);
			assertThat(log).contains("lz4: Kafka decompresses with the JNI binding (liblz4)");
			say("images: service container: health UP (liveness, readiness) %d s after start; log: \"%s\""
				.formatted(secondsSince(started), "lz4: Kafka decompresses with the JNI binding (liblz4)"));

			String serial = api.awaitDriveSerial(runnerId);
			ApiClient.Response submitted = api.submitRandomWrite(serial, runnerId, WORKLOAD_S);
			assertThat(submitted.status()).as(String.valueOf(submitted.body())).isEqualTo(201);
			String jobId = submitted.body().get("id").asString();
			long submittedAt = System.nanoTime();
			await().atMost(Duration.ofMinutes(3))
				.pollInterval(Duration.ofSeconds(1))
				.until(() -> api.get("viewer", "/api/v1/qualifications/" + jobId).body().has("verdict"));
			JsonNode qualification = api.get("viewer", "/api/v1/qualifications/" + jobId).body();
			JsonNode phase = qualification.get("analysis").get("phases").get(0);
			assertThat(qualification.get("state").asString()).isEqualTo("COMPLETED");
			assertThat(phase.get("samples").asInt()).isEqualTo(WORKLOAD_S);
			say("images: job %s on %s (runner container %s): %s, verdict %s, %d samples analysed, %d s after submission"
				.formatted(jobId, serial, runnerId, qualification.get("state").asString(),
						qualification.get("verdict").asString(), phase.get("samples").asInt(),
						secondsSince(submittedAt)));
		}
		finally {
			Files.writeString(this.dir.resolve("service.log"), logs(serviceName));
			Files.writeString(this.dir.resolve("agent.log"), logs(runnerName));
			run(Duration.ofSeconds(90), List.of("podman", "rm", "--force", "--time", "30", serviceName, runnerName));
		}
	}

	/**
	 * The runner DaemonSet's container: uid 0, every capability dropped but IPC_LOCK,
	 * /tmp and DPDK's runtime directory writable, the ConfigMap at /etc/drivequal.
	 */
	private static List<String> runnerContainer(Path etc, String... options) {
		List<String> command = new ArrayList<>(PODMAN_RUN);
		command.addAll(
				List.of("--user", "0:0", "--cap-add", "IPC_LOCK", "--memory", "2g", "--tmpfs", "/tmp:rw,exec,size=64m",
						"--tmpfs", "/var/run/dpdk:rw,size=16m", "--volume", etc + ":/etc/drivequal:ro"));
		command.addAll(List.of(options));
		command.add("drivequal/runner:" + TAG);
		return command;
	}

	/**
	 * The service Deployment's container: uid/gid 10001, its env as the chart renders it
	 * with the default values, local security mode's users as the usersSecret would give
	 * them.
	 */
	private static List<String> serviceContainer(String name, RealInfrastructure infrastructure, int port) {
		List<String> command = new ArrayList<>(PODMAN_RUN);
		command.addAll(List.of("--detach", "--name", name, "--user", "10001:10001", "--memory", "1g", "--tmpfs",
				"/tmp:rw,exec,mode=1777,size=256m"));
		List<String> environment = List.of("KAFKA_BOOTSTRAP_SERVERS=" + infrastructure.kafkaBootstrapServers(),
				"KAFKA_SECURITY_PROTOCOL=PLAINTEXT", "DRIVEQUAL_KAFKA_TOPICS_REPLICAS=0",
				"ELASTICSEARCH_URL=" + infrastructure.elasticsearchUrl(), "DRIVEQUAL_SECURITY_MODE=local",
				"DRIVEQUAL_LOG_FORMAT=ecs", "JAVA_TOOL_OPTIONS=-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError",
				"DRIVEQUAL_SAMPLE_INDEX_PERIOD=month", "DRIVEQUAL_INGEST_CONCURRENCY=6",
				"DRIVEQUAL_EVENTS_CONCURRENCY=3", "DRIVEQUAL_DISPATCH_CONCURRENCY=8",
				"MANAGEMENT_ENDPOINT_HEALTH_PROBES_ENABLED=true", "DRIVEQUAL_SECURITY_USERS_0_NAME=alice",
				"DRIVEQUAL_SECURITY_USERS_0_PASSWORD={noop}alice-pw", "DRIVEQUAL_SECURITY_USERS_0_ROLES=SUBMITTER",
				"DRIVEQUAL_SECURITY_USERS_1_NAME=viewer", "DRIVEQUAL_SECURITY_USERS_1_PASSWORD={noop}viewer-pw",
				"DRIVEQUAL_SECURITY_USERS_1_ROLES=VIEWER");
		for (String variable : environment) {
			command.addAll(List.of("--env", variable));
		}
		command.add("drivequal/service:" + TAG);
		command.add("--server.port=" + port);
		return command;
	}

	private static List<String> images(String... arguments) {
		List<String> command = new ArrayList<>(List.of(ROOT.resolve("service/bin/drivequal-images").toString()));
		command.addAll(List.of(arguments));
		return command;
	}

	private static List<String> with(List<String> command, String... arguments) {
		List<String> all = new ArrayList<>(command);
		all.addAll(List.of(arguments));
		return all;
	}

	private static boolean running(String name) throws Exception {
		return run(Duration.ofSeconds(30),
				List.of("podman", "container", "inspect", "--format", "{{.State.Running}}", name))
			.output()
			.strip()
			.equals("true");
	}

	private static String logs(String name) throws Exception {
		return run(Duration.ofSeconds(30), List.of("podman", "logs", name)).output();
	}

	private record Result(int status, String output) {
	}

	private static Result run(Duration timeout, List<String> command) throws Exception {
		Path output = Files.createTempFile("podman", ".out");
		try {
			Process process = new ProcessBuilder(command).directory(ROOT.toFile())
				.redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
				.start();
			if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException("timed out after " + timeout + ": " + command);
			}
			return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
		}
		finally {
			Files.delete(output);
		}
	}

	/** The allowlisted file's row of the devices listing, its columns single-spaced. */
	private static String driveLine(String listing) {
		return listing.lines()
			.filter((line) -> line.contains("drive.img"))
			.findFirst()
			.orElseThrow()
			.replaceAll("\\s+", " ");
	}

	private static long secondsSince(long nanoTime) {
		return TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - nanoTime);
	}

	private static void say(String text) {
		System.out.println(text.strip());
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}

/*
 * Runs in its own JVM (tag "isolated"): no Spring context of another test may consume the topic,
 * or the killed processes would not be what indexes the samples.
 *
 * The service is killed with SIGKILL three times while a job's 2000 samples stream in; after the
 * last restart Elasticsearch holds exactly 2000 documents for the job. Offsets committed only after
 * Elasticsearch acknowledged, plus deterministic ids, make crashes cost time, never data.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.drivequal.harness.RealInfrastructure;
import io.drivequal.service.it.ConsumerGroups;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Tag("isolated")
class ServiceCrashReplayIT {

	private static final int SAMPLES = 2000;

	private static final String GROUP = "drivequal-service-samples";

	@Test
	void killingTheServiceThreeTimesMidIngestLosesAndDuplicatesNothing() throws Exception {
		RealInfrastructure infrastructure = RealInfrastructure.shared();
		String jobId = "crash-" + UUID.randomUUID().toString().substring(0, 8);
		Path logs = Files.createDirectories(Path.of("target", "crash-replay"));
		// A private copy: a rebuild of target/*.jar must not pull classes from under
		// running processes.
		Path built = Path.of(System.getProperty("drivequal.service.jar"));
		assertThat(built).as("the packaged service jar").exists();
		Path jar = Files.copy(built, logs.resolve("service.jar"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
		Process service = startService(jar, infrastructure, logs.resolve("service-0.log"));
		try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers(),
						ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
				new StringSerializer(), new ByteArraySerializer());
				Admin admin = Admin.create(
						Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infrastructure.kafkaBootstrapServers()))) {
			int kills = 0;
			long indexedAtLastKill = 0;
			for (int t = 1; t <= SAMPLES; t++) {
				producer.send(new ProducerRecord<>("drivequal.samples", jobId, sample(jobId, t)));
				if (t % 5 == 0) {
					Thread.sleep(10);
				}
				// Kill mid-stream, at 25%, 50% and 75% of the job.
				if (t % (SAMPLES / 4) == 0 && kills < 3) {
					producer.flush();
					// Kill an instance that is ingesting: it must have indexed more of
					// the job
					// than the instance before it, else the kill would test nothing.
					long before = indexedAtLastKill;
					await().atMost(Duration.ofSeconds(180))
						.pollInterval(Duration.ofMillis(100))
						.until(() -> count(infrastructure, jobId) > before);
					indexedAtLastKill = count(infrastructure, jobId);
					service.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
					kills++;
					System.out.println("killed the service (SIGKILL) at t=" + t + " with " + indexedAtLastKill
							+ " samples indexed; restarting");
					service = startService(jar, infrastructure, logs.resolve("service-" + kills + ".log"));
				}
			}
			producer.flush();
			assertThat(kills).isEqualTo(3);
			ConsumerGroups.awaitCommittedToTheEnd(admin, GROUP, "drivequal.samples", Duration.ofSeconds(180));
			assertThat(count(infrastructure, jobId)).isEqualTo(SAMPLES);
		}
		finally {
			service.destroy();
			service.waitFor(30, TimeUnit.SECONDS);
		}
	}

	private static Process startService(Path jar, RealInfrastructure infrastructure, Path log) throws IOException {
		List<String> command = new ArrayList<>(List.of(
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-jar", jar.toString(),
				"--server.port=" + freePort(), "--server.address=127.0.0.1",
				"--spring.kafka.bootstrap-servers=" + infrastructure.kafkaBootstrapServers(),
				"--drivequal.elasticsearch.url=" + infrastructure.elasticsearchUrl(), "--drivequal.security.mode=local",
				// A killed member holds its partitions until its session expires; keep
				// that short.
				"--spring.kafka.consumer.properties.session.timeout.ms=6000",
				"--spring.kafka.consumer.properties.heartbeat.interval.ms=1000"));
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	private static byte[] sample(String jobId, int t) {
		long ios = 40000 + (t % 97);
		return ("{\"schemaVersion\":1,\"jobId\":\"" + jobId + "\",\"runnerId\":\"crash-runner\","
				+ "\"deviceSerial\":\"SIM-CRASH\",\"phaseIndex\":2,\"phaseName\":\"randwrite-4k-qd32\",\"t\":" + t
				+ ",\"timeMs\":" + (1795381200000L + t * 1000L) + ",\"read\":{\"ios\":0,\"bytes\":0},"
				+ "\"write\":{\"ios\":" + ios + ",\"bytes\":" + ios * 4096
				+ ",\"latencyNs\":{\"p50\":72191,\"p99\":158719,\"p999\":342015,\"max\":1201151}}}")
			.getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

	private static long count(RealInfrastructure infrastructure, String jobId) throws Exception {
		var http = java.net.http.HttpClient.newHttpClient();
		String base = infrastructure.elasticsearchUrl();
		http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/drivequal-samples-*/_refresh"))
			.POST(java.net.http.HttpRequest.BodyPublishers.noBody())
			.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
		String body = http
			.send(java.net.http.HttpRequest
				.newBuilder(java.net.URI.create(base + "/drivequal-samples-*/_count?q=jobId:" + jobId))
				.GET()
				.build(), java.net.http.HttpResponse.BodyHandlers.ofString())
			.body();
		// A 503 (the month's index just created, its shard not yet assigned) counts as
		// nothing indexed yet, so the waits poll again instead of failing.
		if (!body.matches(".*\"count\":\\d+.*")) {
			return -1;
		}
		return Long.parseLong(body.replaceAll(".*\"count\":(\\d+).*", "$1"));
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}

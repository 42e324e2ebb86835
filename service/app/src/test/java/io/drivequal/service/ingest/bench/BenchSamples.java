/*
 * Realistic per-second samples for the ingest benchmark: the canonical message bytes a runner
 * produces (schemas/examples/sample/valid) and the document the service stores for the same
 * sample (the shape of io.drivequal.service.ingest.SampleDocument), with the same deterministic
 * id jobId/phaseIndex/t.
 */
package io.drivequal.service.ingest.bench;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

final class BenchSamples {

	private static final String[] PHASES = { "randwrite-4k-qd32", "randread-4k-qd32", "mixed-70-30-4k-qd32",
			"seqwrite-128k-qd32" };

	/** The service's monthly samples index of a time: drivequal-samples-yyyy.MM. */
	static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyy.MM").withZone(ZoneOffset.UTC);

	/**
	 * Throughput samples carry times in one fixed past month, so every throughput run
	 * writes into the same fresh index, apart from the current month's freshness index.
	 */
	static final long THROUGHPUT_BASE_MS = LocalDate.now(ZoneOffset.UTC)
		.withDayOfMonth(1)
		.minusMonths(6)
		.plusDays(10)
		.atStartOfDay()
		.toInstant(ZoneOffset.UTC)
		.toEpochMilli();

	static final String THROUGHPUT_INDEX = "drivequal-samples-"
			+ MONTH.format(Instant.ofEpochMilli(THROUGHPUT_BASE_MS));

	private BenchSamples() {
	}

	/**
	 * Samples of a throughput run over {@code jobs} jobs in the order runners produce
	 * them: second by second.
	 */
	static List<Sample> throughput(String run, int count, int jobs) {
		List<Sample> samples = new ArrayList<>(count);
		int perJob = (count + jobs - 1) / jobs;
		for (int t = 1; t <= perJob && samples.size() < count; t++) {
			for (int job = 0; job < jobs && samples.size() < count; job++) {
				samples.add(sample(run, job, t, THROUGHPUT_BASE_MS + t * 1000L));
			}
		}
		return samples;
	}

	/**
	 * One sample; {@code read}/{@code write} latency is null when that direction did no
	 * IO.
	 */
	record Sample(String jobId, String runnerId, String deviceSerial, int phaseIndex, String phaseName, int t,
			long timeMs, Direction read, Direction write) {

		String documentId() {
			return this.jobId + "/" + this.phaseIndex + "/" + this.t;
		}

		/** The canonical message, byte for byte the form the C runner encodes. */
		byte[] message() {
			StringBuilder json = new StringBuilder(360);
			json.append("{\"schemaVersion\":1,\"jobId\":\"")
				.append(this.jobId)
				.append("\",\"runnerId\":\"")
				.append(this.runnerId)
				.append("\",\"deviceSerial\":\"")
				.append(this.deviceSerial)
				.append("\",\"phaseIndex\":")
				.append(this.phaseIndex)
				.append(",\"phaseName\":\"")
				.append(this.phaseName)
				.append("\",\"t\":")
				.append(this.t)
				.append(",\"timeMs\":")
				.append(this.timeMs)
				.append(",\"read\":");
			this.read.appendTo(json);
			json.append(",\"write\":");
			this.write.appendTo(json);
			json.append('}');
			return json.toString().getBytes(StandardCharsets.UTF_8);
		}

		/** What the service stores for this sample (SampleDocument.of). */
		Document document() {
			return new Document(this.timeMs, this.jobId, this.runnerId, this.deviceSerial, null, null, null,
					this.phaseIndex, this.phaseName, this.t, this.read.ios() + this.write.ios(), this.read.document(),
					this.write.document());
		}

	}

	record Direction(long ios, long bytes, Latency latencyNs) {

		void appendTo(StringBuilder json) {
			json.append("{\"ios\":").append(this.ios).append(",\"bytes\":").append(this.bytes);
			if (this.latencyNs != null) {
				json.append(",\"latencyNs\":{\"p50\":")
					.append(this.latencyNs.p50())
					.append(",\"p99\":")
					.append(this.latencyNs.p99())
					.append(",\"p999\":")
					.append(this.latencyNs.p999())
					.append(",\"max\":")
					.append(this.latencyNs.max())
					.append('}');
			}
			json.append('}');
		}

		DirectionDocument document() {
			return new DirectionDocument(this.ios, this.bytes, this.bytes / 1e6, this.latencyNs);
		}

	}

	record Latency(long p50, long p99, long p999, long max) {
	}

	/**
	 * Mirror of SampleDocument (package-private in the service, so not reachable here).
	 * The bench's jobs are not in the jobs index, so the service stores them without
	 * drive labels, as this does.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record Document(@JsonProperty("@timestamp") long timestampMs, String jobId, String runnerId, String deviceSerial,
			String driveModel, String firmware, Boolean simulated, int phaseIndex, String phaseName, int t,
			long totalIops, DirectionDocument read, DirectionDocument write) {
	}

	@JsonInclude(JsonInclude.Include.NON_NULL)
	record DirectionDocument(long iops, long bytes, double mbPerS, Latency latencyNs) {
	}

	/** The job id of job {@code job} of a run, all of the same length. */
	static String jobId(String run, int job) {
		return String.format("bench-%s-j%04d", run, job);
	}

	/**
	 * Sample {@code t} of job {@code job}: a drive of that job's phase doing realistic
	 * IOPS, bytes and latency percentiles, varying from second to second.
	 */
	static Sample sample(String run, int job, int t, long timeMs) {
		SplittableRandom random = new SplittableRandom(((long) job << 32) ^ t);
		int kind = job % PHASES.length;
		String serial = String.format("S6CKNE0T%06d", job);
		String runner = String.format("rack%d-host%d", job % 8, job % 24);
		Direction none = new Direction(0, 0, null);
		Direction read = none;
		Direction write = none;
		switch (kind) {
			case 0 -> write = direction(random, 380_000, 4096, 72_000);
			case 1 -> read = direction(random, 900_000, 4096, 90_000);
			case 2 -> {
				read = direction(random, 350_000, 4096, 110_000);
				write = direction(random, 150_000, 4096, 60_000);
			}
			default -> write = direction(random, 55_000, 131_072, 560_000);
		}
		return new Sample(jobId(run, job), runner, serial, 2, PHASES[kind], t, timeMs, read, write);
	}

	private static Direction direction(SplittableRandom random, long meanIops, int blockSize, long p50) {
		long ios = meanIops - meanIops / 10 + random.nextLong(meanIops / 5);
		long median = p50 - p50 / 10 + random.nextLong(p50 / 5);
		long p99 = median * 2 + random.nextLong(median);
		long p999 = p99 * 2 + random.nextLong(p99);
		long max = p999 * 3 + random.nextLong(p999 * 4);
		return new Direction(ios, ios * blockSize, new Latency(median, p99, p999, max));
	}

}

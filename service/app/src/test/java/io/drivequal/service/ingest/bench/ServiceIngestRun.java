/*
 * The path the ingest benchmark measures: samples produced to Kafka while the service's sample
 * listener is paused (stopped before the first run), then the listener resumed and its committed
 * offsets timed to the end, so the rate includes decoding, schema validation, bulk indexing and
 * committing after acknowledgement.
 */
package io.drivequal.service.ingest.bench;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.ProducerRecord;

final class ServiceIngestRun {

	private final BenchStack stack;

	private final BenchSettings settings;

	ServiceIngestRun(BenchStack stack, BenchSettings settings) {
		this.stack = stack;
		this.settings = settings;
	}

	/** Times {@code count} samples from the first committed batch to the last. */
	BenchReport.Run run(String run, int count) throws Exception {
		this.stack.freshIndex(BenchSamples.THROUGHPUT_INDEX);
		long committedBefore = this.stack.committed();
		for (BenchSamples.Sample sample : BenchSamples.throughput(run, count, this.settings.jobs())) {
			this.stack.producer.send(new ProducerRecord<>(BenchStack.SAMPLES_TOPIC, sample.jobId(), sample.message()));
		}
		this.stack.producer.flush();
		long target = this.stack.endOffsets() - committedBefore;
		if (target != count) {
			throw new IllegalStateException("expected " + count + " new records on " + BenchStack.SAMPLES_TOPIC
					+ ", found " + target + " (is another consumer or producer using the topic?)");
		}
		JitQuiet.await();
		long startNanos = System.nanoTime();
		this.stack.consumeSamples();
		long firstNanos = 0;
		long firstDone = 0;
		Processes.Cpu cpuAtFirst = null;
		Map<String, Long> threadsAtFirst = Map.of();
		long deadline = startNanos + TimeUnit.MINUTES.toNanos(10);
		long done;
		while (true) {
			done = this.stack.committed() - committedBefore;
			long now = System.nanoTime();
			if (done > 0 && firstNanos == 0) {
				firstNanos = now;
				firstDone = done;
				cpuAtFirst = this.stack.processes.cpu();
				threadsAtFirst = ThreadCpu.snapshot();
			}
			if (done >= count) {
				break;
			}
			if (now > deadline) {
				throw new IllegalStateException("service committed only " + done + " of " + count + " in 10 min");
			}
			// Polling the group's offsets costs the broker and this JVM CPU the ceiling
			// does not pay: fine-grained only near the start and the end of the run.
			Thread.sleep((done == 0 || done > count * 0.9) ? 20 : 250);
		}
		long lastNanos = System.nanoTime();
		Processes.Cpu cpu = this.stack.processes.cpu().minus(cpuAtFirst);
		if (this.settings.threadCpu()) {
			IngestBenchmark.log("JVM threads, CPU ms: %s", ThreadCpu.since(threadsAtFirst));
		}
		this.stack.pauseSamples();
		this.stack.expectDocuments(BenchSamples.THROUGHPUT_INDEX, count);
		BenchReport.Run result = new BenchReport.Run(count - firstDone, lastNanos - firstNanos, cpu);
		IngestBenchmark.log(
				"service %s: first batch (%d) committed %.2f s after start, then %d samples in %.2f s = %.0f samples/s;"
						+ " CPU s %s",
				run, firstDone, (firstNanos - startNanos) / 1e9, count - firstDone, (lastNanos - firstNanos) / 1e9,
				result.rate(), cpu);
		return result;
	}

}

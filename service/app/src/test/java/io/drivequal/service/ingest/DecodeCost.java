/*
 * The ingest benchmark's decode figure: CPU time per sample of the stream decoder and of the
 * general path (tree, compiled schema check, binding) on the same messages, in one thread. It
 * lives beside the decoders because both are package-private.
 */
package io.drivequal.service.ingest;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.schemas.Validation;

public final class DecodeCost {

	private static final int WARMUP_ROUNDS = 5;

	private static final int ROUNDS = 5;

	private DecodeCost() {
	}

	/**
	 * Median CPU nanoseconds per sample of each path, and how many the stream vouched
	 * for.
	 */
	public record Result(double streamNanos, double generalNanos, int vouched, int messages) {
	}

	/**
	 * Decodes every message {@code repeats} times per round by each path.
	 * @throws IllegalStateException when the two paths bind a message differently
	 */
	public static Result measure(Contracts contracts, List<byte[]> messages, int repeats) {
		SampleStreamDecoder stream = new SampleStreamDecoder(contracts);
		int vouched = 0;
		for (byte[] message : messages) {
			SampleMessage streamed = stream.decode(message);
			Validation validation = contracts.validate(MessageType.SAMPLE, message);
			SampleMessage general = validation.valid() ? SampleListener.sampleOf(validation.message()) : null;
			if (streamed != null && !streamed.equals(general)) {
				throw new IllegalStateException("the two paths differ on " + new String(message));
			}
			vouched += (streamed != null) ? 1 : 0;
		}
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		double[] streamNanos = new double[ROUNDS];
		double[] generalNanos = new double[ROUNDS];
		long sink = 0;
		for (int round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
			long start = threads.getCurrentThreadCpuTime();
			for (int r = 0; r < repeats; r++) {
				for (byte[] message : messages) {
					sink += stream.decode(message).t();
				}
			}
			long middle = threads.getCurrentThreadCpuTime();
			for (int r = 0; r < repeats; r++) {
				for (byte[] message : messages) {
					sink += SampleListener.sampleOf(contracts.validate(MessageType.SAMPLE, message).message()).t();
				}
			}
			long end = threads.getCurrentThreadCpuTime();
			if (round >= 0) {
				streamNanos[round] = (middle - start) / (double) (repeats * messages.size());
				generalNanos[round] = (end - middle) / (double) (repeats * messages.size());
			}
		}
		if (sink == 42) {
			System.out.print(""); // keeps the loops' results alive
		}
		return new Result(median(streamNanos), median(generalNanos), vouched, messages.size());
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

}

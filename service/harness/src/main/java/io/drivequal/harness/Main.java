// The "run everything locally" entry point: real ES + Kafka until Ctrl-C, endpoints in a file for scripts.
package io.drivequal.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code up --dir
 *
<dir>
 *  [--es-heap-mb N] [--kafka-heap-mb N] [--start-timeout-s N]}: starts both, writes
 * {@code
 *
<dir>
 * /endpoints.env}, blocks until SIGINT/SIGTERM, then stops both and removes the file so
 * no script reads stale endpoints. Logs stay under {@code
 *
<dir>
 * }.
 */
public final class Main {

	private static final String USAGE = "usage: Main up --dir <dir> [--es-heap-mb N] [--kafka-heap-mb N] [--start-timeout-s N]";

	private Main() {
	}

	public static void main(String[] args) throws InterruptedException {
		if (args.length == 0 || !args[0].equals("up")) {
			System.err.println(USAGE);
			System.exit(2);
		}
		Path dir = null;
		int esHeapMb = 512;
		int kafkaHeapMb = 512;
		long startTimeoutS = 120;
		for (int i = 1; i < args.length; i += 2) {
			if (i + 1 >= args.length) {
				System.err.println(USAGE);
				System.exit(2);
			}
			switch (args[i]) {
				case "--dir" -> dir = Path.of(args[i + 1]).toAbsolutePath();
				case "--es-heap-mb" -> esHeapMb = Integer.parseInt(args[i + 1]);
				case "--kafka-heap-mb" -> kafkaHeapMb = Integer.parseInt(args[i + 1]);
				case "--start-timeout-s" -> startTimeoutS = Long.parseLong(args[i + 1]);
				default -> {
					System.err.println(USAGE);
					System.exit(2);
				}
			}
		}
		if (dir == null) {
			System.err.println(USAGE);
			System.exit(2);
		}
		up(dir, esHeapMb, kafkaHeapMb, startTimeoutS);
	}

	private static void up(Path dir, int esHeapMb, int kafkaHeapMb, long startTimeoutS) throws InterruptedException {
		RealInfrastructure infrastructure = RealInfrastructure.start(dir, esHeapMb, kafkaHeapMb, startTimeoutS);
		Path endpoints = dir.resolve("endpoints.env");
		String text = "ELASTICSEARCH_URL=" + infrastructure.elasticsearchUrl() + "\nKAFKA_BOOTSTRAP_SERVERS="
				+ infrastructure.kafkaBootstrapServers() + "\n";
		write(endpoints, text);
		System.out.print(text);
		System.out.println("[harness] endpoints in " + endpoints + "; Ctrl-C (SIGINT) or SIGTERM stops both");
		CountDownLatch stopped = new CountDownLatch(1);
		// Runs alongside the harness's own hook; stopping twice is harmless and this one
		// reports it.
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			try {
				Files.deleteIfExists(endpoints);
			}
			catch (IOException ex) {
				System.err.println("[harness] could not remove " + endpoints + ": " + ex);
			}
			infrastructure.close();
			System.out.println("[harness] stopped; logs kept under " + dir);
			stopped.countDown();
		}, "drivequal-harness-main-stop"));
		stopped.await();
	}

	private static void write(Path file, String text) {
		try {
			Files.createDirectories(file.getParent());
			Files.writeString(file, text);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

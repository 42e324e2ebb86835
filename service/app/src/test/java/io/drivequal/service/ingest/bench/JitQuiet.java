/*
 * Waits, before a timed window, until the JIT compilers have finished what the work before it
 * queued. Producing the service's samples and building the ceiling's documents run in this JVM
 * right before each window, and their compilations could otherwise run inside it, charged to
 * whichever path ran next. Hygiene, not a measured fix: the compilers' time inside service runs
 * did not drop with it (docs/benchmarks.md, "the JIT's share"); keeping the consumers running
 * between runs did that.
 */
package io.drivequal.service.ingest.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

final class JitQuiet {

	private static final long POLL_MS = 250;

	private static final long MAX_MS = 15_000;

	private JitQuiet() {
	}

	/**
	 * Returns once the total compilation time held still for two polls, or after 15 s.
	 */
	static void await() throws InterruptedException {
		CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
		if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
			return;
		}
		long last = jit.getTotalCompilationTime();
		int still = 0;
		for (long waited = 0; waited < MAX_MS && still < 2; waited += POLL_MS) {
			Thread.sleep(POLL_MS);
			long now = jit.getTotalCompilationTime();
			still = (now == last) ? still + 1 : 0;
			last = now;
		}
		if (still < 2) {
			IngestBenchmark.log("the JIT compilers were still busy after %d s; measuring anyway", MAX_MS / 1000);
		}
	}

}

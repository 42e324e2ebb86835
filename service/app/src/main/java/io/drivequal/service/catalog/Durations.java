/*
 * Expected phase durations, for progress and ETA. Timed phases are exact; the others are estimates
 * from the drive's capacity at a nominal sequential speed (stated, not measured), so an ETA is a
 * guide, never a promise.
 */
package io.drivequal.service.catalog;

import java.util.List;

public final class Durations {

	/**
	 * Nominal sequential write speed for estimates: a mid-range datacenter NVMe drive.
	 */
	public static final long NOMINAL_SEQUENTIAL_BYTES_PER_S = 2_000_000_000L;

	/** Nominal 4KiB random write rate for sized random phases. */
	public static final long NOMINAL_RANDOM_BYTES_PER_S = 400_000_000L;

	private static final long PURGE_S = 60;

	private static final long DEALLOCATE_S = 10;

	private static final long SMART_S = 1;

	private Durations() {
	}

	/**
	 * Never fails on a phase the contract will refuse (no kind, no passes): a submission
	 * estimates its duration before the contract check names what is missing, and a
	 * missing kind was a 500 (found by the contract fuzzer, ContractFuzzIT).
	 */
	public static long expectedS(PhaseSpec phase, long capacityBytes) {
		return switch (String.valueOf(phase.kind())) {
			case "workload" ->
				(phase.rounds() != null) ? phase.rounds().maxDurationS() : workloadS(phase, capacityBytes);
			case "precondition" ->
				ceilDiv((long) (capacityBytes * range(phase) / 100.0) * ((phase.passes() != null) ? phase.passes() : 1),
						NOMINAL_SEQUENTIAL_BYTES_PER_S);
			case "idle" -> (phase.idleS() != null) ? phase.idleS() : 0;
			case "purge" -> PURGE_S;
			case "deallocate" -> DEALLOCATE_S;
			case "verify" -> ceilDiv((long) (capacityBytes * range(phase) / 100.0), NOMINAL_SEQUENTIAL_BYTES_PER_S);
			default -> SMART_S;
		};
	}

	public static long expectedS(List<PhaseSpec> phases, long capacityBytes) {
		return phases.stream().mapToLong((phase) -> expectedS(phase, capacityBytes)).sum();
	}

	/** A time limit, a size at the nominal speed, or with both the nearer of the two. */
	private static long workloadS(PhaseSpec phase, long capacityBytes) {
		if (phase.sizeBytes() == null && phase.capacityMultiple() == null) {
			return (phase.runtimeS() != null) ? phase.runtimeS() : 0;
		}
		long bySize = ceilDiv(bytes(phase, capacityBytes), (phase.rw() != null && phase.rw().startsWith("rand"))
				? NOMINAL_RANDOM_BYTES_PER_S : NOMINAL_SEQUENTIAL_BYTES_PER_S);
		return (phase.runtimeS() != null) ? Math.min(phase.runtimeS(), bySize) : bySize;
	}

	private static long bytes(PhaseSpec phase, long capacityBytes) {
		if (phase.sizeBytes() != null) {
			return phase.sizeBytes();
		}
		return (phase.capacityMultiple() != null) ? phase.capacityMultiple() * capacityBytes : 0;
	}

	private static double range(PhaseSpec phase) {
		return (phase.rangePercent() != null) ? phase.rangePercent() : 100.0;
	}

	private static long ceilDiv(long a, long b) {
		return (a + b - 1) / b;
	}

}

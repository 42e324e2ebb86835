/*
 * Expected phase durations before anything is measured: a profile's duration in the catalog, a
 * submission's expectedDurationS, and the ETA of a phase that has neither a measurement nor a history
 * (qualification.EtaEstimator says which an ETA rests on). Timed phases are exact; the others are
 * estimates from the drive's capacity at nominal speeds (stated, not measured), so such an ETA is a
 * guide, never a promise.
 */
package io.drivequal.service.catalog;

import java.util.List;
import java.util.Map;

public final class Durations {

	/**
	 * Nominal sequential write speed for estimates: a mid-range datacenter NVMe drive.
	 */
	public static final long NOMINAL_SEQUENTIAL_BYTES_PER_S = 2_000_000_000L;

	/** Nominal 4KiB random write rate for sized random phases. */
	public static final long NOMINAL_RANDOM_BYTES_PER_S = 400_000_000L;

	/**
	 * A purge's effective erase rate by method, bytes of capacity per second, with the
	 * range drives of that method span (fastest, slowest). Crypto erases change a key and
	 * take seconds whatever the capacity; Format with user-data erase and Sanitize block
	 * erase erase every block (minutes on a large drive); Sanitize overwrite writes every
	 * block (hours); deallocate is a TRIM of the whole range. Nominal, like the speeds
	 * above.
	 */
	private static final Map<String, long[]> PURGE_BYTES_PER_S = Map.of("format-user-data",
			new long[] { 8_000_000_000L, 64_000_000_000L, 1_000_000_000L }, "sanitize-block",
			new long[] { 4_000_000_000L, 32_000_000_000L, 500_000_000L }, "sanitize-overwrite",
			new long[] { 1_000_000_000L, 3_000_000_000L, 200_000_000L }, "deallocate",
			new long[] { 200_000_000_000L, 1_000_000_000_000L, 20_000_000_000L });

	/** A crypto erase, whatever the capacity: nominal, fastest, slowest. */
	private static final long[] CRYPTO_ERASE_S = { 10, 2, 60 };

	/** Writing the purge's canaries and reading them back. */
	private static final long PURGE_PROOF_S = 2;

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
			case "purge" -> purgeS(phase.purgeMethod(), capacityBytes).nominalS();
			case "deallocate" -> DEALLOCATE_S;
			case "power-cycle" -> (phase.powerCycle() != null) ? phase.powerCycle().nominalS() : SMART_S;
			case "verify" -> ceilDiv((long) (capacityBytes * range(phase) / 100.0), NOMINAL_SEQUENTIAL_BYTES_PER_S);
			default -> SMART_S;
		};
	}

	/**
	 * A nominal duration with the range drives span.
	 *
	 * @param nominalS the estimate
	 * @param lowS, highS the fastest and the slowest a drive of the kind takes
	 */
	public record Span(long nominalS, long lowS, long highS) {
	}

	/**
	 * A purge by its method and the drive's capacity. {@code auto} is the strongest the
	 * drive supports (Sanitize, else Format with user-data erase, else deallocate):
	 * before the runner reports what it ran, Sanitize block erase, spanning a crypto
	 * erase to a slow block erase.
	 */
	public static Span purgeS(String method, long capacityBytes) {
		if ("format-crypto".equals(method) || "sanitize-crypto".equals(method)) {
			return new Span(CRYPTO_ERASE_S[0] + PURGE_PROOF_S, CRYPTO_ERASE_S[1] + PURGE_PROOF_S,
					CRYPTO_ERASE_S[2] + PURGE_PROOF_S);
		}
		long[] rates = PURGE_BYTES_PER_S.getOrDefault(method, PURGE_BYTES_PER_S.get("sanitize-block"));
		long lowS = "auto".equals(method) || method == null ? CRYPTO_ERASE_S[1] : ceilDiv(capacityBytes, rates[1]);
		return new Span(ceilDiv(capacityBytes, rates[0]) + PURGE_PROOF_S, lowS + PURGE_PROOF_S,
				ceilDiv(capacityBytes, rates[2]) + PURGE_PROOF_S);
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
		if (a <= 0) {
			return 0;
		}
		return (a + b - 1) / b;
	}

}

/*
 * One line per test saying where the run departs from SNIA's Performance Test Specification:
 * the purge that really ran (a deallocate is a TRIM, not a PTS purge), the workload-independent
 * preconditioning (2 x the user capacity of 128KiB sequential writes before a test of rounds), the
 * volatile write cache's state (PTS requires it reported), the active range (100 % of the LBAs)
 * and the rounds (to steady state, at most 25; a write saturation instead runs to 4 x the capacity
 * or 24 h). The tests are the plan's workload phases, or its phases with rounds when it has any, as
 * the report's SNIA pages count them. Pure: the plan, the phases' results and the drive's probed
 * capabilities are given.
 */
package io.drivequal.service.analysis;

import java.util.ArrayList;
import java.util.List;

import java.util.Optional;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.runners.Capability;

final class SniaConformance {

	/** PTS's WIPC: twice the user capacity of 128KiB sequential writes. */
	static final double WIPC_CAPACITY_MULTIPLE = 2.0;

	static final int WIPC_BLOCK_BYTES = 128 * 1024;

	/** PTS's write saturation: 4 x the user capacity, or 24 h. */
	static final long WSAT_CAPACITY_MULTIPLE = 4;

	static final long WSAT_RUNTIME_S = 24 * 3600;

	private SniaConformance() {
	}

	/**
	 * @param purge the purge that ran, as the runner reported it (format-*, sanitize-*,
	 * deallocate), or a sentence when there was none or it is not known
	 * @param departures each place the test departs from PTS, in words; empty when it
	 * conforms
	 * @param line "SNIA PTS: conformant (…)" or "SNIA PTS: not conformant: …"
	 */
	record TestLine(int phaseIndex, String phaseName, boolean conformant, String purge, String wipc, String writeCache,
			String activeRange, String rounds, List<String> departures, String line) {
	}

	/**
	 * @param phases the job's phases in plan order, with their results (null: none)
	 * @param capabilities the drive's probed capabilities at submission (null: not
	 * probed)
	 * @param capacityBytes the drive's user capacity (null: unknown)
	 */
	static List<TestLine> of(List<JobAnalyzer.PhaseInput> phases, List<Capability> capabilities, Long capacityBytes) {
		boolean withRounds = phases.stream().anyMatch((p) -> p.spec().isWorkload() && p.spec().rounds() != null);
		List<TestLine> lines = new ArrayList<>();
		JobAnalyzer.PhaseInput purge = null;
		List<PhaseSpec> wipc = new ArrayList<>();
		for (JobAnalyzer.PhaseInput phase : phases) {
			PhaseSpec spec = phase.spec();
			if ("purge".equals(spec.kind())) {
				purge = phase;
				wipc = new ArrayList<>();
			}
			else if ("precondition".equals(spec.kind())) {
				wipc.add(spec);
			}
			else if (spec.isWorkload() && (!withRounds || spec.rounds() != null)) {
				lines.add(line(phase, purge, wipc, capabilities, capacityBytes));
			}
		}
		return lines;
	}

	private static TestLine line(JobAnalyzer.PhaseInput test, JobAnalyzer.PhaseInput purge, List<PhaseSpec> wipc,
			List<Capability> capabilities, Long capacityBytes) {
		PhaseSpec spec = test.spec();
		List<String> departures = new ArrayList<>();
		String purgeText = purge(purge, departures);
		String wipcText = wipc(spec, wipc, departures);
		String cacheText = writeCache(capabilities, departures);
		double range = (spec.rangePercent() != null) ? spec.rangePercent() : 100;
		String rangeText = number(range) + " % of the LBAs";
		if (range < 100) {
			departures.add("active range " + rangeText + ", PTS measures over 100 %");
		}
		String roundsText = rounds(test, capacityBytes, departures);
		String line = departures.isEmpty()
				? "SNIA PTS: conformant (purge " + purgeText + "; WIPC " + wipcText + "; write cache " + cacheText
						+ "; active range " + rangeText + "; " + roundsText + ")"
				: "SNIA PTS: not conformant: " + String.join("; ", departures);
		return new TestLine(spec.index(), spec.name(), departures.isEmpty(), purgeText, wipcText, cacheText, rangeText,
				roundsText, List.copyOf(departures), line);
	}

	private static String purge(JobAnalyzer.PhaseInput purge, List<String> departures) {
		if (purge == null) {
			departures.add("no purge before the test, PTS starts every test from a purge (Format/Sanitize)");
			return "none";
		}
		String method = Optional.ofNullable(purge.result())
			.map(PhaseResult::purgeVerification)
			.map(PhaseResult.PurgeVerification::method)
			.orElse(null);
		if (method == null) {
			departures.add("the purge's method is not known (purgeMethod " + purge.spec().purgeMethod()
					+ "; the runner did not report what ran), PTS requires Format/Sanitize");
			return "unknown (asked " + purge.spec().purgeMethod() + ")";
		}
		if ("deallocate".equals(method)) {
			departures.add("purge was deallocate (TRIM), PTS requires Format/Sanitize");
			return "deallocate (TRIM)";
		}
		return method;
	}

	private static String wipc(PhaseSpec test, List<PhaseSpec> wipc, List<String> departures) {
		double multiple = 0;
		boolean sequential128k = !wipc.isEmpty();
		for (PhaseSpec spec : wipc) {
			multiple += ((spec.passes() != null) ? spec.passes() : 1)
					* (((spec.rangePercent() != null) ? spec.rangePercent() : 100) / 100);
			sequential128k &= (spec.rw() == null || "write".equals(spec.rw()))
					&& Integer.valueOf(WIPC_BLOCK_BYTES).equals(spec.blockSizeBytes());
		}
		String text = wipc.isEmpty() ? "none" : number(multiple) + " × the user capacity of "
				+ (sequential128k ? "128KiB sequential writes" : "writes that are not all 128KiB sequential");
		if (test.rounds() != null && (multiple < WIPC_CAPACITY_MULTIPLE || !sequential128k)) {
			departures.add(
					"WIPC " + text + ", PTS preconditions with 2 × the user capacity of 128KiB sequential " + "writes");
		}
		return text;
	}

	private static String writeCache(List<Capability> capabilities, List<String> departures) {
		Optional<Capability> cache = Capability.find(capabilities, "volatile-write-cache");
		if (cache.isEmpty()) {
			departures.add("write cache state not known (the runner did not probe it), PTS requires it reported");
			return "unknown";
		}
		Capability c = cache.get();
		if (c.available()) {
			if (c.enabled() == null) {
				departures.add("write cache state not read (" + c.detail() + "), PTS requires it reported");
				return "present, setting unknown";
			}
			return c.enabled() ? "enabled" : "disabled";
		}
		if ("device-lacks-it".equals(c.missing())) {
			return "none (no volatile write cache)";
		}
		departures.add("write cache state not known (" + c.missing() + "), PTS requires it reported");
		return "unknown (" + c.missing() + ")";
	}

	private static String rounds(JobAnalyzer.PhaseInput test, Long capacityBytes, List<String> departures) {
		PhaseSpec spec = test.spec();
		if (spec.rounds() != null) {
			PhaseResult.RoundsResult rounds = (test.result() != null) ? test.result().rounds() : null;
			if (rounds == null) {
				departures.add("the rounds' outcome is not known (the runner did not report it)");
				return "rounds: outcome unknown";
			}
			if ("steady".equals(rounds.stoppedBecause())) {
				return "steady state reached at round " + rounds.reachedAtRound() + " of at most "
						+ spec.rounds().maxRounds();
			}
			String text = "not steady in " + rounds.roundsRun() + " rounds";
			departures.add("steady state not reached in " + rounds.roundsRun()
					+ " rounds, PTS reports such a test as not steady");
			return text;
		}
		boolean saturation = "randwrite".equals(spec.rw()) && ((capacityBytes != null && spec.sizeBytes() != null
				&& spec.sizeBytes() >= WSAT_CAPACITY_MULTIPLE * capacityBytes)
				|| (spec.runtimeS() != null && spec.runtimeS() >= WSAT_RUNTIME_S));
		if (saturation) {
			return "write saturation to 4 × the capacity or 24 h";
		}
		String limit = (spec.runtimeS() != null) ? spec.runtimeS() + " s"
				: (spec.sizeBytes() != null) ? spec.sizeBytes() + " bytes" : "its limit";
		departures.add("a fixed " + limit + " run, not PTS rounds to steady state (nor a write saturation to 4 × "
				+ "the capacity or 24 h)");
		return "fixed " + limit;
	}

	private static String number(double value) {
		return (value == Math.rint(value)) ? String.valueOf((long) value) : String.valueOf(value);
	}

}

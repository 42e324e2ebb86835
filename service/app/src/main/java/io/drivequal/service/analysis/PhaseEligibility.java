/*
 * Where a job's plan gives the steady-state rule its history: whether a purge or fill precedes the
 * phase (or the history is unknown, as for an imported log), which earlier phases wrote at random
 * since then, how large the tested range is, and W of the written-bytes fallback. Where the fresh
 * state ended is judged by io.drivequal.analysis.FreshState; this only reads the plan.
 */
package io.drivequal.service.analysis;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.drivequal.analysis.Eligibility;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.ingest.SamplePoint;

final class PhaseEligibility {

	/**
	 * Phases after which the drive is fresh again: a purge erases it, a fill
	 * (precondition) writes the range sequentially, a deallocation hands the range back
	 * as free space.
	 */
	private static final Set<String> RESETS = Set.of("purge", "precondition", "deallocate");

	private PhaseEligibility() {
	}

	/**
	 * The eligibility of phase {@code index}'s rounds.
	 * @param inputs every phase of the job, in order
	 * @param index position of the phase in {@code inputs}
	 * @param rangeWritesRequired W
	 * @param capacityBytes the drive's user capacity, if known
	 * @param historyUnknown whether the drive's history before the job is unknown (an
	 * imported log without a stated preconditioning)
	 */
	static Eligibility of(List<JobAnalyzer.PhaseInput> inputs, int index, double rangeWritesRequired,
			Long capacityBytes, boolean historyUnknown) {
		PhaseSpec phase = inputs.get(index).spec();
		if (!phase.destroysData()) {
			return Eligibility.notApplicable("the phase only reads, which leaves the drive as it is");
		}
		if (historyUnknown) {
			// The tested range decides nothing here; it is reported with each round.
			return Eligibility.historyUnknown(
					(capacityBytes != null && capacityBytes > 0)
							? java.util.OptionalLong.of(testedRangeBytes(capacityBytes, phase))
							: java.util.OptionalLong.empty(),
					"fresh-state check not applicable: the log does not start from a purge or fill");
		}
		int reset = index - 1;
		while (reset >= 0 && !RESETS.contains(inputs.get(reset).spec().kind())) {
			reset--;
		}
		long before = 0;
		StringBuilder earlier = new StringBuilder();
		for (int i = reset + 1; i < index; i++) {
			JobAnalyzer.PhaseInput input = inputs.get(i);
			if (JobAnalyzer.isRandomWorkload(input.spec()) && input.spec().destroysData()) {
				long written = randomWriteBytes(input);
				before = Math.addExact(before, written);
				earlier.append((earlier.length() == 0) ? ", including " : " and ")
					.append(String.format(Locale.ROOT, "%,d", written))
					.append(" bytes written at random by phase ")
					.append(input.spec().index())
					.append(" (")
					.append(input.spec().name())
					.append(')');
			}
		}
		String since = (reset >= 0)
				? "since the " + resetName(inputs.get(reset).spec()) + " in phase " + inputs.get(reset).spec().index()
						+ " (" + inputs.get(reset).spec().name() + ")"
				: "no purge or fill precedes it, so the drive is taken as fresh at the start of the job";
		String basis = since + earlier;
		if (capacityBytes == null || capacityBytes < 1) {
			return Eligibility.rangeUnknown(rangeWritesRequired, "the drive's capacity is not known; " + basis);
		}
		return Eligibility.afterRandomWrites(rangeWritesRequired, testedRangeBytes(capacityBytes, phase), before,
				basis);
	}

	/** User capacity × the phase's range percent (100 when the phase names none). */
	static long testedRangeBytes(long capacityBytes, PhaseSpec phase) {
		BigDecimal percent = BigDecimal.valueOf((phase.rangePercent() != null) ? phase.rangePercent() : 100.0);
		return BigDecimal.valueOf(capacityBytes)
			.multiply(percent)
			.divide(BigDecimal.valueOf(100), 0, RoundingMode.FLOOR)
			.longValueExact();
	}

	/**
	 * The phase's write bytes: the runner's phase total when its result arrived, else the
	 * sum of the samples indexed.
	 */
	private static long randomWriteBytes(JobAnalyzer.PhaseInput input) {
		if (input.result() != null && input.result().write() != null) {
			return input.result().write().bytes();
		}
		return input.samples().stream().mapToLong(SamplePoint::writeBytes).sum();
	}

	private static String resetName(PhaseSpec phase) {
		return switch (phase.kind()) {
			case "purge" -> "purge";
			case "precondition" -> "fill";
			default -> "deallocation";
		};
	}

}

/*
 * The rounds of a plan's phases, checked where the contract cannot say it (a tracking step within
 * the matrix, block sizes that fit the drive) and given SNIA's defaults, before anything is stored.
 * A step whose block size is smaller than the drive's LBA (PTS's 0.5KiB on a 4Kn drive) cannot be
 * issued at all: it is left out, and the submission says so.
 */
package io.drivequal.service.qualification;

import java.util.ArrayList;
import java.util.List;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.RoundSpec;
import io.drivequal.service.platform.BadRequestException;

final class RoundsPlan {

	private RoundsPlan() {
	}

	/** The checked phases and what was left out of their rounds. */
	record Checked(List<PhaseSpec> phases, List<String> warnings) {
	}

	/**
	 * @param plan the resolved phases
	 * @param lbaSizeBytes the drive's LBA size
	 * @param jobRangeWritesRequired W of the job, for rounds that name none
	 * @return the phases, rounds completed with their defaults
	 * @throws BadRequestException naming the first field that is wrong
	 */
	static Checked checked(List<PhaseSpec> plan, int lbaSizeBytes, double jobRangeWritesRequired) {
		List<PhaseSpec> checked = new ArrayList<>(plan.size());
		List<String> warnings = new ArrayList<>();
		for (int i = 0; i < plan.size(); i++) {
			PhaseSpec phase = plan.get(i);
			if (phase.rounds() == null) {
				checked.add(phase);
				continue;
			}
			String field = "plan.phases[" + i + "].rounds";
			RoundSpec rounds = phase.rounds();
			if (!phase.isWorkload()) {
				throw new BadRequestException(field,
						"only a workload phase runs rounds (phase " + phase.name() + " is a " + phase.kind() + ")");
			}
			checkSteps(rounds, field, lbaSizeBytes);
			if (rounds.tracking() != null) {
				checkTracking(rounds, field);
			}
			if (rounds.rangeWritesRequired() != null
					&& (!Double.isFinite(rounds.rangeWritesRequired()) || rounds.rangeWritesRequired() < 0)) {
				throw new BadRequestException(field + ".rangeWritesRequired",
						"must be a finite number >= 0 (a multiple of the tested range), got "
								+ rounds.rangeWritesRequired());
			}
			checked.add(phase.withRounds(withoutSmallSteps(rounds, lbaSizeBytes, phase.name(), field, warnings)
				.withDefaults(jobRangeWritesRequired)));
		}
		return new Checked(checked, warnings);
	}

	private static RoundSpec withoutSmallSteps(RoundSpec rounds, int lbaSizeBytes, String phaseName, String field,
			List<String> warnings) {
		List<RoundSpec.Step> kept = new ArrayList<>();
		Integer tracking = (rounds.tracking() != null) ? rounds.tracking().step() : null;
		Integer trackingKept = null;
		for (int s = 0; s < rounds.steps().size(); s++) {
			RoundSpec.Step step = rounds.steps().get(s);
			if (step.blockSizeBytes() != null && step.blockSizeBytes() < lbaSizeBytes) {
				if (tracking != null && tracking == s) {
					throw new BadRequestException(field + ".tracking.step", "tracks step " + s + " of "
							+ step.blockSizeBytes() + " bytes, smaller than the drive's " + lbaSizeBytes + "-byte LBA");
				}
				warnings.add("phase " + phaseName + ": step " + s + " (" + step.blockSizeBytes()
						+ "-byte blocks) is left out: the drive's LBA is " + lbaSizeBytes + " bytes");
				continue;
			}
			if (tracking != null && tracking == s) {
				trackingKept = kept.size();
			}
			kept.add(step);
		}
		if (kept.size() == rounds.steps().size()) {
			return rounds;
		}
		if (kept.isEmpty()) {
			throw new BadRequestException(field + ".steps",
					"every step's block size is smaller than the drive's " + lbaSizeBytes + "-byte LBA");
		}
		RoundSpec.Tracking newTracking = (trackingKept != null)
				? new RoundSpec.Tracking(trackingKept, rounds.tracking().metric()) : null;
		return new RoundSpec(kept, rounds.stepRuntimeS(), newTracking, rounds.maxRounds(),
				rounds.rangeWritesRequired());
	}

	private static void checkSteps(RoundSpec rounds, String field, int lbaSizeBytes) {
		if (rounds.steps() == null || rounds.steps().isEmpty()) {
			throw new BadRequestException(field + ".steps",
					"the round's test matrix is empty: give at least one step (rw, blockSizeBytes, queueDepth)");
		}
		for (int s = 0; s < rounds.steps().size(); s++) {
			RoundSpec.Step step = rounds.steps().get(s);
			if (step == null) {
				throw new BadRequestException(field + ".steps[" + s + "]", "a step cannot be null");
			}
			if (step.blockSizeBytes() != null && step.blockSizeBytes() >= lbaSizeBytes
					&& step.blockSizeBytes() % lbaSizeBytes != 0) {
				throw new BadRequestException(field + ".steps[" + s + "].blockSizeBytes",
						"must be a multiple of the drive's LBA size " + lbaSizeBytes + " (got " + step.blockSizeBytes()
								+ ")");
			}
		}
	}

	private static void checkTracking(RoundSpec rounds, String field) {
		RoundSpec.Tracking tracking = rounds.tracking();
		if (tracking.metric() == null || !RoundSpec.METRICS.contains(tracking.metric())) {
			throw new BadRequestException(field + ".tracking.metric", "unknown tracking variable " + tracking.metric()
					+ "; known: " + String.join(", ", RoundSpec.METRICS.stream().sorted().toList()));
		}
		if (tracking.step() == null || tracking.step() < 0 || tracking.step() >= rounds.steps().size()) {
			throw new BadRequestException(field + ".tracking.step",
					"names step " + tracking.step() + ", but the round has steps 0.." + (rounds.steps().size() - 1));
		}
		if (rounds.steps().get(tracking.step()).isIdle()) {
			throw new BadRequestException(field + ".tracking.step",
					"names step " + tracking.step() + ", an idle step: it measures nothing");
		}
	}

}

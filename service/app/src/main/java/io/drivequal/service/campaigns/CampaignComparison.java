/*
 * Compares two campaigns (firmware A against B, vendor X against Y) on one profile's steady-state
 * rounds: the relative difference of their IOPS with a Welch t interval over the samples' means,
 * which carry each run's round-to-round noise (analysis.Regression), and "no regression beyond X %
 * at the confidence asked".
 */
package io.drivequal.service.campaigns;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.analysis.Outcome;
import io.drivequal.analysis.Regression;
import io.drivequal.service.platform.BadRequestException;
import io.drivequal.service.qualification.JobState;
import io.drivequal.service.qualification.QualificationView;

final class CampaignComparison {

	static final String METHOD = "relative difference of the mean over samples of each sample's mean round IOPS over "
			+ "the last five rounds of the phase; Welch t interval on the log of the ratio, each group's variance the "
			+ "sample variance of its samples' means over their number (so it holds both the sample-to-sample and "
			+ "the round-to-round variation), Welch-Satterthwaite degrees of freedom; a group of one sample uses "
			+ "its rounds' variance alone (roundsOnly)";

	private CampaignComparison() {
	}

	/**
	 * @param samplesUsed per campaign, the samples whose rounds counted
	 * @param left samples without usable rounds, with why
	 * @param outcome "no regression beyond marginPercent %": FAIL when the whole interval
	 * is worse than the margin, PASS when it is all better, INCONCLUSIVE when it
	 * straddles
	 */
	record View(String candidate, String baseline, String profile, String phase, String figure, double marginPercent,
			Regression.Difference difference, Outcome outcome, Map<String, List<String>> samplesUsed, List<String> left,
			String method) {
	}

	static View compare(CampaignService.Current candidate, CampaignService.Current baseline, String profile,
			String phase, double marginPercent, double confidence) {
		if (!(confidence >= 0.5 && confidence < 1)) {
			throw new BadRequestException("confidence", "must be at least 0.5 and below 1");
		}
		if (!Double.isFinite(marginPercent) || marginPercent < 0) {
			throw new BadRequestException("marginPercent", "must be a finite number >= 0");
		}
		List<String> left = new ArrayList<>();
		Group b = group(baseline, profile, phase, left, "baseline");
		Group c = group(candidate, profile, phase, left, "candidate");
		if (b.rounds.isEmpty() || c.rounds.isEmpty()) {
			throw new BadRequestException("profile",
					"no sample of the " + (b.rounds.isEmpty() ? "baseline" : "candidate") + " has five rounds of "
							+ profile + ((phase != null) ? " phase " + phase : "") + ": " + left);
		}
		Regression.Difference difference;
		try {
			difference = Regression.compare(b.rounds, c.rounds, confidence);
		}
		catch (IllegalArgumentException ex) {
			throw new BadRequestException("profile",
					"the rounds of " + profile + " give no interval: " + ex.getMessage());
		}
		return new View(candidate.campaign().campaignId(), baseline.campaign().campaignId(), profile, b.phase,
				"steady-state round IOPS (the last five rounds)", marginPercent, difference,
				difference.noRegressionBeyond(marginPercent, true),
				Map.of("baseline", b.serials, "candidate", c.serials), left, METHOD);
	}

	private record Group(List<double[]> rounds, List<String> serials, String phase) {
	}

	private static Group group(CampaignService.Current current, String profile, String phase, List<String> left,
			String role) {
		if (current.campaign().plans().stream().noneMatch((plan) -> plan.name().equals(profile))) {
			throw new BadRequestException("profile",
					"the " + role + " campaign " + current.campaign().campaignId() + " runs no profile " + profile);
		}
		List<double[]> rounds = new ArrayList<>();
		List<String> serials = new ArrayList<>();
		String phaseUsed = phase;
		for (Campaign.Cell cell : current.campaign().cells()) {
			if (!cell.plan().equals(profile)) {
				continue;
			}
			QualificationView job = current.jobs().get(cell.jobId());
			if (job == null || job.state() != JobState.COMPLETED || job.analysis() == null) {
				left.add(role + " " + cell.serial() + ": job " + cell.jobId() + " has no analysis");
				continue;
			}
			Optional<Rounds> found = lastFiveRounds(job.analysis(), phase);
			if (found.isEmpty()) {
				left.add(role + " " + cell.serial() + ": no five counted rounds in "
						+ ((phase != null) ? "phase " + phase : "a random-IO phase"));
				continue;
			}
			rounds.add(found.get().values());
			serials.add(cell.serial());
			phaseUsed = found.get().phase();
		}
		return new Group(rounds, serials, phaseUsed);
	}

	record Rounds(String phase, double[] values) {
	}

	/**
	 * The mean IOPS of the last five rounds (end.firstRoundIndex..lastRoundIndex) of the
	 * named phase, or of the one phase with an IOPS analysis.
	 */
	static Optional<Rounds> lastFiveRounds(Map<String, Object> analysis, String phase) {
		if (!(analysis.get("phases") instanceof List<?> phases)) {
			return Optional.empty();
		}
		List<Map<?, ?>> candidates = new ArrayList<>();
		for (Object item : phases) {
			if (item instanceof Map<?, ?> p && p.get("iops") instanceof Map<?, ?>
					&& (phase == null || phase.equals(p.get("phaseName")))) {
				candidates.add(p);
			}
		}
		if (candidates.size() != 1) {
			return Optional.empty();
		}
		Map<?, ?> p = candidates.get(0);
		if (!(((Map<?, ?>) p.get("iops")).get("steadyState") instanceof Map<?, ?> steady)
				|| !(steady.get("end") instanceof Map<?, ?> end) || !(steady.get("rounds") instanceof List<?> rounds)) {
			return Optional.empty();
		}
		int first = ((Number) end.get("firstRoundIndex")).intValue();
		int last = ((Number) end.get("lastRoundIndex")).intValue();
		if (first < 0 || last < first) {
			return Optional.empty();
		}
		List<Double> values = new ArrayList<>();
		for (Object item : rounds) {
			if (item instanceof Map<?, ?> round && round.get("index") instanceof Number index
					&& index.intValue() >= first && index.intValue() <= last
					&& round.get("meanIops") instanceof Number mean) {
				values.add(mean.doubleValue());
			}
		}
		if (values.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(new Rounds(String.valueOf(p.get("phaseName")),
				values.stream().mapToDouble(Double::doubleValue).toArray()));
	}

}

// SNIA SSS PTS steady-state detection over a phase's eligible rounds: where steady state was reached, and whether the phase ends in it.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Finds the first round x (0-based, first checked at x = 4) whose window of rounds x-4..x
 * is five counted, eligible rounds that hold, skipping every window that would span a
 * round that does not count or is not eligible; and judges the last five rounds of the
 * phase by the same rules ({@link SteadyAtEnd}). Eligible rounds are those after the
 * fresh state's end ({@link FreshState}). A window holds when SNIA's two bounds hold on
 * its round means; when the drive's media writes decided the fresh state, the same bounds
 * on its rounds' write amplification; and, unless the phase only reads or its history is
 * unknown, the level holds over the horizon: at least ten rounds, and at least 5 % of the
 * tested range written ({@link SteadyStateHorizon}). Bounds are inclusive and decided
 * exactly (see {@link SniaBounds}).
 */
public final class SteadyStateDetector {

	private SteadyStateDetector() {
	}

	/**
	 * Steady state over rounds of the given length.
	 * @param iops per-second IOPS of the phase
	 * @param randomWriteBytes per-second random-write bytes of the phase (empty for a
	 * phase that does not write)
	 * @param eligibility what is known of the phase's history
	 * @param roundLengthS L, seconds
	 * @param maxRounds stop after this many rounds (only rounds 0..maxRounds-1 are used;
	 * PTS: 25); empty for no limit
	 * @return the result
	 */
	public static SteadyStateResult detect(PerSecondSeries iops, PerSecondSeries randomWriteBytes,
			Eligibility eligibility, int roundLengthS, OptionalInt maxRounds) {
		return detect(RoundTable.of(iops, randomWriteBytes, eligibility, roundLengthS), maxRounds);
	}

	static SteadyStateResult detect(RoundTable rounds, OptionalInt maxRounds) {
		if (maxRounds.isPresent() && maxRounds.getAsInt() < SniaBounds.WINDOW_ROUNDS) {
			throw new IllegalArgumentException(
					"maxRounds = " + maxRounds.getAsInt() + ": a window needs " + SniaBounds.WINDOW_ROUNDS + " rounds");
		}
		int limit = maxRounds.isPresent() ? Math.min(rounds.size(), maxRounds.getAsInt()) : rounds.size();
		FreshState fresh = FreshState.judge(rounds, limit);
		rounds.applyFreshState(fresh);
		OptionalInt firstEligible = OptionalInt.empty();
		int usable = 0;
		int windowsEvaluated = 0;
		int lastEvaluated = -1;
		boolean reached = false;
		SniaBounds.Decision lastDecision = null;
		for (int x = 0; x < limit; x++) {
			if (firstEligible.isEmpty() && rounds.eligible[x]) {
				firstEligible = OptionalInt.of(x);
			}
			usable = (rounds.counted[x] && rounds.eligible[x]) ? usable + 1 : 0;
			if (usable < SniaBounds.WINDOW_ROUNDS) {
				continue;
			}
			windowsEvaluated++;
			lastEvaluated = x;
			lastDecision = SniaBounds.decide(rounds.sumIops, rounds.secondsPresent, x - 4);
			if (lastDecision.holds() && wafHolds(rounds, fresh, x - 4)
					&& (!fresh.evidence().needsHorizon() || SteadyStateHorizon.of(rounds, x).holds())) {
				reached = true;
				break;
			}
		}
		Optional<SteadyStateWindow> window = (lastEvaluated < 0) ? Optional.empty()
				: Optional.of(figures(rounds, lastEvaluated, lastDecision));
		SteadyAtEnd end = end(rounds, limit, fresh);
		return new SteadyStateResult(rounds.roundLengthS, maxRounds, rounds.eligibility, fresh, firstEligible, reached,
				window, windowsEvaluated, end, rounds.toRounds(), SteadyStateTrend.of(rounds, limit, fresh, end));
	}

	/** With media-write evidence, SNIA's bounds on the window's round WAFs. */
	private static boolean wafHolds(RoundTable rounds, FreshState fresh, int first) {
		if (fresh.evidence() != FreshState.Evidence.MEDIA_WRITES) {
			return true;
		}
		for (int round = first; round < first + SniaBounds.WINDOW_ROUNDS; round++) {
			if (rounds.hostBytes[round] <= 0) {
				return false;
			}
		}
		return SniaBounds.decide(rounds.mediaBytes, rounds.hostBytes, first, SniaBounds.Shape.WINDOW).holds();
	}

	private static SteadyAtEnd end(RoundTable rounds, int limit, FreshState fresh) {
		int last = limit - 1;
		while (last >= 0 && !rounds.counted[last]) {
			last--;
		}
		int first = last - (SniaBounds.WINDOW_ROUNDS - 1);
		if (first < 0) {
			String counted = (last < 0) ? "no round counts"
					: "only " + (last + 1) + " round(s) up to the last counted one (round " + last + ")";
			return new SteadyAtEnd(-1, last, Optional.empty(), Optional.empty(), false,
					List.of(new SteadyStateFailure(SteadyStateFailure.Kind.TOO_FEW_ROUNDS, List.of(),
							"the phase has " + counted + "; the window needs " + SniaBounds.WINDOW_ROUNDS)));
		}
		List<SteadyStateFailure> failures = new ArrayList<>();
		List<Integer> notCounted = new ArrayList<>();
		List<Integer> notEligible = new ArrayList<>();
		for (int round = first; round <= last; round++) {
			if (!rounds.counted[round]) {
				notCounted.add(round);
			}
			if (!rounds.eligible[round]) {
				notEligible.add(round);
			}
		}
		if (!notCounted.isEmpty()) {
			failures.add(new SteadyStateFailure(SteadyStateFailure.Kind.ROUNDS_NOT_COUNTED, notCounted,
					roundList(notCounted) + (notCounted.size() == 1 ? " does" : " do")
							+ " not count (fewer than 90% of " + rounds.roundLengthS + " s present)"));
		}
		Eligibility eligibility = rounds.eligibility;
		if (!notEligible.isEmpty() && fresh.evidence() == FreshState.Evidence.WRITTEN_BYTES
				&& eligibility.testedRangeBytes().isEmpty()) {
			failures.add(new SteadyStateFailure(SteadyStateFailure.Kind.TESTED_RANGE_UNKNOWN, notEligible,
					"the phase writes, shows no cliff and no media-write counter, and its tested range is unknown ("
							+ eligibility.basis() + "), so no round is eligible"));
		}
		else if (!notEligible.isEmpty()) {
			failures.add(new SteadyStateFailure(SteadyStateFailure.Kind.ROUNDS_NOT_ELIGIBLE, notEligible, roundList(
					notEligible) + (notEligible.size() == 1 ? " is" : " are") + " in the drive's fresh state: "
					+ fresh.statement()
					+ ((fresh.evidence() == FreshState.Evidence.WRITTEN_BYTES) ? " (random writes reached "
							+ rangeWrites(rounds, notEligible) + " × the tested range; " + eligibility.basis() + ")"
							: "")));
		}
		Optional<SteadyStateWindow> window = Optional.empty();
		Optional<SteadyStateHorizon> horizon = Optional.empty();
		if (notCounted.isEmpty()) {
			SteadyStateWindow figures = figures(rounds, last,
					SniaBounds.decide(rounds.sumIops, rounds.secondsPresent, first));
			window = Optional.of(figures);
			if (!figures.rangeWithinBound()) {
				failures.add(new SteadyStateFailure(SteadyStateFailure.Kind.RANGE_ABOVE_BOUND, List.of(), String
					.format(Locale.ROOT, "range %.1f %% of the average exceeds 20 %%", figures.rangePercent())));
			}
			if (!figures.slopeWithinBound()) {
				failures.add(new SteadyStateFailure(SteadyStateFailure.Kind.SLOPE_ABOVE_BOUND, List.of(),
						String.format(Locale.ROOT, "slope excursion %.1f %% of the average exceeds 10 %%",
								figures.slopeExcursionPercent())));
			}
			if (notEligible.isEmpty() && !wafHolds(rounds, fresh, first)) {
				failures.add(new SteadyStateFailure(SteadyStateFailure.Kind.WAF_NOT_STEADY, List.of(),
						"the drive's write amplification still moves over the window (" + wafList(rounds, first, last)
								+ "): range or excursion above SNIA's bounds"));
			}
		}
		if (fresh.evidence().needsHorizon()) {
			SteadyStateHorizon figures = SteadyStateHorizon.of(rounds, last);
			horizon = Optional.of(figures);
			if (!figures.evaluated()) {
				failures.add(new SteadyStateFailure(SteadyStateFailure.Kind.LEVEL_STILL_MOVING,
						figures.unusableRounds(),
						"the level cannot be checked over its horizon, rounds " + Math.max(0, figures.firstRoundIndex())
								+ "–" + last
								+ ((figures.firstRoundIndex() < 0) ? " (the phase is shorter than ten rounds)" : "")
								+ (figures.unusableRounds().isEmpty() ? "" : ": " + roundList(figures.unusableRounds())
										+ " do not count or are in the fresh state")));
			}
			else if (!figures.holds()) {
				String bounds = figures.crossed() ? "bounds 10 % and 20 % around a level the record has crossed"
						: String.format(Locale.ROOT,
								"bounds 5 %% and 20 %% on a first approach, which must also move at most half as much as the rounds before it did (%.1f %%), or under 2.5 %%",
								figures.earlierChangePercent());
				failures.add(new SteadyStateFailure(SteadyStateFailure.Kind.LEVEL_STILL_MOVING, List.of(), String
					.format(Locale.ROOT,
							"the level still moves over rounds %d–%d: %+.2f %% per round (excursion %.1f %%, range %.1f %%; %s)",
							figures.firstRoundIndex(), last, figures.slopePercentPerRound(),
							figures.slopeExcursionPercent(), figures.rangePercent(), bounds)));
			}
		}
		return new SteadyAtEnd(first, last, window, horizon, failures.isEmpty(), failures);
	}

	private static String wafList(RoundTable rounds, int first, int last) {
		List<String> values = new ArrayList<>();
		for (int round = first; round <= last; round++) {
			values.add(rounds.waf(round).isPresent()
					? String.format(Locale.ROOT, "%.2f", rounds.waf(round).getAsDouble()) : "?");
		}
		return "WAF " + String.join(", ", values);
	}

	private static SteadyStateWindow figures(RoundTable rounds, int x, SniaBounds.Decision decision) {
		int first = x - 4;
		double total = 0;
		double max = Double.NEGATIVE_INFINITY;
		double min = Double.POSITIVE_INFINITY;
		double weighted = 0;
		for (int i = 0; i < SniaBounds.WINDOW_ROUNDS; i++) {
			double y = rounds.meanIops(first + i);
			total += y;
			max = Math.max(max, y);
			min = Math.min(min, y);
			weighted += (i - 2) * y;
		}
		double avg = total / SniaBounds.WINDOW_ROUNDS;
		// Least squares over 5 equally spaced indices: b = Σ(i - 2)(y_i) / Σ(i - 2)² =
		// Σ(i - 2)y_i / 10.
		double slope = weighted / 10;
		double rangePercent = (avg > 0) ? 100 * (max - min) / avg : 0;
		double slopeExcursionPercent = (avg > 0) ? 100 * Math.abs(slope) * 4 / avg : 0;
		long lengthS = rounds.roundLengthS;
		return new SteadyStateWindow(first, x, first * lengthS, (x + 1) * lengthS, avg, min, max, rangePercent, slope,
				slopeExcursionPercent, decision.rangeWithinBound(), decision.slopeWithinBound());
	}

	/** "round 7", "rounds 28–32", "rounds 3, 5–7". */
	static String roundList(List<Integer> rounds) {
		StringBuilder text = new StringBuilder((rounds.size() == 1) ? "round " : "rounds ");
		int i = 0;
		while (i < rounds.size()) {
			int j = i;
			while (j + 1 < rounds.size() && rounds.get(j + 1) == rounds.get(j) + 1) {
				j++;
			}
			if (i > 0) {
				text.append(", ");
			}
			text.append(rounds.get(i));
			if (j > i) {
				text.append('–').append(rounds.get(j));
			}
			i = j + 1;
		}
		return text.toString();
	}

	private static String rangeWrites(RoundTable rounds, List<Integer> notEligible) {
		if (rounds.eligibility.testedRangeBytes().isEmpty()) {
			return "an unknown multiple of";
		}
		double low = rounds.eligibility.rangeWrites(rounds.randomWriteBytesAtStart[notEligible.get(0)]).getAsDouble();
		double high = rounds.eligibility
			.rangeWrites(rounds.randomWriteBytesAtStart[notEligible.get(notEligible.size() - 1)])
			.getAsDouble();
		return (notEligible.size() == 1
				|| String.format(Locale.ROOT, "%.2f", low).equals(String.format(Locale.ROOT, "%.2f", high)))
						? String.format(Locale.ROOT, "%.2f", high) : String.format(Locale.ROOT, "%.2f–%.2f", low, high);
	}

}

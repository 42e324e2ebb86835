// Where the level is going when a phase ends before it settles: its drift per round and a projected steady level, marked as a projection.
package io.drivequal.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The end of a phase's trend. The drift is the least-squares slope of the last (up to)
 * ten counted, eligible round means, in percent of their average per round. When the
 * phase does not end steady, the level it heads for is projected from the physics of
 * garbage collection ({@link #projectFromMedia}): the drive's media-write rate over the
 * last five rounds, over the analytic write amplification of its spare area. That needs
 * the drive's media-write counter and its raw NAND capacity; without them the report says
 * "cannot project: ..." and why. A curve fit of the IOPS record alone was tried and
 * dropped: the approach overshoots and climbs convexly, and no fit's uncertainty held the
 * truth (docs/methodology.md 3.2.1). A projection is never a measured steady state: it is
 * reported as such and never satisfies a criterion.
 *
 * @param driftPercentPerRound 100 · slope / average over the last (up to) ten eligible
 * counted rounds; empty with fewer than five
 * @param projection the projected level, when the phase is not steady at its end and can
 * be projected
 * @param cannotProject why not ("cannot project: ..."), when the phase is not steady and
 * cannot be projected
 */
public record SteadyStateTrend(OptionalDouble driftPercentPerRound, Optional<Projection> projection,
		Optional<String> cannotProject) {

	/**
	 * A projected steady level.
	 *
	 * @param levelIops the projected level
	 * @param uncertaintyIops ± around it
	 * @param method how it was projected
	 * @param firstRoundIndex first round the projection uses
	 * @param lastRoundIndex last round it uses
	 */
	public record Projection(double levelIops, double uncertaintyIops, String method, int firstRoundIndex,
			int lastRoundIndex) {

		/** For the report: "~170,000 ± 12,000 IOPS (projected from rounds 9–119)". */
		public String describe() {
			return String.format(Locale.ROOT, "~%,.0f ± %,.0f IOPS (%s, rounds %d–%d; not measured)", this.levelIops,
					this.uncertaintyIops, this.method, this.firstRoundIndex, this.lastRoundIndex);
		}

	}

	/**
	 * The method that uses the drive's media-write rate and the analytic WAF of its spare
	 * area.
	 */
	public static final String MEDIA_RATE = "media-write rate over the analytic WAF of the spare area";

	/**
	 * The media-rate projection's uncertainty, as a share of the level: above its largest
	 * error on the known-truth matrix's drives (docs/methodology.md 3.2.1).
	 */
	static final double MEDIA_RATE_UNCERTAINTY = 0.15;

	static SteadyStateTrend of(RoundTable rounds, int limit, FreshState fresh, SteadyAtEnd end) {
		List<Integer> usable = new ArrayList<>();
		int first = fresh.firstEligibleRound().isPresent() ? fresh.firstEligibleRound().getAsInt() : limit;
		for (int round = first; round < limit; round++) {
			if (rounds.counted[round]) {
				usable.add(round);
			}
		}
		OptionalDouble drift = drift(rounds, usable.subList(Math.max(0, usable.size() - 10), usable.size()));
		if (end.holds()) {
			return new SteadyStateTrend(drift, Optional.empty(), Optional.empty());
		}
		if (fresh.firstEligibleRound().isEmpty() || first >= limit) {
			return new SteadyStateTrend(drift, Optional.empty(),
					Optional.of("cannot project: the drive has not left its fresh state in this phase"));
		}
		if (usable.size() < SniaBounds.WINDOW_ROUNDS) {
			return new SteadyStateTrend(drift, Optional.empty(), Optional.of("cannot project: " + usable.size()
					+ " counted round(s) since the fresh state ended; a projection needs " + SniaBounds.WINDOW_ROUNDS));
		}
		Optional<Projection> projection = projectFromMedia(rounds, usable, fresh);
		return projection.isPresent() ? new SteadyStateTrend(drift, projection, Optional.empty())
				: new SteadyStateTrend(drift, Optional.empty(), Optional.of(cannotProject(rounds, fresh)));
	}

	private static String cannotProject(RoundTable rounds, FreshState fresh) {
		if (fresh.evidence() != FreshState.Evidence.MEDIA_WRITES) {
			return "cannot project: a projection needs the drive's media-write counter (OCP C0h), which this run does not have";
		}
		if (rounds.rawNandBytes.isEmpty()) {
			return "cannot project: a projection needs the drive's raw NAND capacity (spec.rawNandBytes)";
		}
		if (rounds.eligibility.testedRangeBytes().isEmpty()) {
			return "cannot project: a projection needs the tested range (the drive's capacity)";
		}
		return "cannot project: the raw NAND capacity leaves no spare area over the tested range";
	}

	private static OptionalDouble drift(RoundTable rounds, List<Integer> last) {
		if (last.size() < SniaBounds.WINDOW_ROUNDS) {
			return OptionalDouble.empty();
		}
		double[] line = rounds.line(last);
		return (line[1] > 0) ? OptionalDouble.of(100 * line[0] / line[1]) : OptionalDouble.empty();
	}

	/**
	 * Garbage collection bounds a NAND-limited drive's write rate: its media writes per
	 * second hold steady through the approach while IOPS and WAF trade places (IOPS × WAF
	 * is constant). With the drive's raw NAND capacity and the tested range, the spare
	 * factor ρ = raw / range - 1 gives the WAF uniform random writes settle at
	 * ({@link GreedyWaf}), and the level is the media rate of the last five rounds over
	 * that WAF and the bytes of one IO.
	 */
	static Optional<Projection> projectFromMedia(RoundTable rounds, List<Integer> usable, FreshState fresh) {
		if (fresh.evidence() != FreshState.Evidence.MEDIA_WRITES || rounds.rawNandBytes.isEmpty()
				|| rounds.eligibility.testedRangeBytes().isEmpty() || usable.size() < SniaBounds.WINDOW_ROUNDS) {
			return Optional.empty();
		}
		double spareFactor = (double) rounds.rawNandBytes.getAsLong()
				/ rounds.eligibility.testedRangeBytes().getAsLong() - 1;
		if (!(spareFactor > 0)) {
			return Optional.empty();
		}
		double media = 0;
		double seconds = 0;
		double ios = 0;
		double written = 0;
		for (int round : usable.subList(usable.size() - SniaBounds.WINDOW_ROUNDS, usable.size())) {
			media += rounds.mediaBytes[round];
			seconds += rounds.secondsPresent[round];
			ios += rounds.sumIops[round];
			written += rounds.randomWriteBytes[round];
		}
		if (ios <= 0 || written <= 0) {
			return Optional.empty();
		}
		double level = media / seconds / GreedyWaf.of(spareFactor) / (written / ios);
		return Optional.of(new Projection(level, MEDIA_RATE_UNCERTAINTY * level, MEDIA_RATE,
				usable.get(usable.size() - SniaBounds.WINDOW_ROUNDS), usable.get(usable.size() - 1)));
	}

}

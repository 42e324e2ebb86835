/*
 * How wide an ETA's interval is (docs/api.md, "Progress and ETA"). It is stated as an 80 % interval:
 * the job's actual end should fall inside it at least 8 times in 10, which docs/benchmarks.md checks
 * against actual ends at every poll. EtaEstimator gives each part the bounds its own measure says
 * (rounds between the earliest stop and maxRounds, the history's fastest and slowest run, a purge's
 * range of methods); this widens them by the dispersion actually observed, which a steady clock
 * keeps narrow and a swinging one makes wide:
 * - the rest of the running phase on a simulated clock at rates from the 5th to the 95th percentile
 *   of its seconds' rates so far (with the last second's and the phase's average), and at least
 *   the phase's average so far times or over the square root of that spread, for the share of the
 *   phase not yet run (the rest can leave what the start showed: an unpaced simulator's cliff
 *   speeds its clock several times over);
 * - a phase ahead by the square root of the running clock's spread either way (its whole length
 *   averages the per-second swings; what remains is the machine's load, the same for all phases);
 * - the parts added bound to bound: a shared machine slows or speeds every phase of a job together,
 *   so their errors do not cancel as independent ones would;
 * - the whole at least FLOOR_S plus FLOOR_SHARE of the time left either way: the samples' delay to
 *   the index and the completion event's, which no rate says.
 * Pure, as the estimator.
 */
package io.drivequal.service.qualification;

import java.util.Collection;

import io.drivequal.service.qualification.EtaEstimator.Part;

final class EtaInterval {

	/** The share of actual ends the interval is stated to hold, in percent. */
	static final int COVERAGE_PERCENT = 80;

	/**
	 * The interval's least half-width, in seconds and as a share of the time left. Chosen
	 * from the polls of the ETA benchmark's runs before this change (2026-11-29
	 * 03:18-06:24, paced drives at 20 x and 200 x): a point estimate was within 2 s + 3 %
	 * of the actual time left at 98 % of 963 paced polls and 95 % of 277 queued-scenario
	 * polls.
	 */
	static final double FLOOR_S = 2.0;

	static final double FLOOR_SHARE = 0.03;

	/** A part of the ETA smaller than this share of the whole does not set its basis. */
	static final double MINOR_SHARE = 0.05;

	private EtaInterval() {
	}

	/**
	 * How far a simulated clock's rate has spread: the higher of its measures over the
	 * lower (1 for a steady clock, or none).
	 */
	static double swing(EtaClock.Rate rate) {
		if (rate == null || rate.low() <= 0 || rate.high() <= rate.low()) {
			return 1.0;
		}
		return rate.high() / rate.low();
	}

	/**
	 * The rates the rest of the running phase may run at: its measures' range, and at
	 * least the phase's average so far times or over the square root of their spread,
	 * that raised to the share of the phase not yet done.
	 * @param shareDone how much of the phase is done, 0 to 1
	 */
	static EtaClock.Rate forRest(EtaClock.Rate rate, double shareDone) {
		double widen = Math.pow(swing(rate), 0.5 * (1 - Math.max(0, Math.min(1, shareDone))));
		if (widen <= 1.0 || rate.average() <= 0) {
			return rate;
		}
		return new EtaClock.Rate(rate.rate(), Math.min(rate.low(), rate.average() / widen),
				Math.max(rate.high(), rate.average() * widen), rate.positionS(), rate.average());
	}

	/**
	 * A phase ahead, widened by the square root of the running clock's spread either way;
	 * a history of one run, which has no interval of its own, gets that alone. A part
	 * whose speed nothing measured yet keeps none.
	 */
	static Part ahead(Part part, double swing) {
		double widen = Math.sqrt(Math.max(1.0, swing));
		boolean bounded = part.lowS() != null && part.highS() != null;
		if (!bounded && part.basis() != EtaView.Basis.HISTORY) {
			return part;
		}
		double low = bounded ? Math.min(part.lowS(), part.remainingS()) : part.remainingS();
		double high = bounded ? Math.max(part.highS(), part.remainingS()) : part.remainingS();
		return new Part(part.remainingS(), low / widen, high * widen, part.basis(), part.historyJobs(), part.detail());
	}

	/**
	 * The whole at least FLOOR_S + FLOOR_SHARE of the time left either way; exact (a real
	 * drive's timed phases) and unbounded wholes stay as they are.
	 */
	static Part floor(Part total) {
		if (total.lowS() == null || total.highS() == null || total.basis() == EtaView.Basis.PLAN) {
			return total;
		}
		double margin = FLOOR_S + FLOOR_SHARE * total.remainingS();
		return new Part(total.remainingS(), Math.max(0, Math.min(total.lowS(), total.remainingS() - margin)),
				Math.max(total.highS(), total.remainingS() + margin), total.basis(), total.historyJobs(),
				total.detail());
	}

	/**
	 * The parts summed: each bound a part has, its estimate where it has none (but no
	 * interval when a part that matters has none); the basis of the least sure part that
	 * matters.
	 */
	static Part combine(Collection<Part> parts) {
		double remaining = 0;
		for (Part part : parts) {
			remaining += part.remainingS();
		}
		double low = 0;
		double high = 0;
		boolean bounded = true;
		Part leastSure = null;
		for (Part part : parts) {
			boolean matters = remaining <= 0 || part.remainingS() >= MINOR_SHARE * remaining;
			low += (part.lowS() != null) ? part.lowS() : part.remainingS();
			high += (part.highS() != null) ? part.highS() : part.remainingS();
			if (matters && (part.lowS() == null || part.highS() == null)) {
				bounded = false;
			}
			if (matters && (leastSure == null || part.basis().lessSureThan(leastSure.basis())
					|| (part.basis() == leastSure.basis() && part.basis() == EtaView.Basis.HISTORY
							&& part.historyJobs() != null && leastSure.historyJobs() != null
							&& part.historyJobs() < leastSure.historyJobs()))) {
				leastSure = part;
			}
		}
		if (leastSure == null) {
			leastSure = new Part(0, null, null, EtaView.Basis.PLAN, null, null);
		}
		return new Part(remaining, bounded ? low : null, bounded ? high : null, leastSure.basis(),
				leastSure.historyJobs(), null);
	}

}

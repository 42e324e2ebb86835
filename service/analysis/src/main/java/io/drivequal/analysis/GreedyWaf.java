// The analytic write amplification of uniform random writes under greedy garbage collection: what a drive's spare area lets it settle at.
package io.drivequal.analysis;

/**
 * Xiang &amp; Kurkoski, "An Improved Analytic Expression for Write Amplification in NAND
 * Flash", ICNC 2012 (arXiv:1110.4245): WA = a / (a + W0(-a·e^(-a))), a = 1 + ρ, ρ = (raw
 * - used) / used, W0 the principal branch of Lambert W. Their check value: ρ = 0.3 gives
 * 2.36. The simulated drive's FTL agrees with it within 1 % (docs/simulator.md).
 */
public final class GreedyWaf {

	private GreedyWaf() {
	}

	/**
	 * @param spareFactor ρ &gt; 0
	 * @return the steady-state write amplification
	 */
	public static double of(double spareFactor) {
		if (!(spareFactor > 0) || !Double.isFinite(spareFactor)) {
			throw new IllegalArgumentException("spare factor " + spareFactor + ": must be > 0");
		}
		double a = 1 + spareFactor;
		return a / (a + lambertW0(-a * Math.exp(-a)));
	}

	/**
	 * Principal branch on [-1/e, 0) by Halley's iteration from the branch-point series.
	 */
	private static double lambertW0(double x) {
		double p = Math.sqrt(Math.max(0, 2 * (Math.E * x + 1)));
		double w = (x > -0.25) ? x : -1 + p - p * p / 3 + 11.0 / 72 * p * p * p;
		for (int i = 0; i < 100; i++) {
			double e = Math.exp(w);
			double f = w * e - x;
			double step = f / (e * (w + 1) - (w + 2) * f / (2 * w + 2));
			w -= step;
			if (Math.abs(step) < 1e-15 * (1 + Math.abs(w))) {
				break;
			}
		}
		return w;
	}

}

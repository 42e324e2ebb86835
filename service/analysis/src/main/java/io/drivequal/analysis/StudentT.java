// Student's t quantiles for the regression interval, so a handful of samples gives an honestly wide interval.
package io.drivequal.analysis;

/**
 * Student's t distribution with real (Welch) degrees of freedom: the CDF through the
 * regularized incomplete beta function (continued fraction, modified Lentz), the quantile
 * by bisection on it. Accurate to about 1e-9 in the quantile, far below what a confidence
 * interval needs.
 */
final class StudentT {

	private StudentT() {
	}

	/**
	 * @param p a probability in (0, 1)
	 * @param degreesOfFreedom above 0; infinite gives the normal quantile's limit
	 * @return t with P(T <= t) = p
	 */
	static double quantile(double p, double degreesOfFreedom) {
		if (!(p > 0 && p < 1) || !(degreesOfFreedom > 0)) {
			throw new IllegalArgumentException(
					"p in (0, 1) and degrees of freedom above 0, got p = " + p + ", df = " + degreesOfFreedom);
		}
		if (p < 0.5) {
			return -quantile(1 - p, degreesOfFreedom);
		}
		double df = Math.min(degreesOfFreedom, 1e7);
		double low = 0;
		double high = 1;
		while (cdf(high, df) < p) {
			low = high;
			high *= 2;
		}
		for (int i = 0; i < 200 && high - low > 1e-12 * high; i++) {
			double mid = (low + high) / 2;
			if (cdf(mid, df) < p) {
				low = mid;
			}
			else {
				high = mid;
			}
		}
		return (low + high) / 2;
	}

	/** P(T <= t) for t >= 0. */
	static double cdf(double t, double df) {
		double x = df / (df + t * t);
		return 1 - 0.5 * regularizedBeta(x, df / 2, 0.5);
	}

	/** I_x(a, b), Numerical Recipes' betai. */
	private static double regularizedBeta(double x, double a, double b) {
		if (x <= 0) {
			return 0;
		}
		if (x >= 1) {
			return 1;
		}
		double front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
		if (x < (a + 1) / (a + b + 2)) {
			return front * continuedFraction(x, a, b) / a;
		}
		return 1 - front * continuedFraction(1 - x, b, a) / b;
	}

	private static double continuedFraction(double x, double a, double b) {
		double tiny = 1e-300;
		double c = 1;
		double d = 1 - (a + b) * x / (a + 1);
		d = 1 / ((Math.abs(d) < tiny) ? tiny : d);
		double h = d;
		for (int m = 1; m <= 10_000; m++) {
			int m2 = 2 * m;
			double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
			d = 1 + aa * d;
			d = 1 / ((Math.abs(d) < tiny) ? tiny : d);
			c = 1 + aa / c;
			c = (Math.abs(c) < tiny) ? tiny : c;
			h *= d * c;
			aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
			d = 1 + aa * d;
			d = 1 / ((Math.abs(d) < tiny) ? tiny : d);
			c = 1 + aa / c;
			c = (Math.abs(c) < tiny) ? tiny : c;
			double step = d * c;
			h *= step;
			if (Math.abs(step - 1) < 1e-15) {
				break;
			}
		}
		return h;
	}

	/** ln Gamma(x) for x > 0, Lanczos (g = 7, n = 9). */
	private static double logGamma(double x) {
		double[] coefficients = { 0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
				-176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
				1.5056327351493116e-7 };
		if (x < 0.5) {
			return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
		}
		double z = x - 1;
		double sum = coefficients[0];
		for (int i = 1; i < coefficients.length; i++) {
			sum += coefficients[i] / (z + i);
		}
		double t = z + 7.5;
		return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
	}

}

// How far the samples of a model differ in one figure: min, max, mean and the coefficient of variation.
package io.drivequal.analysis;

import java.util.Collection;
import java.util.OptionalDouble;

/**
 * The spread of one figure across the samples of a model.
 *
 * @param samples how many samples gave a value
 * @param min the lowest value
 * @param max the highest value
 * @param mean the arithmetic mean
 * @param cvPercent the coefficient of variation in percent: the sample standard deviation
 * (n - 1 in the denominator) over the mean, times 100; empty with fewer than two values
 * or a mean of zero
 */
public record Spread(int samples, double min, double max, double mean, OptionalDouble cvPercent) {

	/**
	 * The spread of the values.
	 * @param values at least one finite value
	 * @return their spread
	 */
	public static Spread of(Collection<Double> values) {
		if (values.isEmpty()) {
			throw new IllegalArgumentException("the spread of no values");
		}
		double min = Double.POSITIVE_INFINITY;
		double max = Double.NEGATIVE_INFINITY;
		double sum = 0;
		for (double value : values) {
			if (!Double.isFinite(value)) {
				throw new IllegalArgumentException("a spread of finite values only, got " + value);
			}
			min = Math.min(min, value);
			max = Math.max(max, value);
			sum += value;
		}
		int n = values.size();
		double mean = sum / n;
		if (n < 2 || mean == 0) {
			return new Spread(n, min, max, mean, OptionalDouble.empty());
		}
		double squares = 0;
		for (double value : values) {
			squares += (value - mean) * (value - mean);
		}
		double sd = Math.sqrt(squares / (n - 1));
		return new Spread(n, min, max, mean, OptionalDouble.of(100.0 * sd / Math.abs(mean)));
	}

}

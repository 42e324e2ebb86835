// How a criterion compares a measured value with its limit; both bounds are inclusive.
package io.drivequal.analysis;

/** The direction of a criterion. */
public enum Comparison {

	/** measured &gt;= limit. */
	AT_LEAST,
	/** measured &lt;= limit. */
	AT_MOST;

	boolean accepts(double measured, double limit) {
		return (this == AT_LEAST) ? measured >= limit : measured <= limit;
	}

	/**
	 * Whether a is worse than b for this comparison (further on the failing side).
	 * @param a one value
	 * @param b another value
	 * @return true when a is worse
	 */
	boolean worse(double a, double b) {
		return (this == AT_LEAST) ? a < b : a > b;
	}

	String symbol() {
		return (this == AT_LEAST) ? ">=" : "<=";
	}

}

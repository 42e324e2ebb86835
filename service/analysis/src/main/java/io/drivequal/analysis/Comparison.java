// How a criterion compares a measured value with its limit; both bounds are inclusive.
package io.drivequal.analysis;

import java.util.Arrays;
import java.util.Optional;

/** The direction of a criterion. */
public enum Comparison {

	/** measured &gt;= limit. */
	AT_LEAST("atLeast"),
	/** measured &lt;= limit. */
	AT_MOST("atMost");

	private final String wireName;

	Comparison(String wireName) {
		this.wireName = wireName;
	}

	/** As a criterion's JSON names it: atLeast or atMost. */
	public String wireName() {
		return this.wireName;
	}

	/**
	 * @param wireName atLeast or atMost (exact, case-sensitive)
	 */
	public static Optional<Comparison> fromWireName(String wireName) {
		return Arrays.stream(values()).filter((comparison) -> comparison.wireName.equals(wireName)).findFirst();
	}

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

// One phase's per-second values (IOPS or bytes) in primitive arrays, ordered by t, so every analysis is a scan or a sort without boxing.
package io.drivequal.analysis;

import java.util.Arrays;

/**
 * Per-second values of one phase: {@code t} is the END of the one-second interval in
 * whole seconds since the phase started (t=1 covers [0 s, 1 s)), {@code value} what
 * happened in that second (IOs completed: the IOPS; or bytes completed). Seconds may be
 * missing; t is strictly increasing and at least 1. Immutable.
 */
public final class PerSecondSeries {

	private static final PerSecondSeries EMPTY = new PerSecondSeries(new long[0], new long[0]);

	private final long[] t;

	private final long[] values;

	private PerSecondSeries(long[] t, long[] values) {
		this.t = t;
		this.values = values;
	}

	/**
	 * A series from parallel arrays, copied.
	 * @param t interval ends, whole seconds, strictly increasing, each at least 1
	 * @param values non-negative value of each second
	 * @return the series
	 * @throws IllegalArgumentException on different lengths, unordered or duplicate t, t
	 * below 1 or a negative value, naming the index
	 */
	public static PerSecondSeries of(long[] t, long[] values) {
		if (t.length != values.length) {
			throw new IllegalArgumentException(
					"t has " + t.length + " entries but values has " + values.length + "; they must be parallel");
		}
		for (int i = 0; i < t.length; i++) {
			if (t[i] < 1) {
				throw new IllegalArgumentException("t[" + i + "] = " + t[i] + ": t is an interval end and at least 1");
			}
			if (i > 0 && t[i] <= t[i - 1]) {
				throw new IllegalArgumentException("t[" + i + "] = " + t[i] + " after t[" + (i - 1) + "] = " + t[i - 1]
						+ ": t must be strictly increasing (use builder() for unordered input)");
			}
			if (values[i] < 0) {
				throw new IllegalArgumentException("values[" + i + "] = " + values[i] + " is negative");
			}
		}
		return new PerSecondSeries(t.clone(), values.clone());
	}

	/**
	 * The series of consecutive seconds t = 1..values.length.
	 * @param values the value of each second, first second first
	 * @return the series
	 */
	public static PerSecondSeries consecutive(long... values) {
		long[] t = new long[values.length];
		for (int i = 0; i < t.length; i++) {
			t[i] = i + 1;
		}
		return of(t, values);
	}

	public static PerSecondSeries empty() {
		return EMPTY;
	}

	/**
	 * A builder that accepts seconds in any order (e.g. search hits) and sorts once.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	public int size() {
		return this.t.length;
	}

	public boolean isEmpty() {
		return this.t.length == 0;
	}

	/**
	 * Interval end of the i-th second present.
	 * @param index position, 0-based
	 * @return t in seconds
	 */
	public long t(int index) {
		return this.t[index];
	}

	/**
	 * Value of the i-th second present.
	 * @param index position, 0-based
	 * @return the value
	 */
	public long value(int index) {
		return this.values[index];
	}

	/**
	 * The last t present.
	 * @return the last t, or 0 when the series is empty
	 */
	public long lastT() {
		return this.t.length == 0 ? 0 : this.t[this.t.length - 1];
	}

	/**
	 * A copy of the values.
	 * @return the values, in t order
	 */
	public long[] values() {
		return this.values.clone();
	}

	/**
	 * A copy of the interval ends.
	 * @return t of every second present
	 */
	public long[] t() {
		return this.t.clone();
	}

	/**
	 * Position of the first second with t greater than the given time.
	 * @param timeS seconds since the phase started
	 * @return index of the first t &gt; timeS, or size() if none
	 */
	public int indexAfter(long timeS) {
		int low = 0;
		int high = this.t.length;
		while (low < high) {
			int middle = (low + high) >>> 1;
			if (this.t[middle] <= timeS) {
				low = middle + 1;
			}
			else {
				high = middle;
			}
		}
		return low;
	}

	/**
	 * The values of the seconds with startExclusiveS &lt; t &lt;= endInclusiveS, copied.
	 * @param startExclusiveS window start, exclusive
	 * @param endInclusiveS window end, inclusive
	 * @return the values, in t order
	 */
	long[] valuesIn(long startExclusiveS, long endInclusiveS) {
		int from = indexAfter(startExclusiveS);
		int to = indexAfter(endInclusiveS);
		return (from < to) ? Arrays.copyOfRange(this.values, from, to) : new long[0];
	}

	long[] rawT() {
		return this.t;
	}

	long[] rawValues() {
		return this.values;
	}

	@Override
	public String toString() {
		return "PerSecondSeries[size=" + this.t.length + ", lastT=" + lastT() + "]";
	}

	/**
	 * Collects seconds in any order; {@link #build()} sorts by t and rejects duplicates.
	 */
	public static final class Builder {

		private long[] t = new long[64];

		private long[] values = new long[64];

		private int size;

		private Builder() {
		}

		/**
		 * Adds one second.
		 * @param t interval end, whole seconds, at least 1
		 * @param value the second's value, non-negative
		 * @return this builder
		 */
		public Builder add(long t, long value) {
			if (this.size == this.t.length) {
				this.t = Arrays.copyOf(this.t, this.size * 2);
				this.values = Arrays.copyOf(this.values, this.size * 2);
			}
			this.t[this.size] = t;
			this.values[this.size] = value;
			this.size++;
			return this;
		}

		/**
		 * The series, sorted by t.
		 * @return the series
		 * @throws IllegalArgumentException when a t occurs twice, or on invalid t or
		 * value
		 */
		public PerSecondSeries build() {
			long[] sortedT = Arrays.copyOf(this.t, this.size);
			boolean sorted = true;
			for (int i = 1; i < this.size && sorted; i++) {
				sorted = sortedT[i] > sortedT[i - 1];
			}
			if (sorted) {
				return of(sortedT, Arrays.copyOf(this.values, this.size));
			}
			// Sort positions by t without boxing: (t << 32 | position) orders by t, then
			// position.
			long[] packed = new long[this.size];
			for (int i = 0; i < this.size; i++) {
				if (this.t[i] < 1 || this.t[i] > Integer.MAX_VALUE) {
					throw new IllegalArgumentException("t = " + this.t[i] + " is outside 1.." + Integer.MAX_VALUE);
				}
				packed[i] = (this.t[i] << 32) | i;
			}
			Arrays.sort(packed);
			long[] orderedValues = new long[this.size];
			for (int i = 0; i < this.size; i++) {
				int position = (int) packed[i];
				sortedT[i] = this.t[position];
				orderedValues[i] = this.values[position];
				if (i > 0 && sortedT[i] == sortedT[i - 1]) {
					throw new IllegalArgumentException("t = " + sortedT[i] + " occurs twice");
				}
			}
			return of(sortedT, orderedValues);
		}

	}

}

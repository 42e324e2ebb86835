// A figure that is either known or explicitly unknown with the reason, so nothing is ever guessed or silently zero.
package io.drivequal.analysis;

import java.util.OptionalDouble;

/**
 * A number that may be unknown; an unknown carries why (e.g. "the drive has no OCP C0h
 * log").
 */
public sealed interface Measure permits Measure.Known, Measure.Unknown {

	static Measure known(double value) {
		return new Known(value);
	}

	static Measure unknown(String reason) {
		return new Unknown(reason);
	}

	boolean isKnown();

	/**
	 * The value.
	 * @return the value when known
	 */
	OptionalDouble value();

	/**
	 * A known figure.
	 *
	 * @param number the value, finite
	 */
	record Known(double number) implements Measure {

		public Known {
			if (!Double.isFinite(number)) {
				throw new IllegalArgumentException("a known measure is finite, got " + number);
			}
		}

		@Override
		public boolean isKnown() {
			return true;
		}

		@Override
		public OptionalDouble value() {
			return OptionalDouble.of(this.number);
		}

	}

	/**
	 * An unknown figure.
	 *
	 * @param reason why it is unknown, for the report
	 */
	record Unknown(String reason) implements Measure {

		public Unknown {
			if (reason == null || reason.isBlank()) {
				throw new IllegalArgumentException("an unknown measure needs its reason");
			}
		}

		@Override
		public boolean isKnown() {
			return false;
		}

		@Override
		public OptionalDouble value() {
			return OptionalDouble.empty();
		}

	}

}

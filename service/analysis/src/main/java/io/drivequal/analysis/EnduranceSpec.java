// What the drive's datasheet (or the buyer) states about endurance; anything not stated stays absent, never assumed.
package io.drivequal.analysis;

import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Endurance inputs of a drive model.
 *
 * @param ratedPeCycles rated program/erase cycles of the NAND
 * @param rawNandBytes raw NAND capacity (user capacity plus spare), bytes
 * @param userCapacityBytes capacity the host sees, bytes
 * @param warrantyYears warranty period, years
 * @param ratedTbwBytes the vendor's rated terabytes written, in bytes (used when P/E
 * cycles are not given)
 */
public record EnduranceSpec(OptionalLong ratedPeCycles, OptionalLong rawNandBytes, OptionalLong userCapacityBytes,
		OptionalDouble warrantyYears, OptionalLong ratedTbwBytes) {

	public EnduranceSpec {
		requirePositive(ratedPeCycles, "ratedPeCycles");
		requirePositive(rawNandBytes, "rawNandBytes");
		requirePositive(userCapacityBytes, "userCapacityBytes");
		requirePositive(ratedTbwBytes, "ratedTbwBytes");
		if (warrantyYears.isPresent() && !(warrantyYears.getAsDouble() > 0)) {
			throw new IllegalArgumentException("warrantyYears = " + warrantyYears.getAsDouble() + " must be > 0");
		}
	}

	/**
	 * No input given.
	 * @return a spec where everything is unknown
	 */
	public static EnduranceSpec none() {
		return new EnduranceSpec(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
				OptionalDouble.empty(), OptionalLong.empty());
	}

	private static void requirePositive(OptionalLong value, String name) {
		if (value.isPresent() && value.getAsLong() <= 0) {
			throw new IllegalArgumentException(name + " = " + value.getAsLong() + " must be > 0");
		}
	}

}

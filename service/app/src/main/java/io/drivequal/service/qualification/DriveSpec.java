/*
 * What the buyer knows of the drive from its datasheet; the endurance projection uses only what is
 * given and never guesses the rest.
 */
package io.drivequal.service.qualification;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;

public record DriveSpec(@Positive Long rawNandBytes, @Positive Long ratedPeCycles, @Positive Long ratedTbwBytes,
		@Min(1) @Max(10) Integer warrantyYears) {
}

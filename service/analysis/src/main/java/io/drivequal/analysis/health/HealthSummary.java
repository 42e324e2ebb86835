// What a job's health readings say as a whole: the figures its health criteria judge.
package io.drivequal.analysis.health;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

import io.drivequal.analysis.Measure;

/**
 * The health of the drive over a job (or one phase), from its readings in order.
 *
 * @param readings readings taken
 * @param availableReadings readings with a health log behind them
 * @param unavailableReason why the drive had none, when no reading was available
 * @param maxTemperature the hottest reading, when any reported a temperature
 * @param criticalWarningBits every critical warning bit any reading had set (0: none)
 * @param firstCriticalWarning the first reading with a bit set
 * @param firstMediaErrors media errors at the first reading that counted them
 * @param lastMediaErrors and at the last
 * @param minAvailableSparePercent the lowest available spare reported
 * @param firstPercentageUsed, lastPercentageUsed endurance used at the first and last
 * reading
 * @param driveThrottledS seconds the drive itself counted in thermal management between
 * its first and last reading that reported the counter
 */
public record HealthSummary(int readings, int availableReadings, Optional<String> unavailableReason,
		Optional<Extreme> maxTemperature, int criticalWarningBits, Optional<Extreme> firstCriticalWarning,
		OptionalLong firstMediaErrors, OptionalLong lastMediaErrors, OptionalInt minAvailableSparePercent,
		OptionalInt firstPercentageUsed, OptionalInt lastPercentageUsed, OptionalLong driveThrottledS) {

	/**
	 * A reading that stood out: where it was taken and its value.
	 *
	 * @param phaseIndex its phase
	 * @param elapsedMs milliseconds into the phase
	 * @param value the value (kelvin for a temperature, bits for a warning)
	 */
	public record Extreme(int phaseIndex, long elapsedMs, int value) {

		/** A temperature value in degrees Celsius. */
		public double celsius() {
			return this.value - HealthReading.KELVIN_AT_0_C;
		}

	}

	/**
	 * @param readings in the order they were taken
	 * @param reasonWhenUnavailable why there is nothing, when a reading says so (null:
	 * "the drive reported no health")
	 */
	public static HealthSummary of(List<HealthReading> readings, String reasonWhenUnavailable) {
		int available = 0;
		int bits = 0;
		Extreme hottest = null;
		Extreme firstWarning = null;
		OptionalLong firstErrors = OptionalLong.empty();
		OptionalLong lastErrors = OptionalLong.empty();
		OptionalInt minSpare = OptionalInt.empty();
		OptionalInt firstUsed = OptionalInt.empty();
		OptionalInt lastUsed = OptionalInt.empty();
		OptionalLong firstThrottled = OptionalLong.empty();
		OptionalLong lastThrottled = OptionalLong.empty();
		for (HealthReading reading : readings) {
			if (!reading.available()) {
				continue;
			}
			available++;
			if (reading.temperatureK().isPresent()
					&& (hottest == null || reading.temperatureK().getAsInt() > hottest.value())) {
				hottest = new Extreme(reading.phaseIndex(), reading.elapsedMs(), reading.temperatureK().getAsInt());
			}
			int warning = reading.criticalWarning().orElse(0);
			if (warning != 0 && firstWarning == null) {
				firstWarning = new Extreme(reading.phaseIndex(), reading.elapsedMs(), warning);
			}
			bits |= warning;
			if (reading.mediaErrors().isPresent()) {
				firstErrors = firstErrors.isPresent() ? firstErrors : reading.mediaErrors();
				lastErrors = reading.mediaErrors();
			}
			if (reading.availableSparePercent().isPresent()
					&& (minSpare.isEmpty() || reading.availableSparePercent().getAsInt() < minSpare.getAsInt())) {
				minSpare = reading.availableSparePercent();
			}
			if (reading.percentageUsed().isPresent()) {
				firstUsed = firstUsed.isPresent() ? firstUsed : reading.percentageUsed();
				lastUsed = reading.percentageUsed();
			}
			if (reading.throttledTimeS().isPresent()) {
				firstThrottled = firstThrottled.isPresent() ? firstThrottled : reading.throttledTimeS();
				lastThrottled = reading.throttledTimeS();
			}
		}
		Optional<String> unavailable = (available > 0) ? Optional.empty()
				: Optional.of((reasonWhenUnavailable != null) ? reasonWhenUnavailable
						: (readings.isEmpty() ? "no health reading arrived" : "the drive reported no health"));
		OptionalLong throttled = firstThrottled.isPresent()
				? OptionalLong.of(lastThrottled.getAsLong() - firstThrottled.getAsLong()) : OptionalLong.empty();
		return new HealthSummary(readings.size(), available, unavailable, Optional.ofNullable(hottest), bits,
				Optional.ofNullable(firstWarning), firstErrors, lastErrors, minSpare, firstUsed, lastUsed, throttled);
	}

	/** maxTemperatureC: the hottest reading in degrees Celsius. */
	public Measure maxTemperatureC() {
		return this.maxTemperature.map((hottest) -> Measure.known(hottest.celsius()))
			.orElseGet(() -> Measure.unknown(this.unavailableReason.orElse("no reading reported a temperature")));
	}

	/**
	 * criticalWarning: the critical warning bits seen during the job (0 when none was
	 * set).
	 */
	public Measure criticalWarning() {
		return (this.availableReadings > 0) ? Measure.known(this.criticalWarningBits)
				: Measure.unknown(this.unavailableReason.orElse("no reading"));
	}

	/** newMediaErrors: media errors counted between the first and the last reading. */
	public Measure newMediaErrors() {
		if (this.firstMediaErrors.isEmpty()) {
			return Measure.unknown(this.unavailableReason.orElse("no reading counted media errors"));
		}
		if (this.availableReadings < 2) {
			return Measure.unknown("one reading only: nothing to compare the media errors with");
		}
		return Measure.known(this.lastMediaErrors.getAsLong() - this.firstMediaErrors.getAsLong());
	}

}

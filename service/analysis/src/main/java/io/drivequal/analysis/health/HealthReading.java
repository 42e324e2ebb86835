// One reading of the drive's health as the analysis needs it: where it was taken and what the drive reported.
package io.drivequal.analysis.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One health reading (the contract's smartSnapshot in a health event). Absent fields are
 * empty: the drive did not report them, and nothing is estimated.
 *
 * @param phaseIndex the phase running when it was read
 * @param elapsedMs milliseconds since that phase started, on its clock
 * @param available whether the drive had a health log to read
 * @param temperatureK composite temperature, kelvin
 * @param criticalWarning NVMe critical warning bits
 * @param mediaErrors media and data integrity errors, over the drive's life
 * @param availableSparePercent available spare
 * @param percentageUsed endurance used, percent (may exceed 100)
 * @param warningThresholdK the drive's warning composite temperature threshold (WCTEMP)
 * @param criticalThresholdK its critical composite temperature threshold (CCTEMP)
 * @param throttleThresholdK the temperature its light throttling starts at (TMT1)
 * @param throttledTimeS seconds in thermal management (both levels), over its life
 * @param ocp the OCP C0h members the drive reported, by the contract's names (empty: no
 * C0h)
 * @param latencyMonitor the OCP latency monitor's counters (C3h), when the drive has the
 * log
 */
public record HealthReading(int phaseIndex, long elapsedMs, boolean available, OptionalInt temperatureK,
		OptionalInt criticalWarning, OptionalLong mediaErrors, OptionalInt availableSparePercent,
		OptionalInt percentageUsed, OptionalInt warningThresholdK, OptionalInt criticalThresholdK,
		OptionalInt throttleThresholdK, OptionalLong throttledTimeS, Map<String, Long> ocp,
		Optional<LatencyMonitorCounts> latencyMonitor) {

	public HealthReading {
		ocp = Map.copyOf(ocp);
	}

	/** A C0h member, when this reading has it. */
	public OptionalLong ocp(String member) {
		Long value = this.ocp.get(member);
		return (value != null) ? OptionalLong.of(value) : OptionalLong.empty();
	}

	/** Kelvin to degrees Celsius. */
	public static final double KELVIN_AT_0_C = 273.15;

	public static Builder at(int phaseIndex, long elapsedMs) {
		return new Builder(phaseIndex, elapsedMs);
	}

	/** A reading field by field; unset fields are absent. */
	public static final class Builder {

		private final int phaseIndex;

		private final long elapsedMs;

		private boolean available = true;

		private OptionalInt temperatureK = OptionalInt.empty();

		private OptionalInt criticalWarning = OptionalInt.empty();

		private OptionalLong mediaErrors = OptionalLong.empty();

		private OptionalInt availableSparePercent = OptionalInt.empty();

		private OptionalInt percentageUsed = OptionalInt.empty();

		private OptionalInt warningThresholdK = OptionalInt.empty();

		private OptionalInt criticalThresholdK = OptionalInt.empty();

		private OptionalInt throttleThresholdK = OptionalInt.empty();

		private OptionalLong throttledTimeS = OptionalLong.empty();

		private final Map<String, Long> ocp = new LinkedHashMap<>();

		private Optional<LatencyMonitorCounts> latencyMonitor = Optional.empty();

		private Builder(int phaseIndex, long elapsedMs) {
			this.phaseIndex = phaseIndex;
			this.elapsedMs = elapsedMs;
		}

		public Builder unavailable() {
			this.available = false;
			return this;
		}

		public Builder temperatureK(int kelvin) {
			this.temperatureK = OptionalInt.of(kelvin);
			return this;
		}

		public Builder criticalWarning(int bits) {
			this.criticalWarning = OptionalInt.of(bits);
			return this;
		}

		public Builder mediaErrors(long errors) {
			this.mediaErrors = OptionalLong.of(errors);
			return this;
		}

		public Builder availableSparePercent(int percent) {
			this.availableSparePercent = OptionalInt.of(percent);
			return this;
		}

		public Builder percentageUsed(int percent) {
			this.percentageUsed = OptionalInt.of(percent);
			return this;
		}

		public Builder warningThresholdK(int kelvin) {
			this.warningThresholdK = OptionalInt.of(kelvin);
			return this;
		}

		public Builder criticalThresholdK(int kelvin) {
			this.criticalThresholdK = OptionalInt.of(kelvin);
			return this;
		}

		public Builder throttleThresholdK(int kelvin) {
			this.throttleThresholdK = OptionalInt.of(kelvin);
			return this;
		}

		public Builder throttledTimeS(long seconds) {
			this.throttledTimeS = OptionalLong.of(seconds);
			return this;
		}

		public Builder ocp(String member, long value) {
			this.ocp.put(member, value);
			return this;
		}

		public Builder latencyMonitor(LatencyMonitorCounts counts) {
			this.latencyMonitor = Optional.of(counts);
			return this;
		}

		public HealthReading build() {
			return new HealthReading(this.phaseIndex, this.elapsedMs, this.available, this.temperatureK,
					this.criticalWarning, this.mediaErrors, this.availableSparePercent, this.percentageUsed,
					this.warningThresholdK, this.criticalThresholdK, this.throttleThresholdK, this.throttledTimeS,
					this.ocp, this.latencyMonitor);
		}

	}

}

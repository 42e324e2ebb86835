// Known answers for what a job's health readings sum up to, and the three health criteria's values.
package io.drivequal.analysis.health;

import java.util.List;

import io.drivequal.analysis.Measure;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class HealthSummaryTest {

	@Test
	void hottestReadingWarningBitsAndNewMediaErrors() {
		List<HealthReading> readings = List.of(
				HealthReading.at(0, 0)
					.temperatureK(320)
					.criticalWarning(0)
					.mediaErrors(3)
					.availableSparePercent(100)
					.percentageUsed(1)
					.throttledTimeS(40)
					.build(),
				HealthReading.at(1, 10000)
					.temperatureK(344)
					.criticalWarning(2)
					.mediaErrors(3)
					.availableSparePercent(100)
					.build(),
				HealthReading.at(1, 20000)
					.temperatureK(339)
					.criticalWarning(1)
					.mediaErrors(5)
					.availableSparePercent(9)
					.percentageUsed(2)
					.throttledTimeS(52)
					.build(),
				HealthReading.at(2, 0).unavailable().build());
		HealthSummary summary = HealthSummary.of(readings, null);
		assertThat(summary.readings()).isEqualTo(4);
		assertThat(summary.availableReadings()).isEqualTo(3);
		assertThat(summary.maxTemperature()).contains(new HealthSummary.Extreme(1, 10000, 344));
		assertThat(summary.maxTemperatureC().value().getAsDouble()).isCloseTo(70.85, within(1e-9));
		assertThat(summary.criticalWarningBits()).isEqualTo(3);
		assertThat(summary.firstCriticalWarning()).contains(new HealthSummary.Extreme(1, 10000, 2));
		assertThat(summary.criticalWarning()).isEqualTo(Measure.known(3));
		assertThat(summary.newMediaErrors()).isEqualTo(Measure.known(2));
		assertThat(summary.minAvailableSparePercent()).hasValue(9);
		assertThat(summary.firstPercentageUsed()).hasValue(1);
		assertThat(summary.lastPercentageUsed()).hasValue(2);
		assertThat(summary.driveThrottledS()).hasValue(12);
	}

	@Test
	void aHealthyRunMeasuresZeroes() {
		List<HealthReading> readings = List.of(
				HealthReading.at(0, 0).temperatureK(310).criticalWarning(0).mediaErrors(0).build(),
				HealthReading.at(0, 10000).temperatureK(311).criticalWarning(0).mediaErrors(0).build());
		HealthSummary summary = HealthSummary.of(readings, null);
		assertThat(summary.criticalWarning()).isEqualTo(Measure.known(0));
		assertThat(summary.newMediaErrors()).isEqualTo(Measure.known(0));
		assertThat(summary.firstCriticalWarning()).isEmpty();
	}

	@Test
	void nothingToReadIsUnknownWithTheReasonNeverZero() {
		HealthSummary loop = HealthSummary.of(List.of(HealthReading.at(0, 0).unavailable().build()),
				"/dev/loop3 is a loop device: it has no SMART log");
		assertThat(loop.maxTemperatureC())
			.isEqualTo(Measure.unknown("/dev/loop3 is a loop device: it has no SMART log"));
		assertThat(loop.criticalWarning().isKnown()).isFalse();
		assertThat(loop.newMediaErrors().isKnown()).isFalse();
		assertThat(HealthSummary.of(List.of(), null).criticalWarning())
			.isEqualTo(Measure.unknown("no health reading arrived"));
		HealthSummary once = HealthSummary.of(List.of(HealthReading.at(0, 0).mediaErrors(0).criticalWarning(0).build()),
				null);
		assertThat(once.newMediaErrors())
			.isEqualTo(Measure.unknown("one reading only: nothing to compare the media errors with"));
		assertThat(once.maxTemperatureC()).isEqualTo(Measure.unknown("no reading reported a temperature"));
	}

}

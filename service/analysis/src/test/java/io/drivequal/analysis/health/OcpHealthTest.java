// The OCP figures of a job from its readings: C0h deltas and the latency monitor's new counts, known only when measured.
package io.drivequal.analysis.health;

import java.util.List;

import io.drivequal.analysis.Measure;
import io.drivequal.analysis.Metric;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OcpHealthTest {

	private static final List<Integer> THRESHOLDS = List.of(5, 10, 20, 50);

	@Test
	void deltasAreLastMinusFirstOfTheReadingsWithC0h() {
		List<HealthReading> readings = List.of(HealthReading.at(0, 0).unavailable().build(),
				HealthReading.at(0, 10).ocp("uncorrectableReadErrors", 4).ocp("incompleteShutdowns", 7).build(),
				HealthReading.at(1, 0).build(),
				HealthReading.at(1, 5000).ocp("uncorrectableReadErrors", 6).ocp("incompleteShutdowns", 7).build());
		OcpHealth ocp = OcpHealth.of(readings, null);
		assertThat(ocp.readingsWithOcp()).isEqualTo(2);
		assertThat(ocp.delta("uncorrectableReadErrors")).isEqualTo(Measure.known(2));
		assertThat(ocp.delta("incompleteShutdowns")).isEqualTo(Measure.known(0));
		assertThat(ocp.measures(null).get(Metric.OCP_UNCORRECTABLE_READ_ERRORS_DELTA)).isEqualTo(Measure.known(2));
		// a member the drive does not report (its log page version lacks it) is unknown,
		// never 0
		assertThat(ocp.delta("commandTimeouts").isKnown()).isFalse();
		assertThat(((Measure.Unknown) ocp.delta("commandTimeouts")).reason())
			.contains("does not report commandTimeouts");
	}

	@Test
	void withoutTwoReadingsOrWithoutC0hNothingIsKnown() {
		OcpHealth none = OcpHealth.of(List.of(HealthReading.at(0, 0).build(), HealthReading.at(0, 10).build()),
				"the drive has no OCP SMART / Health Information Extended (C0h) log: NVMe status 0x4002");
		assertThat(((Measure.Unknown) none.delta("uncorrectableReadErrors")).reason()).contains("0x4002");
		OcpHealth one = OcpHealth.of(List.of(HealthReading.at(0, 0).ocp("uncorrectableReadErrors", 0).build()), null);
		assertThat(((Measure.Unknown) one.delta("uncorrectableReadErrors")).reason()).contains("one reading");
		assertThat(one.measures("no C3h").get(Metric.OCP_LATENCY_MONITOR_COMMANDS))
			.isEqualTo(Measure.unknown("no C3h"));
	}

	@Test
	void theLatencyMonitorCountsEveryBucketAndDirectionBetweenItsFirstAndLastReading() {
		LatencyMonitorCounts before = counts(List.of(10L, 2L, 0L, 0L), List.of(100L, 5L, 1L, 0L),
				List.of(0L, 0L, 0L, 0L), List.of(0L, 0L, 0L, 0L));
		LatencyMonitorCounts after = counts(List.of(12L, 2L, 0L, 0L), List.of(130L, 5L, 1L, 1L),
				List.of(0L, 0L, 0L, 0L), List.of(0L, 0L, 0L, 0L));
		OcpHealth ocp = OcpHealth.of(List.of(HealthReading.at(0, 0).latencyMonitor(before).build(),
				HealthReading.at(0, 10).build(), HealthReading.at(1, 0).latencyMonitor(after).build()), null);
		// reads +2 in bucket 0, writes +30 in bucket 0 and +1 in bucket 3 (at or above
		// threshold D)
		assertThat(ocp.latencyMonitorCommands(null)).isEqualTo(Measure.known(33));
	}

	@Test
	void aRestartedActiveTimerCountsWhatTheStaticBucketsKept() {
		LatencyMonitorCounts before = counts(List.of(10L, 0L, 0L, 0L), List.of(0L, 0L, 0L, 0L), List.of(0L, 0L, 0L, 0L),
				List.of(0L, 0L, 0L, 0L));
		// the timer restarted: 14 reads reached the static bucket (4 of them during the
		// job), 3 since
		LatencyMonitorCounts after = counts(List.of(3L, 0L, 0L, 0L), List.of(0L, 0L, 0L, 0L), List.of(14L, 0L, 0L, 0L),
				List.of(0L, 0L, 0L, 0L));
		assertThat(before.countedUntil(after, 0, 0)).isEqualTo(7);
	}

	private static LatencyMonitorCounts counts(List<Long> activeRead, List<Long> activeWrite, List<Long> staticRead,
			List<Long> staticWrite) {
		List<Long> zeros = List.of(0L, 0L, 0L, 0L);
		return new LatencyMonitorCounts(THRESHOLDS, List.of(activeRead, activeWrite, zeros),
				List.of(staticRead, staticWrite, zeros));
	}

}

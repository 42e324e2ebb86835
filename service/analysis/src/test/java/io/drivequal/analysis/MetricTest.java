// The metric wire names are the REST API's criteria names: this list must only ever grow.
package io.drivequal.analysis;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MetricTest {

	@Test
	void wireNamesAreStable() {
		assertThat(Arrays.stream(Metric.values()).map(Metric::wireName)).containsExactly("steadyStateReached",
				"steadyStateIops", "consistencyRatio", "consistencyRatioFixedWindow", "writeLatencyP99Us",
				"writeLatencyP999Us", "writeLatencyP9999Us", "writeLatencyP99999Us", "writeLatencyP999999Us",
				"readLatencyP99Us", "readLatencyP999Us", "readLatencyP9999Us", "readLatencyP99999Us",
				"readLatencyP999999Us", "waf", "steadyStateWaf", "dwpd", "tbwBytes", "trimRecovery", "idleRecovery",
				"throughputMBps", "purgeVerified", "verifyMismatches", "maxTemperatureC", "criticalWarning",
				"newMediaErrors", "thermalThrottleSeconds", "ocpUncorrectableReadErrorsDelta",
				"ocpIncompleteShutdownsDelta", "ocpEndToEndDetectedErrorsDelta", "ocpBadUserNandBlocksDelta",
				"ocpBadSystemNandBlocksDelta", "ocpXorRecoveryCountDelta", "ocpPcieCorrectableErrorsDelta",
				"ocpThermalThrottlingEventsDelta", "ocpLatencyMonitorCommands", "writeLatencyMaxUs", "readLatencyMaxUs",
				"readKiBpsPerTb", "writeKiBpsPerTb", "trimKiBpsPerTb", "kneeReadIopsPerTb",
				"readIopsPerTbWithinP9999Of2500Us", "readIosAbove2500Us", "readIosAbove2500UsPerMillion",
				"writeIosAbove8Ms", "writeIosAbove8MsPerMillion", "powerLossFailedCycles", "powerLossLostDurableBlocks",
				"placementWafRatio");
	}

	@Test
	void lookupByWireName() {
		assertThat(Metric.fromWireName("consistencyRatio")).contains(Metric.CONSISTENCY_RATIO);
		assertThat(Metric.fromWireName("ConsistencyRatio")).isEmpty();
		assertThat(Metric.wireNames()).startsWith("steadyStateReached, steadyStateIops");
	}

}

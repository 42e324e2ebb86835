// The firmware-regression bench reads a run's last five rounds as the campaign comparison does (round r holds r x 60 < t <= (r + 1) x 60).
package io.drivequal.analysis;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class FirmwareRegressionTest {

	@Test
	void theLastFiveRoundsOfTheFirst600SecondsAreRounds5To9() {
		int seconds = 700; // a longer run: the seconds after the phase's 600 do not count
		long[] t = new long[seconds];
		long[] ios = new long[seconds];
		for (int i = 0; i < seconds; i++) {
			t[i] = i + 1;
			ios[i] = i + 1; // IOPS = t, so round r's mean is r x 60 + 30.5
		}
		TruthMatrix.Drive drive = new TruthMatrix.Drive("d", Map.of(), t, ios, new long[seconds], new long[seconds],
				new long[seconds]);
		assertThat(FirmwareRegression.lastFiveRounds(drive, 600))
			.containsExactly(new double[] { 330.5, 390.5, 450.5, 510.5, 570.5 }, within(1e-9));
	}

}

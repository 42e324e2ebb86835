// Student's t quantiles against the published table.
package io.drivequal.analysis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class StudentTTest {

	@Test
	void quantilesMatchTheTable() {
		assertThat(StudentT.quantile(0.975, 1)).isCloseTo(12.7062, within(1e-4));
		assertThat(StudentT.quantile(0.975, 2)).isCloseTo(4.3027, within(1e-4));
		assertThat(StudentT.quantile(0.975, 3)).isCloseTo(3.1824, within(1e-4));
		assertThat(StudentT.quantile(0.975, 6)).isCloseTo(2.4469, within(1e-4));
		assertThat(StudentT.quantile(0.975, 30)).isCloseTo(2.0423, within(1e-4));
		assertThat(StudentT.quantile(0.995, 10)).isCloseTo(3.1693, within(1e-4));
		assertThat(StudentT.quantile(0.975, Double.POSITIVE_INFINITY)).isCloseTo(1.9600, within(1e-4));
		assertThat(StudentT.quantile(0.025, 3)).isCloseTo(-3.1824, within(1e-4));
		// Real degrees of freedom (Welch) fall between their neighbours.
		assertThat(StudentT.quantile(0.975, 4.5)).isBetween(StudentT.quantile(0.975, 5), StudentT.quantile(0.975, 4));
	}

}

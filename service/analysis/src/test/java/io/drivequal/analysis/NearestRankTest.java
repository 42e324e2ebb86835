// The exact nearest-rank rule, including the cases binary floating point gets wrong.
package io.drivequal.analysis;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class NearestRankTest {

	@Test
	void ranks() {
		assertThat(NearestRank.rank(0.1, 2000)).isEqualTo(2);
		assertThat(NearestRank.rank(0.1, 600)).isEqualTo(1);
		assertThat(NearestRank.rank(0.1, 601)).isEqualTo(1);
		assertThat(NearestRank.rank(99, 601)).isEqualTo(595);
		assertThat(NearestRank.rank(0, 10)).isEqualTo(1);
		assertThat(NearestRank.rank(100, 10)).isEqualTo(10);
		assertThat(NearestRank.rank(new BigDecimal("99.9999"), 1_000_000)).isEqualTo(999_999);
	}

	@Test
	void exactWhereDoublesAreNot() {
		// 99.9 / 100 * 1000 = 999.0000000000001 in doubles, whose ceiling is 1000.
		assertThat(Math.ceil(99.9 / 100 * 1000)).isEqualTo(1000.0);
		assertThat(NearestRank.rank(99.9, 1000)).isEqualTo(999);
		assertThat(NearestRank.rank(99.9, 7000)).isEqualTo(6993);
	}

	@Test
	void refusesPercentilesOutside0To100() {
		assertThatIllegalArgumentException().isThrownBy(() -> NearestRank.rank(100.1, 10));
		assertThatIllegalArgumentException().isThrownBy(() -> NearestRank.rank(-1, 10));
		assertThatIllegalArgumentException().isThrownBy(() -> NearestRank.rank(50, 0));
	}

}

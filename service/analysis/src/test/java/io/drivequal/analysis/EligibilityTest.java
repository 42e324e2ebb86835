// The eligibility rule's own edges: W decided as the decimal it prints as, and the inputs it refuses.
package io.drivequal.analysis;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class EligibilityTest {

	@Test
	void wIsTakenAsItsDecimalNotItsBinaryApproximation() {
		// 1.1 * 100 is 110.00000000000001 in doubles, which would keep a round that
		// starts
		// with exactly 110 of 100 bytes written out; as a decimal, 1.1 x 100 = 110:
		// eligible.
		assertThat(1.1 * 100).isGreaterThan(110.0);
		Eligibility eligibility = Eligibility.afterRandomWrites(1.1, 100, 0, "by hand");
		assertThat(eligibility.eligibleAt(110)).isTrue();
		assertThat(eligibility.eligibleAt(109)).isFalse();
	}

	@Test
	void aPhaseThatDoesNotWriteHasEveryRoundEligibleAndAnUnknownRangeNone() {
		assertThat(Eligibility.notApplicable("reads").eligibleAt(0)).isTrue();
		Eligibility unknown = Eligibility.rangeUnknown(1.0, "no capacity");
		assertThat(unknown.eligibleAt(Long.MAX_VALUE)).isFalse();
		assertThat(unknown.rangeWrites(5)).isEmpty();
		assertThat(Eligibility.afterRandomWrites(0.0, 10, 0, "W = 0").eligibleAt(0)).isTrue();
	}

	@Test
	void refusesWhatCannotBeARule() {
		assertThatIllegalArgumentException().isThrownBy(() -> Eligibility.afterRandomWrites(-0.5, 10, 0, "x"))
			.withMessageContaining("W is a finite number >= 0");
		assertThatIllegalArgumentException().isThrownBy(() -> Eligibility.afterRandomWrites(Double.NaN, 10, 0, "x"));
		assertThatIllegalArgumentException().isThrownBy(() -> Eligibility.afterRandomWrites(1.0, 0, 0, "x"));
		assertThatIllegalArgumentException().isThrownBy(() -> Eligibility.afterRandomWrites(1.0, 10, -1, "x"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Eligibility(true, Eligibility.History.RESET, 1.0, OptionalLong.of(10), 0, " "));
	}

}

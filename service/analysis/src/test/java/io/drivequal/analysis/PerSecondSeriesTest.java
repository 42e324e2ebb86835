// The series' invariants: t ordered, unique, at least 1; builder sorts unordered input without boxing.
package io.drivequal.analysis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PerSecondSeriesTest {

	@Test
	void builderSortsByT() {
		PerSecondSeries series = PerSecondSeries.builder().add(3, 30).add(1, 10).add(2, 20).build();
		assertThat(series.t()).containsExactly(1, 2, 3);
		assertThat(series.values()).containsExactly(10, 20, 30);
		assertThat(series.lastT()).isEqualTo(3);
	}

	@Test
	void refusesDuplicatesUnorderedAndInvalidInput() {
		assertThatIllegalArgumentException().isThrownBy(() -> PerSecondSeries.builder().add(2, 1).add(2, 1).build())
			.withMessageContaining("t = 2 occurs twice");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PerSecondSeries.of(new long[] { 2, 1 }, new long[] { 1, 1 }))
			.withMessageContaining("strictly increasing");
		assertThatIllegalArgumentException().isThrownBy(() -> PerSecondSeries.of(new long[] { 0 }, new long[] { 1 }))
			.withMessageContaining("at least 1");
		assertThatIllegalArgumentException().isThrownBy(() -> PerSecondSeries.of(new long[] { 1 }, new long[] { -1 }))
			.withMessageContaining("negative");
		assertThatIllegalArgumentException().isThrownBy(() -> PerSecondSeries.of(new long[] { 1 }, new long[0]))
			.withMessageContaining("parallel");
	}

	@Test
	void indexAfterFindsWindowBounds() {
		PerSecondSeries series = PerSecondSeries.of(new long[] { 1, 2, 5, 9 }, new long[] { 1, 1, 1, 1 });
		assertThat(series.indexAfter(0)).isZero();
		assertThat(series.indexAfter(2)).isEqualTo(2);
		assertThat(series.indexAfter(4)).isEqualTo(2);
		assertThat(series.indexAfter(9)).isEqualTo(4);
		assertThat(series.valuesIn(2, 9)).hasSize(2);
	}

}

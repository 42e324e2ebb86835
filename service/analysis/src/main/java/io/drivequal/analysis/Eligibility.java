// Whether a phase's rounds are out of the drive's fresh state: the input that keeps a fresh-out-of-box plateau from passing as steady state.
package io.drivequal.analysis;

import java.math.BigDecimal;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What decides which rounds of a phase are eligible for a steady-state window.
 *
 * <p>
 * A drive that was just purged or filled has clean spare area; until random writes have
 * used it up, garbage collection has not started and a flat plateau says nothing about
 * the drive's sustained speed. So, for a phase that writes at random, round r is eligible
 * only when the random writes since the last purge or fill, counted up to the START of
 * round r (all of round r is measured after that point), have reached W times the tested
 * range: {@code randomWriteBytesBefore + Σ(write bytes of rounds 0..r-1) >= W ·
 * testedRangeBytes}, decided exactly (W is taken as the decimal it prints as). The bound
 * is inclusive. A phase that does not write leaves the drive as it is, so all its rounds
 * are eligible.
 *
 * @param applies false for a phase that does not write: every round is eligible
 * @param rangeWritesRequired W, a multiple of the tested range (1.0 by default); 0 makes
 * every round eligible
 * @param testedRangeBytes the tested range: user capacity × the phase's range percent;
 * empty when unknown, in which case no round of a writing phase is eligible
 * @param randomWriteBytesBefore random writes of earlier phases of the job since the last
 * purge or fill (none when this phase follows it directly)
 * @param basis one sentence for the report on where the figures come from, e.g. "since
 * the fill in phase 1 (precondition)"
 */
public record Eligibility(boolean applies, double rangeWritesRequired, OptionalLong testedRangeBytes,
		long randomWriteBytesBefore, String basis) {

	/** The default W: the random writes of one tested range. */
	public static final double DEFAULT_RANGE_WRITES_REQUIRED = 1.0;

	public Eligibility {
		if (!Double.isFinite(rangeWritesRequired) || rangeWritesRequired < 0) {
			throw new IllegalArgumentException(
					"rangeWritesRequired (W) = " + rangeWritesRequired + ": W is a finite number >= 0");
		}
		if (testedRangeBytes == null || (testedRangeBytes.isPresent() && testedRangeBytes.getAsLong() < 1)) {
			throw new IllegalArgumentException("testedRangeBytes = " + testedRangeBytes + ": at least 1 byte or empty");
		}
		if (randomWriteBytesBefore < 0) {
			throw new IllegalArgumentException("randomWriteBytesBefore = " + randomWriteBytesBefore + " is negative");
		}
		if (basis == null || basis.isBlank()) {
			throw new IllegalArgumentException("basis: say where the figures come from");
		}
	}

	/**
	 * A phase that does not write: its rounds do not move the drive's state.
	 * @param basis why, for the report
	 * @return every round eligible
	 */
	public static Eligibility notApplicable(String basis) {
		return new Eligibility(false, DEFAULT_RANGE_WRITES_REQUIRED, OptionalLong.empty(), 0, basis);
	}

	/**
	 * A phase that writes at random over a known range.
	 * @param rangeWritesRequired W
	 * @param testedRangeBytes user capacity × range percent
	 * @param randomWriteBytesBefore random writes of earlier phases since the last purge
	 * or fill
	 * @param basis where the figures come from
	 * @return the eligibility
	 */
	public static Eligibility afterRandomWrites(double rangeWritesRequired, long testedRangeBytes,
			long randomWriteBytesBefore, String basis) {
		return new Eligibility(true, rangeWritesRequired, OptionalLong.of(testedRangeBytes), randomWriteBytesBefore,
				basis);
	}

	/**
	 * A phase that writes at random over a range of unknown size: no round is eligible.
	 * @param rangeWritesRequired W
	 * @param basis why the range is unknown
	 * @return the eligibility
	 */
	public static Eligibility rangeUnknown(double rangeWritesRequired, String basis) {
		return new Eligibility(true, rangeWritesRequired, OptionalLong.empty(), 0, basis);
	}

	/**
	 * Whether random writes of {@code randomWriteBytesAtStart} (including
	 * randomWriteBytesBefore) make a round eligible.
	 * @param randomWriteBytesAtStart random writes since the last purge or fill, counted
	 * to the round's start
	 * @return true when eligible
	 */
	public boolean eligibleAt(long randomWriteBytesAtStart) {
		if (!this.applies) {
			return true;
		}
		if (this.testedRangeBytes.isEmpty()) {
			return false;
		}
		BigDecimal required = BigDecimal.valueOf(this.rangeWritesRequired)
			.multiply(BigDecimal.valueOf(this.testedRangeBytes.getAsLong()));
		return BigDecimal.valueOf(randomWriteBytesAtStart).compareTo(required) >= 0;
	}

	/**
	 * Random writes as a multiple of the tested range, for the report.
	 * @param randomWriteBytes bytes
	 * @return bytes / testedRangeBytes; empty when the range is unknown
	 */
	public OptionalDouble rangeWrites(long randomWriteBytes) {
		return this.testedRangeBytes.isPresent()
				? OptionalDouble.of((double) randomWriteBytes / this.testedRangeBytes.getAsLong())
				: OptionalDouble.empty();
	}

}

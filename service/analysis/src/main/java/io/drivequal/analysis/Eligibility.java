// What is known of a phase's history (a purge or fill before it, earlier random writes, the tested range): the inputs from which the detector judges where the drive's fresh state ended.
package io.drivequal.analysis;

import java.math.BigDecimal;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The history a phase's steady-state judgement starts from.
 *
 * <p>
 * A drive that was just purged or filled has clean spare area; until random writes have
 * used it up, garbage collection has not started and a flat plateau says nothing about
 * the drive's sustained speed. Where that fresh state ends is judged from evidence, the
 * strongest first ({@link FreshState}): the drive's own media writes per round, the
 * plateau-to-cliff change in the IOPS record, and only as the last resort a budget of
 * random writes: W times the tested range since the last purge or fill, counted to the
 * round's start ({@code randomWriteBytesBefore + Σ(write bytes of rounds 0..r-1) >= W ·
 * testedRangeBytes}, decided exactly, W taken as the decimal it prints as, inclusive). A
 * phase that does not write leaves the drive as it is; a log that does not start from a
 * purge or fill has an unknown history, and SNIA's published rules apply to it as they
 * stand.
 *
 * @param applies false for a phase that does not write: every round is eligible
 * @param history whether the phase's history starts from a purge or fill
 * @param rangeWritesRequired W of the written-bytes fallback, a multiple of the tested
 * range; 0 makes every round eligible when that fallback decides
 * @param testedRangeBytes the tested range: user capacity × the phase's range percent;
 * empty when unknown, in which case the written-bytes fallback makes no round eligible
 * @param randomWriteBytesBefore random writes of earlier phases of the job since the last
 * purge or fill (none when this phase follows it directly)
 * @param basis one sentence for the report on where the figures come from, e.g. "since
 * the fill in phase 1 (precondition)"
 */
public record Eligibility(boolean applies, History history, double rangeWritesRequired, OptionalLong testedRangeBytes,
		long randomWriteBytesBefore, String basis) {

	/**
	 * The default W of the written-bytes fallback: 1.5 tested ranges, above the latest
	 * any drive of the known-truth matrix settled (docs/methodology.md 3.2).
	 */
	public static final double DEFAULT_RANGE_WRITES_REQUIRED = 1.5;

	/** Where a phase's history starts. */
	public enum History {

		/**
		 * A purge, fill or deallocation precedes the phase in the job, or the job is
		 * taken as starting from a fresh drive.
		 */
		RESET("reset"),
		/** An imported log that does not start from a purge or fill. */
		UNKNOWN("unknown");

		private final String wireName;

		History(String wireName) {
			this.wireName = wireName;
		}

		@com.fasterxml.jackson.annotation.JsonValue
		public String wireName() {
			return this.wireName;
		}

		/**
		 * @param name "reset" or "unknown"
		 * @return the history
		 */
		public static History ofWireName(String name) {
			for (History history : values()) {
				if (history.wireName.equals(name)) {
					return history;
				}
			}
			throw new IllegalArgumentException("history \"" + name + "\": \"reset\" or \"unknown\"");
		}

	}

	public Eligibility {
		if (history == null) {
			throw new IllegalArgumentException("history: say whether the phase starts from a purge or fill");
		}
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
		return new Eligibility(false, History.RESET, DEFAULT_RANGE_WRITES_REQUIRED, OptionalLong.empty(), 0, basis);
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
		return new Eligibility(true, History.RESET, rangeWritesRequired, OptionalLong.of(testedRangeBytes),
				randomWriteBytesBefore, basis);
	}

	/**
	 * A phase that writes at random over a range of unknown size: the written-bytes
	 * fallback makes no round eligible.
	 * @param rangeWritesRequired W
	 * @param basis why the range is unknown
	 * @return the eligibility
	 */
	public static Eligibility rangeUnknown(double rangeWritesRequired, String basis) {
		return new Eligibility(true, History.RESET, rangeWritesRequired, OptionalLong.empty(), 0, basis);
	}

	/**
	 * A phase of a log that does not start from a purge or fill: SNIA's published rules,
	 * every round eligible.
	 * @param basis why, for the report
	 * @return the eligibility
	 */
	public static Eligibility historyUnknown(String basis) {
		return historyUnknown(OptionalLong.empty(), basis);
	}

	/**
	 * The same, with the tested range known (reported with each round; it decides nothing
	 * here).
	 * @param testedRangeBytes user capacity × range percent, if known
	 * @param basis why, for the report
	 * @return the eligibility
	 */
	public static Eligibility historyUnknown(OptionalLong testedRangeBytes, String basis) {
		return new Eligibility(true, History.UNKNOWN, DEFAULT_RANGE_WRITES_REQUIRED, testedRangeBytes, 0, basis);
	}

	/**
	 * The written-bytes fallback: whether random writes of
	 * {@code randomWriteBytesAtStart} (including randomWriteBytesBefore) make a round
	 * eligible.
	 * @param randomWriteBytesAtStart random writes since the last purge or fill, counted
	 * to the round's start
	 * @return true when eligible
	 */
	public boolean eligibleAt(long randomWriteBytesAtStart) {
		if (!this.applies || this.history == History.UNKNOWN) {
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

// One round of a phase (SNIA PTS): the unit the steady-state detector compares, reported even when it does not count.
package io.drivequal.analysis;

import java.util.OptionalDouble;

/**
 * Round {@code index} (0-based) of length L holds the seconds with index*L &lt; t &lt;=
 * (index+1)*L. It counts only with at least 90% of its L seconds present; a round that
 * does not count is reported as it is and never interpolated. It is eligible for a
 * steady-state window only once the drive is out of its fresh state ({@link FreshState}).
 *
 * @param index round number, 0-based
 * @param startExclusiveS index * L
 * @param endInclusiveS (index + 1) * L
 * @param secondsPresent how many of its L seconds have a sample
 * @param counted whether secondsPresent &gt;= 0.9 * L (so steady-state windows may use
 * it)
 * @param sumIops sum of the IOPS of the seconds present
 * @param meanIops sumIops / secondsPresent; empty when no second is present
 * @param randomWriteBytes random writes of the phase completed in this round's seconds
 * @param randomWriteBytesAtStart random writes since the last purge or fill, counted to
 * this round's start (earlier phases included)
 * @param rangeWritesAtStart randomWriteBytesAtStart / tested range; empty when the range
 * is unknown or the phase does not write
 * @param eligible whether the round may be part of a steady-state window
 * @param waf the round's write amplification by the drive's own counters (media bytes /
 * host bytes written in the round); empty when the drive reports no media writes
 */
public record Round(int index, long startExclusiveS, long endInclusiveS, int secondsPresent, boolean counted,
		long sumIops, OptionalDouble meanIops, long randomWriteBytes, long randomWriteBytesAtStart,
		OptionalDouble rangeWritesAtStart, boolean eligible, OptionalDouble waf) {

}

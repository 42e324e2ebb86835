// One imported second of a fio job, keyed by t exactly like a runner sample.
package io.drivequal.analysis.fio;

import java.util.Optional;

/**
 * One second of a fio job: {@code t} is the END of the interval in whole seconds
 * (docs/methodology.md, "sample time"): a fio log time in ms rounded to the nearest whole
 * second, so fio's window ending at 1145 ms is t = 1.
 *
 * @param t interval end, seconds since the job started
 * @param read reads in that second; empty when the iops log has no read entry for it
 * @param write writes in that second; empty when the iops log has no write entry for it
 * @param trim trims in that second; empty when the iops log has no trim entry for it
 */
public record FioSecond(long t, Optional<FioDirectionSecond> read, Optional<FioDirectionSecond> write,
		Optional<FioDirectionSecond> trim) {

	/**
	 * The given direction.
	 * @param direction read, write or trim
	 * @return that direction's second, if logged
	 */
	public Optional<FioDirectionSecond> direction(FioDirection direction) {
		return switch (direction) {
			case READ -> this.read;
			case WRITE -> this.write;
			case TRIM -> this.trim;
		};
	}

}

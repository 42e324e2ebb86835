// One direction of one imported second: the fio counterpart of a runner sample's read or write block.
package io.drivequal.analysis.fio;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * What fio logged for one direction in one second.
 *
 * @param iops the IOPS log's value (fio's average over the 1000 ms window)
 * @param bytes bandwidth log value x 1024 (fio logs KiB/s); empty without a bandwidth log
 * @param clatMeanNs mean completion latency from the clat log; empty without it
 * @param latMeanNs mean total latency from the lat log; empty without it
 * @param clatPercentilesNs percentiles from the histogram log; empty without it
 */
public record FioDirectionSecond(long iops, OptionalLong bytes, OptionalLong clatMeanNs, OptionalLong latMeanNs,
		Optional<FioSecondLatencyNs> clatPercentilesNs) {

}

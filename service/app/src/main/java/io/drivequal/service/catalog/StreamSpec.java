/*
 * One stream of a multi-stream workload phase, in the contract's streamSpec form
 * (schemas/messages/common.schema.json): the service carries it from the plan (or a fio job file)
 * to the runner unchanged, and the contract's schema says what is valid.
 */
package io.drivequal.service.catalog;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Without rateIops or rateBytesPerS the stream is a closed loop at queueDepth; with one
 * it is an open loop at that rate. placementHandle: the FDP placement handle of its
 * writes (the runner refuses it on a drive without FDP or beyond its handles).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StreamSpec(String name, String rw, Integer readPercent, Integer trimPercent, Integer randomPercent,
		Long blockSizeBytes, List<SplitShare> blockSizeSplit, Integer queueDepth, Long offsetBytes,
		Double offsetPercent, Long rangeBytes, Double rangePercent, Long rateIops, Long rateBytesPerS, String arrivals,
		Long thinkTimeUs, Long thinkTimeBlocks, Long startDelayMs, Integer placementHandle) {

	/** One block size and its share of the stream's IOs (fio's bssplit). */
	public record SplitShare(long blockSizeBytes, int percent) {
	}

	/**
	 * Whether the stream changes the drive's data: any write or trim (the rule the runner
	 * applies, pinned by schemas/examples/phase-rules/destructive.json).
	 */
	@JsonIgnore
	public boolean destroysData() {
		if ("read".equals(this.rw) || "randread".equals(this.rw)) {
			return false;
		}
		boolean mix = "rw".equals(this.rw) || "randrw".equals(this.rw);
		return !(mix && this.readPercent != null && this.readPercent == 100);
	}

	/** Not a property: an open loop offers a set rate whatever the drive does. */
	@JsonIgnore
	public boolean isOpenLoop() {
		return this.rateIops != null || this.rateBytesPerS != null;
	}

}

/*
 * The phase-result document (index drivequal-phase-results, id jobId/phaseIndex) as one type: what
 * a runner's phase-completed event (or an imported fio job) left of a phase, written by ingest's
 * callers through this record and read back into it by ingest's queries: for the analysis
 * (PhaseResultQueries), the campaigns' merged histograms (PhaseHistograms) and the report's
 * stream totals (StreamQueries). Its members follow the contract
 * (schemas/messages/common.schema.json: directionTotals, streamTotals, purgeVerification,
 * verifyResult, powerCycleResult, roundsResult, phaseSkipped) and the strict
 * drivequal-phase-results template; PhaseResultDocumentTest holds the three together.
 */
package io.drivequal.service.ingest;

import java.util.List;
import java.util.Set;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * @param timestamp when the phase completed (ISO-8601), or when a log was imported
 * @param deviceSerial null when not known (runner results carry it on the job)
 * @param samples the number of per-second samples the runner sent for the phase
 * @param read, write the contract's directionTotals; trim only for a phase that trimmed
 * @param streams a multi-stream phase's totals per stream, null otherwise
 * @param deallocatedBytes null when the phase deallocated nothing
 * @param effectiveQueueDepth the runner's time-averaged IOs outstanding (the message's
 * milli value / 1000); null for imports and phases without IO
 * @param purgeVerification, verify, powerCycle the read-backs of a purge, verify or
 * power-cycle phase, as the runner sent them
 * @param rounds how a phase with adaptive rounds stopped
 * @param limitReached the limit that ended a workload phase (runtimeS or sizeBytes)
 * @param skipped why the runner did not run the phase; null when it ran
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties({ "driveModel", "firmware", "profile", "steadyState", "consistency", "waf", "qos" })
public record PhaseResult(@JsonProperty("@timestamp") String timestamp, String jobId, String runnerId,
		String deviceSerial, int phaseIndex, String phaseName, String kind, long durationNs, long samples,
		DirectionTotals read, DirectionTotals write, DirectionTotals trim, List<StreamTotals> streams,
		Long deallocatedBytes, Double effectiveQueueDepth, PurgeVerification purgeVerification, VerifyResult verify,
		PowerCycleResult powerCycle, RoundsResult rounds, String limitReached, Skipped skipped) {

	public static final String INDEX = "drivequal-phase-results";

	/**
	 * The fields the analysis merges into the document after the job (its figures and the
	 * drive's labels, analysis/PhaseFigures): stored beside the phase's result, not part
	 * of it, so reading skips them.
	 */
	public static final Set<String> ANALYSIS_FIELDS = Set.of("driveModel", "firmware", "profile", "steadyState",
			"consistency", "waf", "qos");

	/** The document's id: one per phase of a job, so a redelivery overwrites itself. */
	public static String documentId(String jobId, int phaseIndex) {
		return jobId + "/" + phaseIndex;
	}

	public String documentId() {
		return documentId(this.jobId, this.phaseIndex);
	}

	/** Indexing this result under its deterministic id. */
	public BulkOperation indexOperation() {
		return BulkOperation.of((op) -> op.index((index) -> index.index(INDEX).id(documentId()).document(this)));
	}

	/**
	 * One direction's totals over the phase (contract directionTotals); responseTime only
	 * for an open-loop stream's direction.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record DirectionTotals(long ios, long bytes, Long errors, Long meanLatencyNs,
			LatencyHistogram latencyHistogram, ResponseTime responseTime) {

		public DirectionTotals(long ios, long bytes) {
			this(ios, bytes, null, null, null, null);
		}

	}

	/**
	 * An open-loop stream's latency from each IO's intended start (contract
	 * directionTotals.responseTime).
	 */
	public record ResponseTime(long meanLatencyNs, LatencyHistogram latencyHistogram) {
	}

	/**
	 * The contract's latency histogram: HdrHistogram buckets as [lowest equivalent value
	 * ns, count] pairs.
	 */
	public record LatencyHistogram(int significantDigits, long totalCount, long minNs, long maxNs,
			List<List<Long>> counts) {

		/** The buckets as the analysis library takes them. */
		public long[][] pairs() {
			long[][] pairs = new long[this.counts.size()][];
			for (int i = 0; i < pairs.length; i++) {
				pairs[i] = new long[] { this.counts.get(i).get(0), this.counts.get(i).get(1) };
			}
			return pairs;
		}

	}

	/** One stream of a multi-stream phase (contract streamTotals). */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record StreamTotals(int index, String name, Long offeredIos, Long maxBacklog, DirectionTotals read,
			DirectionTotals write, DirectionTotals trim) {
	}

	/** What a purge phase read back (contract purgeVerification). */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record PurgeVerification(String method, String status, String reason, String coverage, long canaryBlocks,
			long blocksRead, long lbasRead, long bytesRead, long blocksFound, List<Long> firstFoundLbas) {
	}

	/** What a verify phase read back (contract verifyResult). */
	public record VerifyResult(long blocksChecked, long unwrittenBlocks, long bytesRead, long mismatches,
			List<Mismatch> firstMismatches) {

		/** One block that did not hold what was written (contract verifyMismatch). */
		public record Mismatch(long lba, String expected, String found) {
		}

	}

	/** A power-cycle phase's outcome (contract powerCycleResult). */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record PowerCycleResult(String powerDriver, String durability, long cycles, long cyclesPassed,
			long cyclesFailed, String verdict, long acknowledgedWrites, long flushes, long intact, long lostAllowed,
			long lostDurable, long corrupt, long inFlightAtCut, long inFlightLost, List<Long> failedCycles,
			String firstFailure, List<CycleOutcome> perCycle) {

		/** One cut (contract powerCycleOutcome). */
		public record CycleOutcome(long cycle, String verdict, long cutAfterWrites, long intact, long lostAllowed,
				long lostDurable, long corrupt) {
		}

	}

	/**
	 * How a phase with adaptive rounds stopped (contract roundsResult); trackingMilli is
	 * the tracking step's level per round x 1000.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record RoundsResult(int roundsRun, String stoppedBecause, Integer reachedAtRound, Integer firstEligibleRound,
			String freshStateEvidence, List<Long> trackingMilli, WindowLatency windowLatency) {
	}

	/**
	 * Each step's latency over the rounds of the measurement window (contract
	 * windowLatency).
	 */
	public record WindowLatency(int firstRound, int lastRound, List<StepLatency> steps) {
	}

	/** One step's window latency (contract stepWindowLatency). */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record StepLatency(int step, LatencyFigures read, LatencyFigures write, LatencyFigures total) {
	}

	/** contract windowLatencyFigures */
	public record LatencyFigures(long ios, long meanNs, long p99Ns, long p999Ns, long p99999Ns, long maxNs) {
	}

	/** Why the runner did not run the phase (contract phaseSkipped). */
	public record Skipped(String reason, int saturatedPhaseIndex, String message) {
	}

}

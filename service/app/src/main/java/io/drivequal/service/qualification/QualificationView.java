/*
 * A qualification as GET /api/v1/qualifications/{id} shows it: state, progress and ETA (etaS, and
 * eta: what it rests on, its interval, a queued job's wait) while it runs, the verdict when done. Public because the drives and imports APIs answer with it too.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.drivequal.analysis.Criterion;
import io.drivequal.service.catalog.PhaseSpec;

@JsonInclude(JsonInclude.Include.NON_NULL)
public record QualificationView(String id, JobState state, String submitter, String profile, DriveView drive,
		List<PhaseSpec> plan, DriveSpec spec, List<Criterion> criteria, CurrentPhase currentPhase,
		Double progressPercent, Long etaS, EtaView eta, Integer queuePosition, Instant queuedAt, Instant dispatchedAt,
		Instant startedAt, Instant endedAt, boolean cancelRequested, String verdict, String failureReason,
		String message, Map<String, Object> analysis, List<String> warnings, String criteriaSet,
		AnalysisSettings analysisSettings, String priority, Instant notBefore, Instant runnerLostAt,
		List<RunnerGap> runnerGaps) {

	/**
	 * A runner loss the job resumed from: phase phaseIndex resumed after second
	 * fromSecond (0: it restarted); gapRound, that phase's round the gap falls in, is not
	 * counted.
	 */
	public record RunnerGap(int phaseIndex, long fromSecond, Integer gapRound, Instant lostAt, Instant resumedAt,
			long gapS) {
	}

	public record DriveView(String serial, String model, String firmware, String runnerId, String transportAddress,
			String engine, Long capacityBytes, Integer lbaSizeBytes) {
	}

	public record CurrentPhase(int index, String name, String kind) {
	}

}

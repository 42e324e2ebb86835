/*
 * The analysis settings a submission may set for its own job (plan.analysis), stored on the job
 * so the analysis of a finished job reads what the buyer asked for.
 */
package io.drivequal.service.qualification;

import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Pattern;

/**
 * @param rangeWritesRequired W of the steady-state rule's last-resort evidence: the
 * random writes since the last purge or fill, as a multiple of the tested range, a round
 * needs before it is eligible when neither the drive's media writes nor a cliff in the
 * IOPS shows where the fresh state ended; null keeps the profile's
 * @param history "reset" (default: the plan's purge or fill, or the run starts fresh) or
 * "unknown" (the drive's history before the run is not known, as for a vendor's log
 * imported without a stated preconditioning: SNIA's published rules apply as they stand)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AnalysisSettings(
		@DecimalMin(value = "0.0",
				message = "must be >= 0 (a multiple of the tested range)") Double rangeWritesRequired,
		@Pattern(regexp = "^(reset|unknown)$", message = "must be \"reset\" or \"unknown\"") String history) {

	/** Whether the drive's history before the run is unknown. */
	public boolean historyUnknown() {
		return "unknown".equals(this.history);
	}

}

/*
 * The analysis settings a submission may set for its own job (plan.analysis), stored on the job
 * so the analysis of a finished job reads what the buyer asked for.
 */
package io.drivequal.service.qualification;

import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.validation.constraints.DecimalMin;

/**
 * @param rangeWritesRequired W: the random writes since the last purge or fill, as a
 * multiple of the tested range, a round needs before it is eligible for steady state;
 * null keeps the profile's
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AnalysisSettings(@DecimalMin(value = "0.0",
		message = "must be >= 0 (a multiple of the tested range)") Double rangeWritesRequired) {

}

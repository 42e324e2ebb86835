// A criterion's outcome with the measured value printed next to the limit, as the report shows it.
package io.drivequal.analysis;

import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The judgement of one criterion.
 *
 * @param criterion the criterion
 * @param outcome PASS, FAIL or INCONCLUSIVE
 * @param measured the deciding value (the worst one when several phases measure the
 * metric); empty when INCONCLUSIVE for lack of a value
 * @param measuredInPhase the phase the deciding value comes from; empty for a job-level
 * value or none
 * @param explanation one sentence for the report, e.g. "measured 812.3 us in phase x,
 * limit <= 1000"
 */
public record CriterionResult(Criterion criterion, Outcome outcome, OptionalDouble measured,
		Optional<String> measuredInPhase, String explanation) {

}

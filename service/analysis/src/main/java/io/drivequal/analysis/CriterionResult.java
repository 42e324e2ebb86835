// A criterion's outcome with the measured value printed next to the limit, as the report shows it.
package io.drivequal.analysis;

import java.util.Optional;
import java.util.OptionalDouble;

import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * The judgement of one criterion.
 *
 * @param criterion the criterion; a stored verdict keeps it as it always has (enum names,
 * phaseName), not in the submission's form
 * @param outcome PASS, FAIL or INCONCLUSIVE
 * @param measured the deciding value (the worst one when several phases measure the
 * metric); empty when INCONCLUSIVE for lack of a value
 * @param measuredInPhase the phase the deciding value comes from; empty for a job-level
 * value or none
 * @param explanation one sentence for the report, e.g. "measured 812.3 us in phase x,
 * limit <= 1000"
 */
public record CriterionResult(@JsonSerialize(using = AsJudged.class) Criterion criterion, Outcome outcome,
		OptionalDouble measured, Optional<String> measuredInPhase, String explanation) {

	/**
	 * The criterion as stored verdicts (and the report reading them) have it: {metric:
	 * STEADY_STATE_IOPS, comparison: AT_LEAST, limit, phaseName}.
	 */
	static final class AsJudged extends ValueSerializer<Criterion> {

		@Override
		public void serialize(Criterion criterion, JsonGenerator json, SerializationContext context) {
			json.writeStartObject();
			json.writeStringProperty("metric", criterion.metric().name());
			json.writeStringProperty("comparison", criterion.comparison().name());
			json.writeNumberProperty("limit", criterion.limit());
			json.writeName("phaseName");
			if (criterion.phaseName().isPresent()) {
				json.writeString(criterion.phaseName().get());
			}
			else {
				json.writeNull();
			}
			json.writeEndObject();
		}

	}

}

// The job's verdict: FAIL if any criterion fails, else INCONCLUSIVE if any is unknown, else PASS.
package io.drivequal.analysis;

import java.util.List;

/**
 * The verdict of a job.
 *
 * @param outcome the job's outcome
 * @param criteria each criterion's result, in the order given
 */
public record Verdict(Outcome outcome, List<CriterionResult> criteria) {

	public Verdict {
		criteria = List.copyOf(criteria);
	}

}

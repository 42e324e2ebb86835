// The three answers a criterion or a job can get; INCONCLUSIVE keeps "not measured" apart from PASS and FAIL.
package io.drivequal.analysis;

/** Outcome of a criterion or of a whole job. */
public enum Outcome {

	PASS, FAIL,
	/** The value is missing or unknown, so the criterion can neither pass nor fail. */
	INCONCLUSIVE

}

// Everything analysed from one IOPS phase's per-second samples, in one value the service stores and reports.
package io.drivequal.analysis;

import java.util.Optional;

/**
 * Analysis of one random-IO phase.
 *
 * @param sampleCount seconds present in the phase
 * @param steadyState the SNIA detector's result, with every round
 * @param steadyStateConsistency consistency over the steady-state window; empty when not
 * reached
 * @param fixedWindowConsistency consistency over the fixed window; empty when none was
 * asked for or it holds no second
 */
public record IopsPhaseAnalysis(int sampleCount, SteadyStateResult steadyState,
		Optional<ConsistencyResult> steadyStateConsistency, Optional<ConsistencyResult> fixedWindowConsistency) {

}

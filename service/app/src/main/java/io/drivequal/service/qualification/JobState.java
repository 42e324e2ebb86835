/*
 * The states of a qualification job (docs/architecture.md, "Job lifecycle").
 */
package io.drivequal.service.qualification;

public enum JobState {

	QUEUED, DISPATCHED, RUNNING, COMPLETED, FAILED, CANCELLED, INTERRUPTED;

	/** No event or request moves a job out of a final state. */
	public boolean isFinal() {
		return this == COMPLETED || this == FAILED || this == CANCELLED || this == INTERRUPTED;
	}

	/** The job holds its drive's lease and a runner may be working on it. */
	public boolean holdsDrive() {
		return this == DISPATCHED || this == RUNNING;
	}

}

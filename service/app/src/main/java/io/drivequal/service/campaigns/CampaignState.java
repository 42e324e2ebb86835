/*
 * The states of a campaign (docs/architecture.md, "Campaigns"), derived from its jobs' states.
 */
package io.drivequal.service.campaigns;

public enum CampaignState {

	/** Every job waits in its drive's queue. */
	QUEUED,
	/**
	 * A job has been dispatched; not every job has ended, or a completed one awaits its
	 * analysis.
	 */
	RUNNING,
	/**
	 * Every job ended and every completed one was judged: the model verdict is recorded.
	 */
	COMPLETED,
	/** Cancelled on request, and every job has ended. */
	CANCELLED;

	public boolean isFinal() {
		return this == COMPLETED || this == CANCELLED;
	}

}

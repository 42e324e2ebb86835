/*
 * A job's progress and ETA as the API shows them (EtaEstimator makes them): the share of its
 * estimated duration done, and the ETA with what it rests on; none for a job that has ended.
 */
package io.drivequal.service.qualification;

/**
 * @param percent 0 until the job runs, 100 once COMPLETED, never 100 before
 * @param eta null for a job that has ended
 */
record Progress(double percent, EtaView eta) {

	/** Seconds left, the wait of a queued job included; 0 for a job that has ended. */
	long etaS() {
		return (this.eta != null) ? this.eta.remainingS() : 0;
	}

}

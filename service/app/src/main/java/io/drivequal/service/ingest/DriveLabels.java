/*
 * The drive a job qualifies, stored with each of its samples so that Kibana can split and filter
 * samples by model, firmware and simulated-or-real without a join.
 */
package io.drivequal.service.ingest;

/**
 * @param driveModel the model the job names (may be null when the submission did not name
 * one)
 * @param firmware the firmware revision (may be null)
 * @param simulated whether the samples come from the simulated drive
 */
public record DriveLabels(String driveModel, String firmware, boolean simulated) {

	/** Samples of a job the jobs index does not know (yet): stored without labels. */
	static final DriveLabels UNKNOWN = new DriveLabels(null, null, false);

}

/*
 * What the drives feature needs from qualification: a drive's qualifications as the API lists them,
 * so the drive pages never reach into the job store.
 */
package io.drivequal.service.qualification;

import java.util.List;

import org.springframework.stereotype.Component;

@Component
public class DriveHistory {

	private final QualificationService qualifications;

	private final Views views;

	DriveHistory(QualificationService qualifications, Views views) {
		this.qualifications = qualifications;
		this.views = views;
	}

	/** The drive's latest 100 qualifications, newest first, as listings show them. */
	public List<QualificationView> of(String serial) {
		return this.qualifications.history(serial).stream().map(this.views::summary).toList();
	}

}

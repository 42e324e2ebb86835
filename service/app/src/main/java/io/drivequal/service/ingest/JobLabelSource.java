/*
 * What ingest asks of the jobs' owner to label samples: the drive model, firmware and engine of
 * each job. Qualification owns the jobs index and answers (qualification/JobDriveLabels), so the
 * index's name and the job document's shape stay with it.
 */
package io.drivequal.service.ingest;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

public interface JobLabelSource {

	/**
	 * The labels of the jobs among {@code jobIds} that exist; a job the owner does not
	 * hold is left out.
	 * @throws UncheckedIOException when the jobs cannot be read (the batch is retried)
	 */
	Map<String, DriveLabels> labelsOf(List<String> jobIds);

}

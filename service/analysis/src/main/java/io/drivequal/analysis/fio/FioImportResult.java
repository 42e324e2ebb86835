// Everything imported from one fio run: its version and one entry per job (= phase).
package io.drivequal.analysis.fio;

import java.util.List;

/**
 * The result of importing a fio run.
 *
 * @param fioVersion e.g. "fio-3.33"
 * @param jobs the jobs in fio's order
 * @param notes run-level notes (e.g. text before the JSON that was skipped)
 */
public record FioImportResult(String fioVersion, List<FioJob> jobs, List<String> notes) {

	public FioImportResult {
		jobs = List.copyOf(jobs);
		notes = List.copyOf(notes);
	}

}

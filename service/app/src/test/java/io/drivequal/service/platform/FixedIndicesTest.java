/*
 * The indices the installer creates before anyone reads them come from the contract's templates,
 * not from a list of their own; and the names the owning modules index their documents under are
 * among them, so a renamed constant or template cannot leave a module writing to an index that
 * has no strict mapping.
 */
package io.drivequal.service.platform;

import java.util.List;

import io.drivequal.schemas.Contracts;
import io.drivequal.service.ingest.HealthReading;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.qualification.JobEventDocument;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FixedIndicesTest {

	private final List<String> fixed = IndexTemplateInstaller.fixedIndices(Contracts.load());

	@Test
	void everyTemplateWithoutAWildcardNamesOneFixedIndex() {
		assertThat(this.fixed).containsExactlyInAnyOrder("drivequal-jobs", "drivequal-events",
				"drivequal-phase-results", "drivequal-drives", "drivequal-runners", "drivequal-drive-leases",
				"drivequal-webhook-subscriptions", "drivequal-webhook-deliveries", "drivequal-health",
				"drivequal-runner-drains", "drivequal-campaigns");
		assertThat(this.fixed).noneMatch((index) -> index.contains("*"));
	}

	@Test
	void theStoredDocumentsTheAnalysisReadsLiveInFixedIndices() {
		assertThat(this.fixed).contains(PhaseResult.INDEX, JobEventDocument.INDEX, HealthReading.INDEX);
	}

}

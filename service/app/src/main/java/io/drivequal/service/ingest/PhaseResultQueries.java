/*
 * Reads a job's phase-result documents (drivequal-phase-results) back into their record, for the
 * analysis: ingest owns the index and the record, so the queries that read it live here too, and
 * no other feature names the index or parses its documents.
 */
package io.drivequal.service.ingest;

import java.util.HashMap;
import java.util.Map;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
public class PhaseResultQueries {

	/** More phases than any plan has. */
	private static final int MAX_PHASES = 1000;

	private final ElasticsearchClient client;

	PhaseResultQueries(ElasticsearchClient client) {
		this.client = client;
	}

	/** The job's phase-completed results by phase index; empty when none arrived. */
	public Map<Integer, PhaseResult> byPhase(String jobId) {
		Map<Integer, PhaseResult> byPhase = new HashMap<>();
		for (PhaseResult result : Documents.sources(Documents.search(this.client, PhaseResult.INDEX, PhaseResult.class,
				(search) -> search.size(MAX_PHASES)
					.query(Documents.term("jobId", jobId))
					.sort((sort) -> sort.field((field) -> field.field("phaseIndex").order(SortOrder.Asc)))))) {
			byPhase.put(result.phaseIndex(), result);
		}
		return byPhase;
	}

	/**
	 * Makes the phase results written so far searchable now rather than at the index's
	 * next scheduled refresh: a reader that must see every result of a finished job (the
	 * analysis) calls it first.
	 */
	public void refresh() {
		Documents.refresh(this.client, PhaseResult.INDEX);
	}

}

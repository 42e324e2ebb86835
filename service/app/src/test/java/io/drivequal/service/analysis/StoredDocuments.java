/*
 * The stored documents the analysis reads, made from the JSON shapes the tests write by hand: read
 * into their records by Jackson 2 as the Elasticsearch client reads them (ElasticsearchConfiguration),
 * but refusing a member the record does not have, so a misspelt fixture fails instead of passing
 * for an absent value.
 */
package io.drivequal.service.analysis;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.qualification.SmartSnapshot;

final class StoredDocuments {

	private static final ObjectMapper MAPPER = new ObjectMapper()
		.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

	private StoredDocuments() {
	}

	/** A drivequal-phase-results document; null stays null (no result arrived). */
	static PhaseResult result(Map<String, ?> document) {
		return (document != null) ? MAPPER.convertValue(document, PhaseResult.class) : null;
	}

	/** A phase's SMART snapshots by "before"/"after"; null stays null. */
	static Map<String, SmartSnapshot> smart(Map<String, ? extends Map<String, ?>> snapshots) {
		if (snapshots == null) {
			return null;
		}
		Map<String, SmartSnapshot> typed = new LinkedHashMap<>();
		snapshots.forEach((when, smart) -> typed.put(when, MAPPER.convertValue(smart, SmartSnapshot.class)));
		return typed;
	}

}

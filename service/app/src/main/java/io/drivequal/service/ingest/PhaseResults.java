/*
 * The phase-result document (index drivequal-phase-results, id jobId/phaseIndex) in one place, for
 * runner jobs (from phase-completed events) and fio imports alike.
 */
package io.drivequal.service.ingest;

import java.util.LinkedHashMap;
import java.util.Map;

import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;

public final class PhaseResults {

	public static final String INDEX = "drivequal-phase-results";

	private PhaseResults() {
	}

	/**
	 * @param read, write the contract's directionTotals (ios, bytes, errors,
	 * meanLatencyNs, latencyHistogram)
	 * @param deviceSerial, deallocatedBytes null when not known
	 * @param measured what only runner phases carry (effectiveQueueDepth,
	 * purgeVerification, verify); empty for imports
	 */
	public static BulkOperation document(String timestamp, String jobId, String runnerId, String deviceSerial,
			int phaseIndex, String phaseName, String kind, long durationNs, long samples, Map<String, Object> read,
			Map<String, Object> write, Long deallocatedBytes, Map<String, Object> measured) {
		Map<String, Object> document = new LinkedHashMap<>();
		document.put("@timestamp", timestamp);
		document.put("jobId", jobId);
		document.put("runnerId", runnerId);
		if (deviceSerial != null) {
			document.put("deviceSerial", deviceSerial);
		}
		document.put("phaseIndex", phaseIndex);
		document.put("phaseName", phaseName);
		document.put("kind", kind);
		document.put("durationNs", durationNs);
		document.put("samples", samples);
		document.put("read", read);
		document.put("write", write);
		if (deallocatedBytes != null) {
			document.put("deallocatedBytes", deallocatedBytes);
		}
		document.putAll(measured);
		String id = jobId + "/" + phaseIndex;
		return BulkOperation.of((op) -> op.index((index) -> index.index(INDEX).id(id).document(document)));
	}

}

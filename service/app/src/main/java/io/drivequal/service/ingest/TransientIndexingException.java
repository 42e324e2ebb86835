/*
 * Elasticsearch could not take a batch right now (overloaded, unavailable): retried, never
 * dead-lettered.
 */
package io.drivequal.service.ingest;

class TransientIndexingException extends RuntimeException {

	TransientIndexingException(String message) {
		super(message);
	}

}

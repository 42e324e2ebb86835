/*
 * Elasticsearch could not take a batch right now (overloaded, unavailable): retried, never
 * dead-lettered.
 */
package io.drivequal.service.platform;

class TransientIndexingException extends RuntimeException {

	public TransientIndexingException(String message) {
		super(message);
	}

}

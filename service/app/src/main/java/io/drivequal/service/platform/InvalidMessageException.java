/*
 * A record that can never be processed (not JSON, schema-invalid, oversized, rejected by the
 * index mapping). Not retryable: the error handler dead-letters it at once with this message as
 * the reason, and the consumer goes on.
 */
package io.drivequal.service.platform;

public class InvalidMessageException extends RuntimeException {

	public InvalidMessageException(String reason) {
		super(reason);
	}

}

/*
 * The request is valid but the resource's state forbids it (cancel a finished job): answered 409.
 */
package io.drivequal.service.platform;

public class ConflictException extends RuntimeException {

	public ConflictException(String message) {
		super(message);
	}

}

/*
 * A resource the caller named does not exist: answered 404.
 */
package io.drivequal.service.platform;

public class NotFoundException extends RuntimeException {

	public NotFoundException(String message) {
		super(message);
	}

}

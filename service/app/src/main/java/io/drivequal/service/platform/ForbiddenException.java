/*
 * The caller is known but may not do this to this resource (cancel another submitter's job): 403.
 */
package io.drivequal.service.platform;

public class ForbiddenException extends RuntimeException {

	public ForbiddenException(String message) {
		super(message);
	}

}

/*
 * The request is valid and the resource exists, but what it asks cannot be done there (a plan
 * that needs what the drive or its runner cannot do): answered 422 with each missing thing in
 * the problem's "missingCapabilities".
 */
package io.drivequal.service.platform;

import java.util.List;
import java.util.Map;

public class UnprocessableException extends RuntimeException {

	private final List<Map<String, String>> missingCapabilities;

	/**
	 * @param missingCapabilities each as capability, neededBy, missing, detail, remedy
	 */
	public UnprocessableException(String message, List<Map<String, String>> missingCapabilities) {
		super(message);
		this.missingCapabilities = List.copyOf(missingCapabilities);
	}

	public List<Map<String, String>> missingCapabilities() {
		return this.missingCapabilities;
	}

}

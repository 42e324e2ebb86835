/*
 * Bad input that Bean Validation cannot see (it needs the catalog, the drive or the contract):
 * answered 400 naming the field.
 */
package io.drivequal.service.platform;

public class BadRequestException extends RuntimeException {

	private final String field;

	public BadRequestException(String field, String message) {
		super(message);
		this.field = field;
	}

	public String field() {
		return this.field;
	}

}

/*
 * Bad input that Bean Validation cannot see (it needs the catalog, the drive or the contract):
 * answered 400 naming the field.
 */
package io.drivequal.service.platform;

import java.util.List;
import java.util.Map;

public class BadRequestException extends RuntimeException {

	private final String field;

	private final transient List<Map<String, Object>> errors;

	public BadRequestException(String field, String message) {
		this(field, message, List.of());
	}

	/**
	 * @param errors the 400's errors[] when one field has several problems (each with
	 * field and message, and what else locates it, e.g. a job file's line); empty: one
	 * entry, field and message
	 */
	public BadRequestException(String field, String message, List<Map<String, Object>> errors) {
		super(message);
		this.field = field;
		this.errors = List.copyOf(errors);
	}

	public String field() {
		return this.field;
	}

	public List<Map<String, Object>> errors() {
		return this.errors.isEmpty() ? List.of(Map.of("field", this.field, "message", getMessage())) : this.errors;
	}

}

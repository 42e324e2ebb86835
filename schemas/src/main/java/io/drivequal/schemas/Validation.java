/*
 * The outcome of checking one message against the contract: the parsed tree when it is usable, or
 * the reasons it is not (for dead-letter headers and 400 responses).
 */
package io.drivequal.schemas;

import java.util.List;

import tools.jackson.databind.JsonNode;

public record Validation(JsonNode message, List<String> errors) {

	public Validation {
		errors = List.copyOf(errors);
	}

	public boolean valid() {
		return this.errors.isEmpty();
	}

	/** All reasons in one line, bounded so it fits a Kafka header or a log line. */
	public String summary() {
		String joined = String.join("; ", this.errors);
		return (joined.length() <= 1000) ? joined : joined.substring(0, 997) + "...";
	}

}

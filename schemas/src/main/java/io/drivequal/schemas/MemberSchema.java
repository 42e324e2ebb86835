/*
 * The schema of one member of a message, compiled: what a decoder that streams a message (and so
 * never holds it as a tree) asks about each scalar it reads, so the bounds and patterns it applies
 * are still the schema's. The object-level rules (required members, additionalProperties, if/then)
 * stay with that decoder, which compares them with schema() before it trusts itself.
 */
package io.drivequal.schemas;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

public final class MemberSchema {

	/**
	 * Strings accepted before, remembered up to this many: a sample stream repeats its
	 * job, runner, serial and phase names every second, and a pattern costs more than a
	 * lookup.
	 */
	private static final int REMEMBERED = 4096;

	private final String path;

	private final JsonNode schema;

	private final Predicate<JsonNode> check;

	private final Map<String, Boolean> accepted = new ConcurrentHashMap<>();

	MemberSchema(String path, JsonNode schema, Predicate<JsonNode> check) {
		this.path = path;
		this.schema = schema;
		this.check = check;
	}

	/** The member's property names from the message's root, joined by dots. */
	public String path() {
		return this.path;
	}

	/** The member's schema, its $refs followed (read-only by convention). */
	public JsonNode schema() {
		return this.schema;
	}

	/** Whether the schema accepts the JSON integer {@code value} here. */
	public boolean accepts(long value) {
		return this.check.test(JsonNodeFactory.instance.numberNode(value));
	}

	/** Whether the schema accepts the JSON string {@code value} here. */
	public boolean accepts(String value) {
		if (this.accepted.containsKey(value)) {
			return true;
		}
		boolean valid = this.check.test(JsonNodeFactory.instance.stringNode(value));
		if (valid) {
			if (this.accepted.size() >= REMEMBERED) {
				this.accepted.clear();
			}
			this.accepted.put(value, Boolean.TRUE);
		}
		return valid;
	}

	@Override
	public String toString() {
		return this.path + " " + this.schema;
	}

}

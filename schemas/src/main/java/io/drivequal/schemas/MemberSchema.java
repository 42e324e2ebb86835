/*
 * The schema of one member of a message, compiled: what a decoder that streams a message (and so
 * never holds it as a tree) asks about each scalar it reads, so the bounds and patterns it applies
 * are still the schema's. The object-level rules (required members, additionalProperties, if/then)
 * stay with that decoder, which compares them with schema() before it trusts itself.
 */
package io.drivequal.schemas;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

public final class MemberSchema {

	/**
	 * The keywords that only annotate and never make a message invalid: what a decoder
	 * comparing a schema's rules with its own may ignore.
	 */
	public static final Set<String> ANNOTATIONS = CompiledSchema.ANNOTATIONS;

	/**
	 * Strings accepted before, remembered up to this many: a sample stream repeats its
	 * job, runner, serial and phase names every second, and a pattern costs more than a
	 * lookup.
	 */
	private static final int REMEMBERED = 4096;

	private final String path;

	private final JsonNode schema;

	final Predicate<JsonNode> check;

	private final Map<String, Boolean> accepted = new ConcurrentHashMap<>();

	/**
	 * An integer member whose schema is only a type, bounds or a constant: its check is a
	 * comparison of two longs (the general check boxes the value into a node).
	 */
	final boolean rangeOnly;

	private final long minimum;

	private final long maximum;

	MemberSchema(String path, JsonNode schema, Predicate<JsonNode> check) {
		this.path = path;
		this.schema = schema;
		this.check = check;
		long[] range = integerRange(schema);
		this.rangeOnly = range != null;
		this.minimum = (range != null) ? range[0] : 0;
		this.maximum = (range != null) ? range[1] : 0;
	}

	/**
	 * [minimum, maximum] of a schema that says only "an integer" with long bounds, or
	 * "this integer" (const); null for any other schema.
	 */
	private static long[] integerRange(JsonNode schema) {
		if (!schema.isObject()) {
			return null;
		}
		boolean integer = false;
		long[] range = { Long.MIN_VALUE, Long.MAX_VALUE };
		for (String keyword : schema.propertyNames()) {
			JsonNode value = schema.get(keyword);
			if (ANNOTATIONS.contains(keyword)) {
				continue;
			}
			if (keyword.equals("type") && value.isString() && value.asString().equals("integer")) {
				integer = true;
				continue;
			}
			if (!value.isIntegralNumber() || !value.canConvertToLong()) {
				return null;
			}
			switch (keyword) {
				case "minimum" -> range[0] = Math.max(range[0], value.longValue());
				case "maximum" -> range[1] = Math.min(range[1], value.longValue());
				case "const" -> {
					integer = true;
					range[0] = Math.max(range[0], value.longValue());
					range[1] = Math.min(range[1], value.longValue());
				}
				default -> {
					return null;
				}
			}
		}
		return integer ? range : null;
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
		if (this.rangeOnly) {
			return value >= this.minimum && value <= this.maximum;
		}
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

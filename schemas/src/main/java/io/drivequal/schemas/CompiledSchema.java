/*
 * A message schema compiled into plain checks on the parsed message, for the JSON Schema keywords
 * drivequal's schemas use. The general validator costs about as much per sample as indexing it;
 * these checks cost a few percent of that. It answers only "valid or not": Contracts accepts what
 * it passes and asks the general validator about everything else (for the reasons, and as the
 * final word), so the contract stays the general validator's. A schema with any keyword outside
 * the subset does not compile at all and is always checked the general way.
 */
package io.drivequal.schemas;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;
import tools.jackson.databind.JsonNode;

final class CompiledSchema {

	/** Keywords that only annotate: they never make a message invalid. */
	static final Set<String> ANNOTATIONS = Set.of("$schema", "$id", "$comment", "$defs", "title", "description",
			"examples", "default", "deprecated", "readOnly", "writeOnly");

	private final Map<String, JsonNode> documents;

	private final RegularExpressionFactory regex;

	/**
	 * $refs being compiled, so a recursive schema fails to compile instead of looping.
	 */
	private final Set<String> compiling = new HashSet<>();

	private final Map<String, Predicate<JsonNode>> compiled = new HashMap<>();

	private CompiledSchema(Map<String, JsonNode> documents, RegularExpressionFactory regex) {
		this.documents = documents;
		this.regex = regex;
	}

	/**
	 * @param documents every schema document by its $id
	 * @param id the document to compile
	 * @param regex the general validator's regular expressions, so "pattern" means the
	 * same on both paths
	 * @return the check, or empty when the schema uses a keyword this subset lacks
	 */
	static Optional<Predicate<JsonNode>> compile(Map<String, JsonNode> documents, String id,
			RegularExpressionFactory regex) {
		try {
			CompiledSchema compiler = new CompiledSchema(documents, regex);
			return Optional.of(compiler.schema(documents.get(id), id));
		}
		catch (UnsupportedOperationException ex) {
			return Optional.empty();
		}
	}

	/**
	 * The schema of one member, found by property names from the root of document
	 * {@code id} through $refs, with its compiled check.
	 * @throws IllegalArgumentException when the path names no declared property, or the
	 * member's schema uses a keyword this subset lacks
	 */
	static MemberSchema member(Map<String, JsonNode> documents, String id, List<String> path,
			RegularExpressionFactory regex) {
		CompiledSchema compiler = new CompiledSchema(documents, regex);
		Located at = compiler.dereference(new Located(documents.get(id), id));
		for (String name : path) {
			JsonNode properties = at.schema().get("properties");
			if (properties == null || !properties.has(name)) {
				throw new IllegalArgumentException(id + " declares no member " + path);
			}
			at = compiler.dereference(new Located(properties.get(name), at.base()));
		}
		try {
			return new MemberSchema(String.join(".", path), at.schema(), compiler.schema(at.schema(), at.base()));
		}
		catch (UnsupportedOperationException ex) {
			throw new IllegalArgumentException(path + " of " + id + " does not compile: " + ex.getMessage(), ex);
		}
	}

	/** A schema and the document its relative $refs start from. */
	private record Located(JsonNode schema, String base) {
	}

	/**
	 * Follows $refs until a schema with a keyword of its own; a $ref with sibling
	 * keywords other than annotations is not followed silently.
	 */
	private Located dereference(Located at) {
		Located current = at;
		for (int hops = 0; current.schema() != null && current.schema().has("$ref"); hops++) {
			JsonNode schema = current.schema();
			for (String keyword : schema.propertyNames()) {
				if (!keyword.equals("$ref") && !ANNOTATIONS.contains(keyword)) {
					throw new IllegalArgumentException("$ref beside " + keyword);
				}
			}
			if (hops > 16) {
				throw new IllegalArgumentException("$ref chain too long at " + schema.get("$ref").asString());
			}
			String ref = schema.get("$ref").asString();
			int hash = ref.indexOf('#');
			String document = (hash == 0) ? current.base()
					: current.base().substring(0, current.base().lastIndexOf('/') + 1)
							+ ((hash < 0) ? ref : ref.substring(0, hash));
			JsonNode root = this.documents.get(document);
			if (root == null) {
				throw new IllegalArgumentException("unknown document " + document);
			}
			current = new Located((hash < 0) ? root : root.at(ref.substring(hash + 1)), document);
		}
		if (current.schema() == null || current.schema().isMissingNode()) {
			throw new IllegalArgumentException("unresolved $ref in " + at.schema());
		}
		return current;
	}

	private Predicate<JsonNode> schema(JsonNode schema, String base) {
		if (schema == null) {
			throw new UnsupportedOperationException("missing schema");
		}
		if (schema.isBoolean()) {
			boolean accept = schema.asBoolean();
			return (node) -> accept;
		}
		if (!schema.isObject()) {
			throw new UnsupportedOperationException("schema is not an object");
		}
		List<Predicate<JsonNode>> checks = new ArrayList<>();
		for (String keyword : schema.propertyNames()) {
			JsonNode value = schema.get(keyword);
			switch (keyword) {
				case "type" -> checks.add(type(value));
				case "properties", "required", "additionalProperties" -> {
					// compiled together, once, below
				}
				case "const" -> checks.add((node) -> same(node, value));
				case "enum" -> checks.add(anyOfValues(value));
				case "pattern" -> checks.add(pattern(value.asString()));
				case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum" -> checks.add(bound(keyword, value));
				case "minLength" -> checks.add(length(value.asInt(), true));
				case "maxLength" -> checks.add(length(value.asInt(), false));
				case "minItems" -> checks.add(items(value.asInt(), true));
				case "maxItems" -> checks.add(items(value.asInt(), false));
				case "items" -> {
					Predicate<JsonNode> item = schema(value, base);
					checks.add((node) -> !node.isArray() || node.valueStream().allMatch(item));
				}
				case "$ref" -> checks.add(reference(value.asString(), base));
				case "if" -> checks.add(conditional(schema, base));
				case "then", "else" -> {
					// part of "if"; without it they are ignored, as the specification
					// says
				}
				case "not" -> {
					Predicate<JsonNode> inner = schema(value, base);
					checks.add(inner.negate());
				}
				case "allOf", "anyOf", "oneOf" -> checks.add(combination(keyword, value, base));
				default -> {
					if (!ANNOTATIONS.contains(keyword)) {
						throw new UnsupportedOperationException(keyword);
					}
				}
			}
		}
		if (schema.has("properties") || schema.has("required") || schema.has("additionalProperties")) {
			checks.add(object(schema, base));
		}
		return allOf(checks);
	}

	private static Predicate<JsonNode> allOf(List<Predicate<JsonNode>> checks) {
		Predicate<JsonNode>[] array = checks.toArray(Predicate[]::new);
		return (node) -> {
			for (Predicate<JsonNode> check : array) {
				if (!check.test(node)) {
					return false;
				}
			}
			return true;
		};
	}

	private Predicate<JsonNode> object(JsonNode schema, String base) {
		Map<String, Predicate<JsonNode>> properties = new HashMap<>();
		JsonNode declared = schema.get("properties");
		if (declared != null) {
			for (String name : declared.propertyNames()) {
				properties.put(name, schema(declared.get(name), base));
			}
		}
		List<String> required = new ArrayList<>();
		if (schema.has("required")) {
			schema.get("required").forEach((name) -> required.add(name.asString()));
		}
		JsonNode additional = schema.get("additionalProperties");
		Predicate<JsonNode> others = (additional == null) ? null : schema(additional, base);
		String[] requiredNames = required.toArray(String[]::new);
		return (node) -> {
			if (!node.isObject()) {
				return true;
			}
			for (String name : requiredNames) {
				if (!node.has(name)) {
					return false;
				}
			}
			for (Map.Entry<String, JsonNode> member : node.properties()) {
				Predicate<JsonNode> check = properties.get(member.getKey());
				if (check == null) {
					check = others;
				}
				if (check != null && !check.test(member.getValue())) {
					return false;
				}
			}
			return true;
		};
	}

	private static Predicate<JsonNode> type(JsonNode value) {
		List<String> names = new ArrayList<>();
		if (value.isArray()) {
			value.forEach((name) -> names.add(name.asString()));
		}
		else {
			names.add(value.asString());
		}
		List<Predicate<JsonNode>> accepted = new ArrayList<>();
		for (String name : names) {
			accepted.add(switch (name) {
				case "object" -> JsonNode::isObject;
				case "array" -> JsonNode::isArray;
				case "string" -> JsonNode::isString;
				case "boolean" -> JsonNode::isBoolean;
				case "null" -> JsonNode::isNull;
				case "number" -> JsonNode::isNumber;
				// 2020-12: a number with a zero fractional part is an integer (1.0 too)
				case "integer" -> CompiledSchema::isInteger;
				default -> throw new UnsupportedOperationException("type " + name);
			});
		}
		return (node) -> {
			for (Predicate<JsonNode> type : accepted) {
				if (type.test(node)) {
					return true;
				}
			}
			return false;
		};
	}

	static boolean isInteger(JsonNode node) {
		if (node.isIntegralNumber()) {
			return true;
		}
		if (!node.isNumber() || !finite(node)) {
			return false;
		}
		BigDecimal value = node.decimalValue();
		return value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
	}

	/**
	 * Infinity (1e400 parsed as a double) has no exact value to compare: such a message
	 * is left to the general validator, by failing here.
	 */
	private static boolean finite(JsonNode node) {
		return !node.isFloatingPointNumber() || node.isBigDecimal() || Double.isFinite(node.doubleValue());
	}

	private Predicate<JsonNode> pattern(String expression) {
		RegularExpression compiled = this.regex.getRegularExpression(expression);
		return (node) -> !node.isString() || compiled.matches(node.asString());
	}

	private static Predicate<JsonNode> items(int limit, boolean minimum) {
		return (node) -> !node.isArray() || (minimum ? node.size() >= limit : node.size() <= limit);
	}

	private static Predicate<JsonNode> length(int limit, boolean minimum) {
		return (node) -> {
			if (!node.isString()) {
				return true;
			}
			String text = node.asString();
			int codePoints = text.codePointCount(0, text.length());
			return minimum ? codePoints >= limit : codePoints <= limit;
		};
	}

	private static Predicate<JsonNode> bound(String keyword, JsonNode limitNode) {
		if (!limitNode.isNumber()) {
			throw new UnsupportedOperationException(keyword + " is not a number");
		}
		BigDecimal limit = limitNode.decimalValue();
		boolean longLimit = limitNode.isIntegralNumber() && limitNode.canConvertToLong();
		long limitLong = longLimit ? limitNode.longValue() : 0;
		return (node) -> {
			if (!node.isNumber()) {
				return true;
			}
			if (!finite(node)) {
				return false;
			}
			int order = (longLimit && node.isIntegralNumber() && node.canConvertToLong())
					? Long.compare(node.longValue(), limitLong) : node.decimalValue().compareTo(limit);
			return switch (keyword) {
				case "minimum" -> order >= 0;
				case "maximum" -> order <= 0;
				case "exclusiveMinimum" -> order > 0;
				default -> order < 0;
			};
		};
	}

	/** JSON equality with numbers compared by value (1 and 1.0 are the same). */
	static boolean same(JsonNode a, JsonNode b) {
		if (a.isNumber() && b.isNumber()) {
			return finite(a) && finite(b) && a.decimalValue().compareTo(b.decimalValue()) == 0;
		}
		if (a.isObject() && b.isObject()) {
			if (a.size() != b.size()) {
				return false;
			}
			for (String name : a.propertyNames()) {
				if (!b.has(name) || !same(a.get(name), b.get(name))) {
					return false;
				}
			}
			return true;
		}
		if (a.isArray() && b.isArray()) {
			if (a.size() != b.size()) {
				return false;
			}
			for (int i = 0; i < a.size(); i++) {
				if (!same(a.get(i), b.get(i))) {
					return false;
				}
			}
			return true;
		}
		return a.equals(b);
	}

	private static Predicate<JsonNode> anyOfValues(JsonNode values) {
		List<JsonNode> accepted = new ArrayList<>();
		values.forEach(accepted::add);
		return (node) -> accepted.stream().anyMatch((value) -> same(node, value));
	}

	private Predicate<JsonNode> conditional(JsonNode schema, String base) {
		Predicate<JsonNode> condition = schema(schema.get("if"), base);
		Predicate<JsonNode> then = schema.has("then") ? schema(schema.get("then"), base) : (node) -> true;
		Predicate<JsonNode> otherwise = schema.has("else") ? schema(schema.get("else"), base) : (node) -> true;
		return (node) -> condition.test(node) ? then.test(node) : otherwise.test(node);
	}

	private Predicate<JsonNode> combination(String keyword, JsonNode value, String base) {
		List<Predicate<JsonNode>> parts = new ArrayList<>();
		value.forEach((part) -> parts.add(schema(part, base)));
		return switch (keyword) {
			case "allOf" -> allOf(parts);
			case "anyOf" -> (node) -> parts.stream().anyMatch((part) -> part.test(node));
			default -> (node) -> parts.stream().filter((part) -> part.test(node)).count() == 1;
		};
	}

	/**
	 * "#/$defs/x" in the same document, or "other.schema.json#/$defs/x" beside it;
	 * compiled once and shared.
	 */
	private Predicate<JsonNode> reference(String ref, String base) {
		int hash = ref.indexOf('#');
		String document = (hash == 0) ? base : base.substring(0, base.lastIndexOf('/') + 1) + ref.substring(0, hash);
		String pointer = (hash < 0) ? "" : ref.substring(hash + 1);
		String key = document + "#" + pointer;
		Predicate<JsonNode> done = this.compiled.get(key);
		if (done != null) {
			return done;
		}
		if (!this.compiling.add(key)) {
			throw new UnsupportedOperationException("recursive $ref " + key);
		}
		JsonNode root = this.documents.get(document);
		if (root == null) {
			throw new UnsupportedOperationException("unknown document " + document);
		}
		JsonNode target = pointer.isEmpty() ? root : root.at(pointer);
		if (target.isMissingNode()) {
			throw new UnsupportedOperationException("unresolved $ref " + ref);
		}
		Predicate<JsonNode> check = schema(target, document);
		this.compiling.remove(key);
		this.compiled.put(key, check);
		return check;
	}

}

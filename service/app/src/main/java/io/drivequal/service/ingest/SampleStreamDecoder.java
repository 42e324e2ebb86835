/*
 * The sample decoder of the hot path: one pass over the bytes with a streaming parser, every
 * scalar checked against its member's compiled schema and bound as it is read, so a valid sample
 * never becomes a tree, is never walked by a validator and never bound a second time
 * (docs/benchmarks.md, "Ingest"). It vouches only for what it fully understands: anything else
 * (an unknown or repeated member, a float where an integer goes, a number beyond a long, bytes
 * that are not JSON) returns null, and the caller asks the general path, which gives the reasons
 * and has the final word. The rules between members (which are required, which others are
 * forbidden, the two if/then rules) are written here; the constructor compares them with the
 * schema and the decoder turns itself off, logging why, when the schema says anything else.
 * SampleStreamDecoderTest proves on tens of thousands of mutants that it never accepts a sample
 * the schema refuses and never binds one differently.
 */
package io.drivequal.service.ingest;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MemberSchema;
import io.drivequal.schemas.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.sym.PropertyNameMatcher;
import tools.jackson.core.util.Named;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

final class SampleStreamDecoder {

	private static final Logger logger = LoggerFactory.getLogger(SampleStreamDecoder.class);

	/** The members of a sample, in the order of their bits in a presence mask. */
	static final List<String> MEMBERS = List.of("schemaVersion", "jobId", "runnerId", "deviceSerial", "phaseIndex",
			"phaseName", "t", "timeMs", "read", "write", "effectiveQueueDepthMilli", "round", "step", "wallMs",
			"clockRateMilli", "trim", "streams");

	/**
	 * Members of multi-stream phases' samples, which the full validator decodes instead.
	 */
	private static final int FIRST_STREAMS_MEMBER = MEMBERS.indexOf("trim");

	/** The members every sample has: the first ten. */
	static final int REQUIRED_MEMBERS = 10;

	static final List<String> DIRECTION_MEMBERS = List.of("ios", "bytes", "latencyNs");

	static final int REQUIRED_DIRECTION_MEMBERS = 2;

	static final List<String> LATENCY_MEMBERS = List.of("p50", "p99", "p999", "max");

	/** Indices in MEMBERS the decoder treats apart. */
	private static final int READ = MEMBERS.indexOf("read");

	private static final int WRITE = MEMBERS.indexOf("write");

	private static final int QUEUE_DEPTH = MEMBERS.indexOf("effectiveQueueDepthMilli");

	private static final int ROUND = MEMBERS.indexOf("round");

	private static final int STEP = MEMBERS.indexOf("step");

	private static final int WALL_MS = MEMBERS.indexOf("wallMs");

	private static final int CLOCK_RATE = MEMBERS.indexOf("clockRateMilli");

	/** The string members, as bits of their indices in MEMBERS. */
	private static final int STRING_MEMBERS = Stream.of("jobId", "runnerId", "deviceSerial", "phaseName")
		.mapToInt((name) -> 1 << MEMBERS.indexOf(name))
		.reduce(0, (a, b) -> a | b);

	private static final int LATENCY = DIRECTION_MEMBERS.indexOf("latencyNs");

	/**
	 * Parsers without a databind context (ObjectMapper.createParser makes one per
	 * message). The table of member names stays on: with it off, matching names costs
	 * half as much again (0.74 vs 1.18 us a sample, a loop like DecodeCost's).
	 */
	private final JsonFactory factory = new JsonFactory();

	private final boolean enabled;

	/**
	 * Each member's compiled schema, by its index in MEMBERS (none for read and write,
	 * whose members are in direction), DIRECTION_MEMBERS and LATENCY_MEMBERS.
	 */
	private final MemberSchema[] members = new MemberSchema[MEMBERS.size()];

	private final MemberSchema[] direction = new MemberSchema[REQUIRED_DIRECTION_MEMBERS];

	private final MemberSchema[] latency = new MemberSchema[LATENCY_MEMBERS.size()];

	/** Names matched on the parser's bytes, to their index in MEMBERS and the others. */
	private final PropertyNameMatcher sampleNames;

	private final PropertyNameMatcher directionNames;

	private final PropertyNameMatcher latencyNames;

	SampleStreamDecoder(Contracts contracts) {
		this.sampleNames = matcher(MEMBERS);
		this.directionNames = matcher(DIRECTION_MEMBERS);
		this.latencyNames = matcher(LATENCY_MEMBERS);
		List<String> differences;
		try {
			differences = differences(contracts);
			if (differences.isEmpty()) {
				compileMembers(contracts);
			}
		}
		catch (IllegalArgumentException ex) {
			// a member gone, or one whose schema the compiled subset cannot check
			differences = List.of(ex.getMessage());
		}
		this.enabled = differences.isEmpty();
		if (!this.enabled) {
			logger.warn("The sample schema is not the one the stream decoder knows ({}): every sample takes the"
					+ " general validator", String.join("; ", differences));
		}
	}

	private void compileMembers(Contracts contracts) {
		MessageType sample = MessageType.SAMPLE;
		for (int i = 0; i < MEMBERS.size(); i++) {
			String name = MEMBERS.get(i);
			if (!name.equals("read") && !name.equals("write")) {
				this.members[i] = contracts.member(sample, name);
			}
		}
		for (int i = 0; i < this.direction.length; i++) {
			this.direction[i] = contracts.member(sample, "read", DIRECTION_MEMBERS.get(i));
		}
		for (int i = 0; i < this.latency.length; i++) {
			this.latency[i] = contracts.member(sample, "read", "latencyNs", LATENCY_MEMBERS.get(i));
		}
	}

	private PropertyNameMatcher matcher(List<String> names) {
		return this.factory.constructNameMatcher(names.stream().map(Named::fromString).toList(), false);
	}

	/**
	 * False when the schema's rules between members changed: see the constructor's log.
	 */
	boolean enabled() {
		return this.enabled;
	}

	/**
	 * The sample, or null when this decoder does not vouch for {@code json}: the caller
	 * then decodes it the general way.
	 */
	SampleMessage decode(byte[] json) {
		if (!this.enabled) {
			return null;
		}
		try (JsonParser parser = this.factory.createParser(ObjectReadContext.empty(), json)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return null;
			}
			SampleMessage sample = sample(parser);
			return (sample != null && parser.nextToken() == null) ? sample : null;
		}
		catch (JacksonException | NotVouched ex) {
			return null;
		}
	}

	private SampleMessage sample(JsonParser parser) {
		int seen = 0;
		long[] integers = new long[MEMBERS.size()];
		String[] strings = new String[MEMBERS.size()];
		SampleMessage.Direction[] directions = new SampleMessage.Direction[2];
		for (int member = next(parser, this.sampleNames); member != PropertyNameMatcher.MATCH_END_OBJECT; member = next(
				parser, this.sampleNames)) {
			JsonToken token = parser.nextToken();
			if (member >= FIRST_STREAMS_MEMBER) {
				throw NotVouched.INSTANCE;
			}
			if (member == READ || member == WRITE) {
				directions[member - READ] = direction(parser, token);
			}
			else if ((STRING_MEMBERS & (1 << member)) != 0) {
				strings[member] = string(parser, token, this.members[member]);
			}
			else {
				integers[member] = integer(parser, token, this.members[member]);
			}
			seen = once(seen, 1 << member);
		}
		int required = (1 << REQUIRED_MEMBERS) - 1;
		if ((seen & required) != required || has(seen, ROUND) != has(seen, STEP)) {
			throw NotVouched.INSTANCE;
		}
		// the record's components are MEMBERS, in the same order
		return new SampleMessage((int) integers[0], strings[1], strings[2], strings[3], (int) integers[4], strings[5],
				(int) integers[6], integers[7], directions[0], directions[1],
				has(seen, QUEUE_DEPTH) ? integers[QUEUE_DEPTH] : null, has(seen, ROUND) ? (int) integers[ROUND] : null,
				has(seen, STEP) ? (int) integers[STEP] : null, has(seen, WALL_MS) ? integers[WALL_MS] : null,
				has(seen, CLOCK_RATE) ? integers[CLOCK_RATE] : null, null, null);
	}

	private static boolean has(int seen, int member) {
		return (seen & (1 << member)) != 0;
	}

	/** ios and bytes, and latencyNs exactly when ios >= 1. */
	private SampleMessage.Direction direction(JsonParser parser, JsonToken token) {
		if (token != JsonToken.START_OBJECT) {
			throw NotVouched.INSTANCE;
		}
		int seen = 0;
		long[] counts = new long[REQUIRED_DIRECTION_MEMBERS];
		SampleMessage.LatencyNs latencyNs = null;
		for (int member = next(parser,
				this.directionNames); member != PropertyNameMatcher.MATCH_END_OBJECT; member = next(parser,
						this.directionNames)) {
			JsonToken value = parser.nextToken();
			if (member == LATENCY) {
				latencyNs = latency(parser, value);
			}
			else {
				counts[member] = integer(parser, value, this.direction[member]);
			}
			seen = once(seen, 1 << member);
		}
		int required = (1 << REQUIRED_DIRECTION_MEMBERS) - 1;
		if ((seen & required) != required || (counts[0] >= 1) != (latencyNs != null)) {
			throw NotVouched.INSTANCE;
		}
		return new SampleMessage.Direction(counts[0], counts[1], latencyNs);
	}

	/** All four percentiles, nothing else. */
	private SampleMessage.LatencyNs latency(JsonParser parser, JsonToken token) {
		if (token != JsonToken.START_OBJECT) {
			throw NotVouched.INSTANCE;
		}
		int seen = 0;
		long[] values = new long[LATENCY_MEMBERS.size()];
		for (int index = next(parser, this.latencyNames); index != PropertyNameMatcher.MATCH_END_OBJECT; index = next(
				parser, this.latencyNames)) {
			values[index] = integer(parser, parser.nextToken(), this.latency[index]);
			seen = once(seen, 1 << index);
		}
		if (seen != (1 << values.length) - 1) {
			throw NotVouched.INSTANCE;
		}
		return new SampleMessage.LatencyNs(values[0], values[1], values[2], values[3]);
	}

	/**
	 * The index of the next member's name in {@code names}, or MATCH_END_OBJECT at the
	 * object's end; a name not there, or anything but a name, is not vouched for.
	 */
	private static int next(JsonParser parser, PropertyNameMatcher names) {
		int member = parser.nextNameMatch(names);
		if (member < 0 && member != PropertyNameMatcher.MATCH_END_OBJECT) {
			throw NotVouched.INSTANCE;
		}
		return member;
	}

	/** A member repeated is left to the general path (a tree keeps the last one). */
	private static int once(int seen, int bit) {
		if ((seen & bit) != 0) {
			throw NotVouched.INSTANCE;
		}
		return seen | bit;
	}

	/**
	 * Integers written as integers, in a long; 1.0 (an integer to JSON Schema) and larger
	 * numbers are left to the general path.
	 */
	private static long integer(JsonParser parser, JsonToken token, MemberSchema schema) {
		if (token != JsonToken.VALUE_NUMBER_INT) {
			throw NotVouched.INSTANCE;
		}
		JsonParser.NumberType type = parser.getNumberType();
		if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
			throw NotVouched.INSTANCE;
		}
		long value = parser.getLongValue();
		if (!schema.accepts(value)) {
			throw NotVouched.INSTANCE;
		}
		return value;
	}

	private static String string(JsonParser parser, JsonToken token, MemberSchema schema) {
		if (token != JsonToken.VALUE_STRING) {
			throw NotVouched.INSTANCE;
		}
		String value = parser.getString();
		if (!schema.accepts(value)) {
			throw NotVouched.INSTANCE;
		}
		return value;
	}

	/**
	 * What the schema says between members, compared with what this decoder does; empty
	 * when they agree.
	 */
	static List<String> differences(Contracts contracts) {
		MessageType sample = MessageType.SAMPLE;
		return differences(contracts.mapper(), contracts.member(sample).schema(),
				contracts.member(sample, "read").schema(), contracts.member(sample, "write").schema(),
				contracts.member(sample, "read", "latencyNs").schema());
	}

	static List<String> differences(ObjectMapper mapper, JsonNode root, JsonNode read, JsonNode write,
			JsonNode latencyNs) {
		List<String> differences = new ArrayList<>();
		compareObject(mapper, differences, "sample", root, MEMBERS, REQUIRED_MEMBERS, """
				{"if": {"required": ["round"]}, "then": {"required": ["step"]},
				 "else": {"not": {"required": ["step"]}}}""");
		compareObject(mapper, differences, "read", read, DIRECTION_MEMBERS, REQUIRED_DIRECTION_MEMBERS, """
				{"if": {"properties": {"ios": {"minimum": 1}}}, "then": {"required": ["latencyNs"]},
				 "else": {"not": {"required": ["latencyNs"]}}}""");
		if (!read.equals(write)) {
			differences.add("read and write have different schemas");
		}
		compareObject(mapper, differences, "read.latencyNs", latencyNs, LATENCY_MEMBERS, LATENCY_MEMBERS.size(), "{}");
		return differences;
	}

	private static void compareObject(ObjectMapper mapper, List<String> differences, String where, JsonNode schema,
			List<String> members, int required, String conditional) {
		JsonNode expectedConditional = mapper.readTree(conditional);
		Set<String> keywords = new TreeSet<>();
		schema.propertyNames()
			.stream()
			.filter((keyword) -> !MemberSchema.ANNOTATIONS.contains(keyword))
			.forEach(keywords::add);
		Set<String> expectedKeywords = new TreeSet<>(Set.of("type", "additionalProperties", "required", "properties"));
		expectedConditional.propertyNames().forEach(expectedKeywords::add);
		if (!keywords.equals(expectedKeywords)) {
			differences.add(where + " has keywords " + keywords + ", expected " + expectedKeywords);
			return;
		}
		if (!"object".equals(schema.get("type").asString(""))
				|| !schema.get("additionalProperties").equals(mapper.getNodeFactory().booleanNode(false))) {
			differences.add(where + " is not a closed object");
		}
		if (!Set.copyOf(schema.get("properties").propertyNames()).equals(Set.copyOf(members))) {
			differences.add(where + " declares " + schema.get("properties").propertyNames() + ", expected " + members);
		}
		Set<String> requiredNames = new HashSet<>();
		schema.get("required").forEach((name) -> requiredNames.add(name.asString()));
		if (!requiredNames.equals(Set.copyOf(members.subList(0, required)))) {
			differences.add(where + " requires " + requiredNames + ", expected " + members.subList(0, required));
		}
		for (String keyword : expectedConditional.propertyNames()) {
			if (!schema.get(keyword).equals(expectedConditional.get(keyword))) {
				differences.add(where + " has " + keyword + " " + schema.get(keyword) + ", expected "
						+ expectedConditional.get(keyword));
			}
		}
	}

	/**
	 * Thrown where the decoder stops vouching; carries nothing, costs no stack trace.
	 */
	private static final class NotVouched extends RuntimeException {

		static final NotVouched INSTANCE = new NotVouched();

		private NotVouched() {
			super("not vouched for by the stream decoder", null, false, false);
		}

	}

}

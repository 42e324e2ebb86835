// One line of a buyer's acceptance spec, e.g. "writeLatencyP9999Us at most 5000 in phase randwrite-4k-qd32":
// the one criterion type from submission to verdict, read once from its JSON form.
package io.drivequal.analysis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * An acceptance criterion. Its JSON form, as a submission, a criteria set and a stored
 * job carry it:
 * {@code {"metric": "consistencyRatio", "comparator": "atLeast", "limit": 0.9, "phase":
 * "...", "source": "..."}} (phase and source optional), read by {@link #fromJson} and
 * written by {@link #toJson}.
 *
 * @param metric what is measured
 * @param comparison AT_LEAST or AT_MOST, inclusive
 * @param limit the limit, in the metric's unit
 * @param phaseName the phase it applies to; empty: every phase (and the job) that
 * measures the metric must satisfy it
 * @param source where a criteria set's source states this number (its key or row); empty
 * for a buyer's own criterion
 */
public record Criterion(Metric metric, Comparison comparison, double limit, Optional<String> phaseName,
		Optional<String> source) {

	public Criterion {
		if (metric == null || comparison == null || phaseName == null || source == null) {
			throw new IllegalArgumentException("metric, comparison, phaseName and source (Optionals) are required");
		}
		if (!Double.isFinite(limit)) {
			throw new IllegalArgumentException("limit of " + metric.wireName() + " must be finite, got " + limit);
		}
		if (phaseName.isPresent() && phaseName.get().isBlank()) {
			throw new IllegalArgumentException("phaseName of " + metric.wireName() + " is blank");
		}
	}

	public Criterion(Metric metric, Comparison comparison, double limit, Optional<String> phaseName) {
		this(metric, comparison, limit, phaseName, Optional.empty());
	}

	public static Criterion atLeast(Metric metric, double limit) {
		return new Criterion(metric, Comparison.AT_LEAST, limit, Optional.empty());
	}

	public static Criterion atMost(Metric metric, double limit) {
		return new Criterion(metric, Comparison.AT_MOST, limit, Optional.empty());
	}

	public Criterion inPhase(String phase) {
		return new Criterion(this.metric, this.comparison, this.limit, Optional.of(phase), this.source);
	}

	/**
	 * The criterion from its JSON form: the only place a metric's or a comparator's wire
	 * name is read.
	 * @throws Invalid naming the member that is wrong
	 */
	@JsonCreator
	public static Criterion fromJson(@JsonProperty("metric") String metric,
			@JsonProperty("comparator") String comparator, @JsonProperty("limit") Double limit,
			@JsonProperty("phase") String phase, @JsonProperty("source") String source) {
		if (metric == null || metric.isBlank()) {
			throw new Invalid("metric", "is required; known: " + Metric.wireNames());
		}
		Metric known = Metric.fromWireName(metric)
			.orElseThrow(() -> new Invalid("metric", "unknown metric " + metric + "; known: " + Metric.wireNames()));
		if (comparator == null) {
			throw new Invalid("comparator", "is required: atLeast or atMost");
		}
		Comparison comparison = Comparison.fromWireName(comparator)
			.orElseThrow(() -> new Invalid("comparator", "must be atLeast or atMost, got " + comparator));
		if (limit == null || !Double.isFinite(limit)) {
			throw new Invalid("limit", "must be a finite number, got " + limit);
		}
		if (phase != null && phase.isBlank()) {
			throw new Invalid("phase", "is blank: name a phase or leave it out");
		}
		return new Criterion(known, comparison, limit, Optional.ofNullable(phase), Optional.ofNullable(source));
	}

	/** The JSON form {@link #fromJson} reads: phase and source only when present. */
	@JsonValue
	public Map<String, Object> toJson() {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("metric", this.metric.wireName());
		json.put("comparator", this.comparison.wireName());
		json.put("limit", this.limit);
		this.phaseName.ifPresent((phase) -> json.put("phase", phase));
		this.source.ifPresent((where) -> json.put("source", where));
		return json;
	}

	/** A criterion's JSON that does not read: which member, and why. */
	public static final class Invalid extends IllegalArgumentException {

		private final String member;

		Invalid(String member, String message) {
			super(message);
			this.member = member;
		}

		/** The member at fault: metric, comparator, limit or phase. */
		public String member() {
			return this.member;
		}

	}

}

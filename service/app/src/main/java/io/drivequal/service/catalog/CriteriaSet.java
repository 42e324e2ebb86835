/*
 * A named set of acceptance criteria of the catalog (catalog/criteria-sets.json): what a buyer
 * picks instead of typing criteria, with the published document its numbers come from.
 */
package io.drivequal.service.catalog;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * @param profiles the profiles whose phases the criteria name; null for any profile
 * @param criteria in the form of the submission's criteria
 */
public record CriteriaSet(String name, String title, String description, Source source, List<String> profiles,
		List<Line> criteria) {

	public CriteriaSet {
		profiles = (profiles != null) ? List.copyOf(profiles) : null;
		criteria = List.copyOf(criteria);
	}

	/** Where the numbers come from: document, version, section, address. */
	public record Source(String document, String version, String section, String url) {
	}

	/**
	 * One criterion: a metric's wire name, atLeast or atMost, the limit, optionally the
	 * phase, and where the set's source states this number (its key or row), when the set
	 * takes its numbers from several places of one source.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Line(String metric, String comparator, double limit, String phase, String source) {

		public Line(String metric, String comparator, double limit, String phase) {
			this(metric, comparator, limit, phase, null);
		}

	}

	/**
	 * Whether the set may be used with a plan from this profile (null: explicit phases).
	 */
	public boolean appliesTo(String profile) {
		return this.profiles == null || (profile != null && this.profiles.contains(profile));
	}

}

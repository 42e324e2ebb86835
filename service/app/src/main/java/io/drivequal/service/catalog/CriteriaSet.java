/*
 * A named set of acceptance criteria of the catalog (catalog/criteria-sets.json): what a buyer
 * picks instead of typing criteria, with the published document its numbers come from.
 */
package io.drivequal.service.catalog;

import java.util.List;

import io.drivequal.analysis.Criterion;

/**
 * @param profiles the profiles whose phases the criteria name; null for any profile
 * @param criteria in the form of the submission's criteria, each with the place in the
 * source its number comes from when the set takes its numbers from several places
 */
public record CriteriaSet(String name, String title, String description, Source source, List<String> profiles,
		List<Criterion> criteria) {

	public CriteriaSet {
		profiles = (profiles != null) ? List.copyOf(profiles) : null;
		criteria = List.copyOf(criteria);
	}

	/** Where the numbers come from: document, version, section, address. */
	public record Source(String document, String version, String section, String url) {
	}

	/**
	 * Whether the set may be used with a plan from this profile (null: explicit phases).
	 */
	public boolean appliesTo(String profile) {
		return this.profiles == null || (profile != null && this.profiles.contains(profile));
	}

}

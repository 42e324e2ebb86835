/*
 * The profiles of catalog/profiles.json and the criteria sets of catalog/criteria-sets.json,
 * loaded and checked once; immutable afterwards.
 */
package io.drivequal.service.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drivequal.analysis.Criterion;

import org.springframework.stereotype.Component;

@Component
public class Catalog {

	private static final ObjectMapper MAPPER = new ObjectMapper()
		.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);

	private final Map<String, Profile> profiles;

	private final Map<String, CriteriaSet> criteriaSets;

	public Catalog() {
		this.profiles = load();
		this.criteriaSets = loadCriteriaSets(this.profiles);
	}

	public List<Profile> all() {
		return List.copyOf(this.profiles.values());
	}

	public Optional<Profile> find(String name) {
		return Optional.ofNullable(this.profiles.get(name));
	}

	public List<CriteriaSet> criteriaSets() {
		return List.copyOf(this.criteriaSets.values());
	}

	public Optional<CriteriaSet> criteriaSet(String name) {
		return Optional.ofNullable(this.criteriaSets.get(name));
	}

	private static Map<String, Profile> load() {
		Map<String, Profile> byName = new LinkedHashMap<>();
		for (JsonNode node : read("/catalog/profiles.json").get("profiles")) {
			Profile profile = treeToValue(node, Profile.class);
			checkLimits(profile);
			byName.put(profile.name(), profile);
		}
		return byName;
	}

	/**
	 * Every phase's limits make sense before any drive resolves them: a size given once,
	 * a capacityMultiple of at least 1, a limit on every workload without rounds.
	 */
	static void checkLimits(Profile profile) {
		for (PhaseSpec phase : profile.phases()) {
			PhaseSpec.LimitProblem problem = phase.limitProblem();
			if (problem != null) {
				throw new IllegalStateException("profile " + profile.name() + ", phase " + phase.name() + ": "
						+ problem.field() + ": " + problem.reason());
			}
		}
	}

	/**
	 * The sets, checked against the analysis and the profiles: a set naming an unknown
	 * metric, comparator, profile or phase would only fail at a buyer's submission.
	 */
	static Map<String, CriteriaSet> loadCriteriaSets(Map<String, Profile> profiles) {
		Map<String, CriteriaSet> byName = new LinkedHashMap<>();
		for (JsonNode node : read("/catalog/criteria-sets.json").get("criteriaSets")) {
			CriteriaSet set = treeToValue(node, CriteriaSet.class);
			check(set, profiles);
			if (byName.put(set.name(), set) != null) {
				throw new IllegalStateException("criteria set " + set.name() + " is defined twice");
			}
		}
		return byName;
	}

	static void check(CriteriaSet set, Map<String, Profile> profiles) {
		String where = "criteria set " + set.name();
		if (set.source() == null || set.source().document() == null || set.source().version() == null
				|| set.source().section() == null) {
			throw new IllegalStateException(where + ": name the document, version and section its criteria follow");
		}
		// metric, comparator and limit were read with the criteria (Criterion.fromJson)
		for (Criterion line : set.criteria()) {
			if (line.phaseName().isPresent() && set.profiles() == null) {
				throw new IllegalStateException(
						where + ": phase " + line.phaseName().get() + " needs the set's profiles");
			}
		}
		for (String name : (set.profiles() != null) ? set.profiles() : List.<String>of()) {
			Profile profile = profiles.get(name);
			if (profile == null) {
				throw new IllegalStateException(where + ": no profile " + name);
			}
			for (Criterion line : set.criteria()) {
				String phaseName = line.phaseName().orElse(null);
				if (phaseName != null
						&& profile.phases().stream().noneMatch((phase) -> phase.name().equals(phaseName))) {
					throw new IllegalStateException(where + ": profile " + name + " has no phase " + phaseName);
				}
			}
		}
	}

	private static JsonNode read(String resource) {
		try (InputStream in = Catalog.class.getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException(resource.substring(1) + " missing from the classpath");
			}
			return MAPPER.readTree(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + resource, ex);
		}
	}

	private static <T> T treeToValue(JsonNode node, Class<T> type) {
		try {
			return MAPPER.treeToValue(node, type);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("catalog entry is not a " + type.getSimpleName() + ": " + node, ex);
		}
	}

}

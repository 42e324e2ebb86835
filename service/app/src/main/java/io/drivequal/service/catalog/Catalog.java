/*
 * The profiles of catalog/profiles.json, loaded once; immutable afterwards.
 */
package io.drivequal.service.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.springframework.stereotype.Component;

@Component
public class Catalog {

	private final Map<String, Profile> profiles;

	public Catalog() {
		this.profiles = load();
	}

	public List<Profile> all() {
		return List.copyOf(this.profiles.values());
	}

	public Optional<Profile> find(String name) {
		return Optional.ofNullable(this.profiles.get(name));
	}

	private static Map<String, Profile> load() {
		ObjectMapper mapper = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
		try (InputStream in = Catalog.class.getResourceAsStream("/catalog/profiles.json")) {
			if (in == null) {
				throw new IllegalStateException("catalog/profiles.json missing from the classpath");
			}
			JsonNode root = mapper.readTree(in);
			Map<String, Profile> byName = new LinkedHashMap<>();
			List<Profile> list = new ArrayList<>();
			for (JsonNode node : root.get("profiles")) {
				list.add(mapper.treeToValue(node, Profile.class));
			}
			list.forEach((profile) -> byName.put(profile.name(), profile));
			return byName;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read the catalog", ex);
		}
	}

}

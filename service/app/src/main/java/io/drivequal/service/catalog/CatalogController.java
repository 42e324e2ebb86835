/*
 * GET /api/v1/profiles: the catalog, so submitters see what each profile runs before they pick it.
 */
package io.drivequal.service.catalog;

import java.util.List;

import io.drivequal.service.platform.NotFoundException;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/profiles")
class CatalogController {

	/**
	 * Durations of untimed phases are estimated for this reference capacity (3.84 TB).
	 */
	static final long REFERENCE_CAPACITY_BYTES = 3_840_000_000_000L;

	private final Catalog catalog;

	CatalogController(Catalog catalog) {
		this.catalog = catalog;
	}

	record ProfileView(String name, String title, String description, String reference, String primaryPhase,
			Profile.AnalysisHints analysis, long expectedDurationS, long referenceCapacityBytes,
			List<PhaseSpec> phases) {

		static ProfileView of(Profile profile) {
			return new ProfileView(profile.name(), profile.title(), profile.description(), profile.reference(),
					profile.primaryPhase(), profile.analysis(),
					Durations.expectedS(profile.phases(), REFERENCE_CAPACITY_BYTES), REFERENCE_CAPACITY_BYTES,
					profile.phases());
		}

	}

	@GetMapping
	List<ProfileView> profiles() {
		return this.catalog.all().stream().map(ProfileView::of).toList();
	}

	@GetMapping("/{name}")
	ProfileView profile(@PathVariable String name) {
		return this.catalog.find(name)
			.map(ProfileView::of)
			.orElseThrow(() -> new NotFoundException("no profile named " + name));
	}

}

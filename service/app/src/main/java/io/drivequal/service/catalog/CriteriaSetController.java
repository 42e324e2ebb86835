/*
 * GET /api/v1/criteria-sets: the named criteria sets a buyer can pick at submission, with the
 * published document each set's numbers come from.
 */
package io.drivequal.service.catalog;

import java.util.List;

import io.drivequal.service.platform.NotFoundException;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/criteria-sets")
class CriteriaSetController {

	private final Catalog catalog;

	CriteriaSetController(Catalog catalog) {
		this.catalog = catalog;
	}

	@GetMapping
	List<CriteriaSet> criteriaSets() {
		return this.catalog.criteriaSets();
	}

	@GetMapping("/{name}")
	CriteriaSet criteriaSet(@PathVariable String name) {
		return this.catalog.criteriaSet(name).orElseThrow(() -> new NotFoundException("no criteria set named " + name));
	}

}

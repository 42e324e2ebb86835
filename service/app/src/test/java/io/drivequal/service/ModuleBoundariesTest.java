/*
 * Keeps the feature packages (ingest, platform, and those to come) from reaching into each other's
 * internals: a module may use only what another exposes at its top level.
 */
package io.drivequal.service;

import org.junit.jupiter.api.Test;

import org.springframework.modulith.core.ApplicationModules;

class ModuleBoundariesTest {

	@Test
	void modulesRespectTheirBoundaries() {
		ApplicationModules.of(DrivequalApplication.class).verify();
	}

}

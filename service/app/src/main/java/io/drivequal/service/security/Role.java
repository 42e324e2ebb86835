/*
 * The three roles of drivequal; each includes the rights of the ones below it.
 */
package io.drivequal.service.security;

public enum Role {

	VIEWER, SUBMITTER, ADMIN;

	public String authority() {
		return "ROLE_" + name();
	}

}

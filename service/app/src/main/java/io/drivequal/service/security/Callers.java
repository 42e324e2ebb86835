/*
 * What other features need to know about the caller beyond the name: roles and teams. Teams are
 * authorities with the TEAM_ prefix, from the JWT's teams claim or a local user's configuration,
 * so they travel with the authentication like roles do.
 */
package io.drivequal.service.security;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

public final class Callers {

	static final String TEAM_PREFIX = "TEAM_";

	private Callers() {
	}

	/** The caller's teams, in name order; empty for an anonymous caller. */
	public static Set<String> teams(Authentication caller) {
		Set<String> teams = new TreeSet<>();
		if (caller != null) {
			for (GrantedAuthority authority : caller.getAuthorities()) {
				String name = authority.getAuthority();
				if (name != null && name.startsWith(TEAM_PREFIX)) {
					teams.add(name.substring(TEAM_PREFIX.length()));
				}
			}
		}
		return teams;
	}

	/**
	 * The caller's drivequal roles, weakest first (as granted; the hierarchy adds the
	 * rest).
	 */
	public static List<Role> roles(Authentication caller) {
		if (caller == null) {
			return List.of();
		}
		return java.util.Arrays.stream(Role.values())
			.filter((role) -> caller.getAuthorities()
				.stream()
				.anyMatch((authority) -> role.authority().equals(authority.getAuthority())))
			.toList();
	}

	/** True when the caller holds {@code role} or a role above it. */
	public static boolean has(Authentication caller, Role role) {
		return roles(caller).stream().anyMatch((held) -> held.compareTo(role) >= 0);
	}

}

/*
 * How callers authenticate. Production: JWT from the organisation's identity provider (issuer or
 * JWK set configured under spring.security.oauth2.resourceserver.jwt). Local stack: users given
 * in configuration (the run command generates their passwords); no user exists by default.
 */
package io.drivequal.service.security;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param mode jwt (production) or local (configured users over HTTP Basic)
 * @param rolesClaim the JWT claim holding the caller's roles (viewer, submitter, admin)
 * @param teamsClaim the JWT claim holding the caller's teams (webhook subscriptions of a
 * team, team members' jobs)
 * @param users the local users; passwords in Spring's {id}encoded form, e.g. {bcrypt}...
 */
@ConfigurationProperties("drivequal.security")
record SecuritySettings(@DefaultValue("jwt") Mode mode, @DefaultValue("roles") String rolesClaim,
		@DefaultValue("groups") String teamsClaim, @DefaultValue List<LocalUser> users) {

	enum Mode {

		JWT, LOCAL

	}

	record LocalUser(String name, String password, List<Role> roles, List<String> teams) {

		LocalUser {
			teams = (teams != null) ? teams : List.of();
		}

	}

}

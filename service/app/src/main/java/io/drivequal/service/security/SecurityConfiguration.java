/*
 * The authorization rules of the API in one place, answered as problem details.
 */
package io.drivequal.service.security;

import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.converter.Converter;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchyImpl;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecuritySettings.class)
class SecurityConfiguration {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Bean
	SecurityFilterChain api(HttpSecurity http, SecuritySettings settings) throws Exception {
		http.authorizeHttpRequests((requests) -> requests.requestMatchers("/actuator/health", "/actuator/health/**")
			.permitAll()
			// The web report's pages and scripts hold no data: they call the API with the
			// user's credentials, which the rules below judge as for any other client.
			.requestMatchers(HttpMethod.GET, "/", "/ui", "/ui/**", "/webjars/**", "/favicon.ico")
			.permitAll()
			// The audit trail tells who did what from where: admins only, reads included.
			.requestMatchers("/api/v1/audit", "/api/v1/audit/**")
			.hasRole(Role.ADMIN.name())
			// Anyone signed in manages their own (and their teams') webhook
			// subscriptions;
			// the webhooks feature checks ownership.
			.requestMatchers("/api/v1/webhooks", "/api/v1/webhooks/**")
			.hasRole(Role.VIEWER.name())
			.requestMatchers(HttpMethod.POST, "/api/v1/qualifications", "/api/v1/qualifications/*/cancel",
					"/api/v1/qualifications/*/priority", "/api/v1/imports", "/api/v1/campaigns",
					"/api/v1/campaigns/*/cancel", "/api/v1/campaigns/*/rerun", "/api/v1/plans/fio")
			.hasRole(Role.SUBMITTER.name())
			.requestMatchers(HttpMethod.GET, "/api/v1/**")
			.hasRole(Role.VIEWER.name())
			.requestMatchers("/api/v1/**")
			.hasRole(Role.ADMIN.name())
			.anyRequest()
			.hasRole(Role.VIEWER.name()))
			// Stateless API called with credentials on every request: no session, so no
			// CSRF.
			.csrf((csrf) -> csrf.disable())
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.exceptionHandling((exceptions) -> exceptions
				.authenticationEntryPoint((request, response, ex) -> writeProblem(request, response,
						HttpStatus.UNAUTHORIZED, "authentication required", settings, isScript(request)))
				.accessDeniedHandler((request, response, ex) -> writeProblem(request, response, HttpStatus.FORBIDDEN,
						"your role does not allow this request", settings, false)));
		if (settings.mode() == SecuritySettings.Mode.LOCAL) {
			http.httpBasic(Customizer.withDefaults());
		}
		else {
			http.oauth2ResourceServer((server) -> server.jwt((jwt) -> jwt
				.jwtAuthenticationConverter(new RolesClaimConverter(settings.rolesClaim(), settings.teamsClaim()))));
		}
		return http.build();
	}

	@Bean
	RoleHierarchy roleHierarchy() {
		return RoleHierarchyImpl.withDefaultRolePrefix()
			.role(Role.ADMIN.name())
			.implies(Role.SUBMITTER.name())
			.role(Role.SUBMITTER.name())
			.implies(Role.VIEWER.name())
			.build();
	}

	/**
	 * Local users only in local mode; in JWT mode there is no password store at all.
	 * Passwords keep their {id} prefix, so Spring's delegating encoder checks bcrypt and
	 * the like.
	 * <p>
	 * Returned as a plain {@link UserDetailsService}, not as the manager: a manager is
	 * also a {@code UserDetailsPasswordService}, and Spring Security then "upgrades" a
	 * {noop} password to bcrypt at the first sign-in, after which every request of this
	 * stateless API pays a bcrypt check (~65 ms of CPU here): 200 clients got ~20
	 * requests/s (docs/reliability.md, item 9). A password given as {bcrypt} is still
	 * checked as bcrypt, at that cost, by the operator's choice.
	 */
	@Bean
	UserDetailsService localUsers(SecuritySettings settings) {
		var manager = new InMemoryUserDetailsManager();
		if (settings.mode() != SecuritySettings.Mode.LOCAL) {
			return manager::loadUserByUsername;
		}
		for (SecuritySettings.LocalUser user : settings.users()) {
			if (user.password() == null || user.password().isBlank()) {
				throw new IllegalStateException("local user " + user.name() + " has no password");
			}
			List<GrantedAuthority> authorities = new java.util.ArrayList<>();
			user.roles().forEach((role) -> authorities.add(new SimpleGrantedAuthority(role.authority())));
			user.teams()
				.forEach((team) -> authorities.add(new SimpleGrantedAuthority(Callers.TEAM_PREFIX + team.trim())));
			manager
				.createUser(User.withUsername(user.name()).password(user.password()).authorities(authorities).build());
		}
		return manager::loadUserByUsername;
	}

	/**
	 * A page's script (X-Requested-With: XMLHttpRequest, as Spring Security's own Basic
	 * entry point tells them apart) gets its 401 without a challenge, so the browser does
	 * not open its password dialog over the web report's sign-in form.
	 */
	private static boolean isScript(HttpServletRequest request) {
		return "XMLHttpRequest".equals(request.getHeader("X-Requested-With"));
	}

	/**
	 * The problem as Spring MVC writes the API's others (the document's Problem schema):
	 * no null members. Serialized as a ProblemDetail by this plain mapper it carried
	 * "type": null, "instance": null and "properties": null (found by the contract
	 * fuzzer, ContractFuzzIT).
	 */
	private static void writeProblem(HttpServletRequest request, HttpServletResponse response, HttpStatus status,
			String detail, SecuritySettings settings, boolean withoutChallenge) throws IOException {
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("title", status.getReasonPhrase());
		problem.put("status", status.value());
		problem.put("detail", detail);
		problem.put("instance", request.getRequestURI());
		response.setStatus(status.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		if (status == HttpStatus.UNAUTHORIZED && !withoutChallenge) {
			response.setHeader("WWW-Authenticate",
					(settings.mode() == SecuritySettings.Mode.LOCAL) ? "Basic realm=\"drivequal\"" : "Bearer");
		}
		response.getWriter().write(JSON.writeValueAsString(problem));
	}

	/**
	 * Maps the configured claims (each a list or a space-separated string) to drivequal
	 * roles and teams.
	 */
	static final class RolesClaimConverter implements Converter<Jwt, AbstractAuthenticationToken> {

		private final String claim;

		private final String teamsClaim;

		RolesClaimConverter(String claim, String teamsClaim) {
			this.claim = claim;
			this.teamsClaim = teamsClaim;
		}

		@Override
		public AbstractAuthenticationToken convert(Jwt jwt) {
			List<GrantedAuthority> authorities = new java.util.ArrayList<>(names(jwt, this.claim).stream()
				.map((name) -> name.toUpperCase(Locale.ROOT))
				.filter((name) -> List.of("VIEWER", "SUBMITTER", "ADMIN").contains(name))
				.map((name) -> (GrantedAuthority) new SimpleGrantedAuthority("ROLE_" + name))
				.toList());
			names(jwt, this.teamsClaim)
				.forEach((team) -> authorities.add(new SimpleGrantedAuthority(Callers.TEAM_PREFIX + team)));
			return new JwtAuthenticationToken(jwt, authorities, jwt.getSubject());
		}

		private static List<String> names(Jwt jwt, String claim) {
			Object value = (claim != null) ? jwt.getClaims().get(claim) : null;
			Collection<String> names = (value instanceof Collection<?> list)
					? list.stream().map(String::valueOf).toList()
					: (value instanceof String text) ? List.of(text.split("\\s+")) : List.of();
			return names.stream().map(String::trim).filter((name) -> !name.isEmpty()).toList();
		}

	}

}

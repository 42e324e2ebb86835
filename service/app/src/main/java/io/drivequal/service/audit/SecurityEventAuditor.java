/*
 * The audit entries Spring Security's own events give: failed sign-ins (wrong password, unknown
 * user, a bad or expired token) and requests an authenticated caller's role does not allow.
 * Anonymous requests that are simply asked to sign in are not entries; failed sign-ins are.
 */
package io.drivequal.service.audit;

import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authentication.event.AbstractAuthenticationFailureEvent;
import org.springframework.security.authorization.AuthorizationEventPublisher;
import org.springframework.security.authorization.SpringAuthorizationEventPublisher;
import org.springframework.security.authorization.event.AuthorizationDeniedEvent;
import org.springframework.security.core.Authentication;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

@Configuration(proxyBeanMethods = false)
class SecurityEventAuditor {

	private final AuditRecorder recorder;

	SecurityEventAuditor(AuditRecorder recorder) {
		this.recorder = recorder;
	}

	/**
	 * Makes the request authorization rules publish their denials (by default they
	 * publish nothing).
	 */
	@Bean
	static AuthorizationEventPublisher authorizationEventPublisher(ApplicationEventPublisher publisher) {
		return new SpringAuthorizationEventPublisher(publisher);
	}

	@EventListener
	void signInFailed(AbstractAuthenticationFailureEvent event) {
		Authentication attempt = event.getAuthentication();
		String actor = (attempt instanceof UsernamePasswordAuthenticationToken) ? attempt.getName() : "(bearer token)";
		this.recorder.record(currentRequest(), actor, null, "sign-in.failed", 401, null, null,
				Map.of("reason", event.getException().getClass().getSimpleName() + ": "
						+ String.valueOf(event.getException().getMessage())));
	}

	@EventListener
	void accessDenied(AuthorizationDeniedEvent<?> event) {
		Authentication caller = event.getAuthentication().get();
		if (caller == null || caller instanceof AnonymousAuthenticationToken || !caller.isAuthenticated()) {
			return;
		}
		HttpServletRequest request = (event.getSource() instanceof HttpServletRequest source) ? source
				: currentRequest();
		this.recorder.record(request, caller.getName(), caller, "access.denied", 403, null, null, null);
	}

	private static HttpServletRequest currentRequest() {
		return (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)
				? attributes.getRequest() : null;
	}

}

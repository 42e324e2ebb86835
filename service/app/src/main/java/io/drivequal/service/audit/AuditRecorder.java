/*
 * Turns a request and its answer into an audit entry: who (the authenticated caller, or the name a
 * failed sign-in gave), what (the action and its target), the outcome, and from where. Writing is
 * synchronous, so an action answered is an action recorded; when Elasticsearch refuses, the entry
 * is logged in full instead (the action itself has happened by then and cannot be undone).
 */
package io.drivequal.service.audit;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.servlet.http.HttpServletRequest;

import io.drivequal.service.security.Callers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

@Component
class AuditRecorder {

	private static final Logger log = LoggerFactory.getLogger(AuditRecorder.class);

	private static final int MAX_TEXT = 256;

	private final AuditLog auditLog;

	private final Clock clock;

	AuditRecorder(AuditLog auditLog, Clock clock) {
		this.auditLog = auditLog;
		this.clock = clock;
	}

	/**
	 * @param actor the caller's name (or the name given to a failed sign-in)
	 * @param caller the authentication, for the roles; null when there is none
	 */
	void record(HttpServletRequest request, String actor, Authentication caller, String action, int status,
			String route, String target, Map<String, Object> details) {
		List<String> roles = Callers.roles(caller).stream().map((role) -> role.name().toLowerCase()).toList();
		AuditEntry entry = new AuditEntry(this.clock.instant(), UUID.randomUUID().toString(), clip(actor),
				roles.isEmpty() ? null : roles, action, AuditEntry.outcomeOf(status), status,
				(request != null) ? request.getMethod() : null, (request != null) ? request.getRequestURI() : null,
				route, clip(target), (request != null) ? request.getRemoteAddr() : null,
				(request != null) ? clip(request.getHeader("User-Agent")) : null,
				(details == null || details.isEmpty()) ? null : details);
		try {
			this.auditLog.append(entry);
		}
		catch (RuntimeException ex) {
			log.error("audit entry not stored ({}): {}", ex.toString(), entry);
		}
	}

	private static String clip(String text) {
		return (text == null || text.length() <= MAX_TEXT) ? text : text.substring(0, MAX_TEXT);
	}

}

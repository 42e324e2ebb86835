/*
 * Records every request that may change state (any method but GET, HEAD, OPTIONS) once its
 * handler has answered, refusals by the handler included (a 403 for another's job, a 400). Requests
 * the role rules refuse never reach a handler; SecurityEventAuditor records those.
 */
package io.drivequal.service.audit;

import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

class AuditInterceptor implements HandlerInterceptor {

	private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");

	private final ObjectProvider<AuditRecorder> recorder;

	AuditInterceptor(ObjectProvider<AuditRecorder> recorder) {
		this.recorder = recorder;
	}

	@Override
	public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
			Exception ex) {
		AuditRecorder recorder = this.recorder.getIfAvailable();
		if (recorder == null || !(handler instanceof HandlerMethod method) || READS.contains(request.getMethod())) {
			return;
		}
		String route = (String) request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
		Audited audited = method.getMethodAnnotation(Audited.class);
		String action = (audited != null) ? audited.value() : request.getMethod() + " " + route;
		int status = (ex != null && response.getStatus() < 400) ? 500 : response.getStatus();
		Authentication caller = SecurityContextHolder.getContext().getAuthentication();
		var attributes = RequestContextHolder.getRequestAttributes();
		Map<String, Object> details = (attributes != null) ? AuditNotes.notes(attributes) : null;
		recorder.record(request, (caller != null) ? caller.getName() : null, caller, action, status, route,
				target(request, response), details);
	}

	/** The path's {id} (or its one variable), else the id of what a 201 created. */
	@SuppressWarnings("unchecked")
	private static String target(HttpServletRequest request, HttpServletResponse response) {
		Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
		if (variables instanceof Map<?, ?> map && !map.isEmpty()) {
			Map<String, String> byName = (Map<String, String>) map;
			return byName.getOrDefault("id", byName.values().iterator().next());
		}
		String location = response.getHeader(HttpHeaders.LOCATION);
		if (location != null && location.contains("/")) {
			return location.substring(location.lastIndexOf('/') + 1);
		}
		return null;
	}

}

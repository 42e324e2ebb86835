/*
 * Lets a feature add facts to the audit entry of the request it is serving (the new priority,
 * the subscription's destination host), which the route and the status alone do not tell.
 */
package io.drivequal.service.audit;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

public final class AuditNotes {

	static final String ATTRIBUTE = AuditNotes.class.getName();

	private AuditNotes() {
	}

	/**
	 * Adds {@code key: value} to the current request's audit entry; does nothing outside
	 * a request. Never pass a secret: entries are kept for years.
	 */
	public static void put(String key, Object value) {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (attributes == null || value == null) {
			return;
		}
		notes(attributes).put(key, value);
	}

	@SuppressWarnings("unchecked")
	static Map<String, Object> notes(RequestAttributes attributes) {
		Object current = attributes.getAttribute(ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
		if (current instanceof Map<?, ?> map) {
			return (Map<String, Object>) map;
		}
		Map<String, Object> created = new LinkedHashMap<>();
		attributes.setAttribute(ATTRIBUTE, created, RequestAttributes.SCOPE_REQUEST);
		return created;
	}

}

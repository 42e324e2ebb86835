/*
 * One audit entry as stored in the monthly index drivequal-audit-YYYY.MM (schemas/elasticsearch/
 * index-templates/drivequal-audit.json) and as the admin API shows it.
 */
package io.drivequal.service.audit;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * @param timestamp when the action completed (or was refused)
 * @param actor the authenticated user's name; for a failed sign-in, the name given
 * @param action e.g. qualification.submit, webhook.delete, sign-in.failed, access.denied,
 * or the route ("POST /api/v1/imports") of an action without a name
 * @param outcome succeeded (2xx, 3xx), refused (4xx) or failed (5xx)
 * @param status the HTTP status answered
 * @param target the resource acted on (a job id, a subscription id), when there is one
 * @param clientAddress the address the request came from (after the operator's trusted
 * proxies, docs/operations.md)
 * @param details facts the feature added, never a secret
 */
record AuditEntry(@JsonProperty("@timestamp") Instant timestamp, String entryId, String actor, List<String> actorRoles,
		String action, String outcome, Integer status, String method, String path, String route, String target,
		String clientAddress, String userAgent, Map<String, Object> details) {

	static String outcomeOf(int status) {
		return (status >= 500) ? "failed" : (status >= 400) ? "refused" : "succeeded";
	}

}

/*
 * A webhook subscription as stored in drivequal-webhook-subscriptions (id = subscriptionId): whose
 * it is (a user, or a team when team is set), where deliveries go, which events, which jobs, and
 * the sealed signing secret. Which events of which jobs reach it is decided here.
 */
package io.drivequal.service.webhooks;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import io.drivequal.service.security.Callers;
import io.drivequal.service.security.Role;

import org.springframework.security.core.Authentication;

/**
 * @param host the URL's host, kept apart for search and the audit trail
 * @param events event kinds: {@link EventKind#wireName()}s
 * @param scope "own": the owner's jobs and campaigns (a team subscription: those of the
 * team's members); "all": every job and campaign (anyone who can read jobs may)
 * @param owner the user who created it
 * @param team the team it belongs to; then any member manages it
 * @param secret the signing secret, sealed by {@link SecretBox}
 */
record Subscription(String subscriptionId, String url, String host, List<String> events, String scope, String owner,
		String team, String description, Instant createdAt, String secret) {

	static final String SCOPE_OWN = "own";

	static final String SCOPE_ALL = "all";

	/**
	 * Would a change of kind {@code kind} at {@code time}, by {@code submitter} of
	 * {@code submitterTeams}, go to this subscription?
	 */
	boolean wants(EventKind kind, Instant time, String submitter, List<String> submitterTeams) {
		if (!this.events.contains(kind.wireName())) {
			return false;
		}
		if (this.createdAt != null && time != null && time.isBefore(this.createdAt)) {
			// Older than the subscription: only the catch-up would offer it, and it was
			// never promised.
			return false;
		}
		if (SCOPE_ALL.equals(this.scope)) {
			return true;
		}
		if (this.team != null) {
			return submitterTeams != null && submitterTeams.contains(this.team);
		}
		return this.owner.equals(submitter);
	}

	/** The owner, any member of its team, and admins may see and change it. */
	boolean isManageableBy(Authentication caller) {
		if (Callers.has(caller, Role.ADMIN) || this.owner.equals(caller.getName())) {
			return true;
		}
		Set<String> teams = Callers.teams(caller);
		return this.team != null && teams.contains(this.team);
	}

}

/*
 * The kinds of events a subscription can ask for, their CloudEvents type, and the stable event id
 * each job change gets: a job enters each state at most once and gets one verdict, so the id says
 * which, and a repeated notification of the same change has the same id.
 */
package io.drivequal.service.webhooks;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.drivequal.service.campaigns.CampaignChanged;
import io.drivequal.service.qualification.QualificationChanged;

enum EventKind {

	STATE_CHANGED("state-changed", "io.drivequal.qualification.state-changed"),

	VERDICT("verdict", "io.drivequal.qualification.verdict"),

	/** A campaign entered a new state, or a rerun brought it back to RUNNING. */
	CAMPAIGN_STATE_CHANGED("campaign-state-changed", "io.drivequal.campaign.state-changed"),

	/** A campaign's model verdict was recorded. */
	CAMPAIGN_VERDICT("campaign-verdict", "io.drivequal.campaign.verdict"),

	/** Sent on request (POST /api/v1/webhooks/{id}/test), to check a receiver. */
	TEST("test", "io.drivequal.webhook.test");

	private final String wireName;

	private final String cloudEventType;

	EventKind(String wireName, String cloudEventType) {
		this.wireName = wireName;
		this.cloudEventType = cloudEventType;
	}

	String wireName() {
		return this.wireName;
	}

	String cloudEventType() {
		return this.cloudEventType;
	}

	/** The kinds a subscription may name. */
	static List<String> subscribable() {
		return List.of(STATE_CHANGED.wireName, VERDICT.wireName, CAMPAIGN_STATE_CHANGED.wireName,
				CAMPAIGN_VERDICT.wireName);
	}

	static Optional<EventKind> ofWireName(String name) {
		return Arrays.stream(values()).filter((kind) -> kind.wireName.equals(name)).findFirst();
	}

	static EventKind of(QualificationChanged change) {
		return change.verdictRecorded() ? VERDICT : STATE_CHANGED;
	}

	static EventKind of(CampaignChanged change) {
		return change.verdictRecorded() ? CAMPAIGN_VERDICT : CAMPAIGN_STATE_CHANGED;
	}

	/** q-123.RUNNING, q-123.verdict */
	static String eventId(QualificationChanged change) {
		return change.jobId() + "." + (change.verdictRecorded() ? "verdict" : change.state().name());
	}

}

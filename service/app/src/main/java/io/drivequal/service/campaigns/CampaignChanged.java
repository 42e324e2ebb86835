/*
 * Published (as a Spring application event, in the thread that wrote it) when a campaign enters a
 * new state, is rerun, or gets its model verdict, right after the write won. The webhooks feature
 * turns it into notifications; CampaignChanges offers the same facts again for campaigns changed
 * lately, so a crash between the write and the listener costs a delay, not the notification.
 */
package io.drivequal.service.campaigns;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * @param previousState the state before; null for a new campaign or the replay
 * @param verdictRecorded true when this change is the model verdict being recorded
 * @param round how many reruns the campaign had at this change: a state or verdict a
 * rerun brings again is a new event
 * @param reasons the model verdict's reasons (empty for PASS or without a verdict)
 * @param failingSamples the samples that failed a criterion
 * @param counts the campaign's jobs per state
 */
public record CampaignChanged(String campaignId, String name, CampaignState previousState, CampaignState state,
		boolean verdictRecorded, String verdict, String submitter, List<String> submitterTeams, String vendor,
		String model, String firmware, int round, List<String> reasons, List<String> failingSamples,
		Map<String, Integer> counts, Instant time) {

	static CampaignChanged of(Campaign campaign, CampaignState previousState, boolean verdictRecorded) {
		List<String> reasons = (campaign.modelVerdict() != null) ? campaign.modelVerdict().reasons() : List.of();
		List<String> failing = (campaign.modelVerdict() != null) ? campaign.modelVerdict().failingSamples() : List.of();
		return new CampaignChanged(campaign.campaignId(), campaign.name(), previousState, campaign.state(),
				verdictRecorded, campaign.verdict(), campaign.submitter(),
				(campaign.submitterTeams() != null) ? campaign.submitterTeams() : List.of(), campaign.model().vendor(),
				campaign.model().model(), campaign.model().firmware(), campaign.reruns(), reasons, failing,
				(campaign.counts() != null) ? campaign.counts() : Map.of(), campaign.updatedAt());
	}

	/** c-123.RUNNING.0, c-123.verdict.0: the same change always has the same id. */
	public String eventId() {
		return this.campaignId + "." + (this.verdictRecorded ? "verdict" : this.state.name()) + "." + this.round;
	}

}

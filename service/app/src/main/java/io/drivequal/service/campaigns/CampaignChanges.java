/*
 * The campaigns changed since a given time, as the CampaignChanged facts of their current state and
 * model verdict: what a webhook listener that missed an event needs to catch up.
 */
package io.drivequal.service.campaigns;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

@Component
public class CampaignChanges {

	private final CampaignStore store;

	CampaignChanges(CampaignStore store) {
		this.store = store;
	}

	/** Oldest update first; the verdict after the state when there is one. */
	public List<CampaignChanged> since(Instant since, int limit) {
		List<CampaignChanged> changes = new ArrayList<>();
		for (Campaign campaign : this.store.updatedSince(since, limit)) {
			changes.add(CampaignChanged.of(campaign, null, false));
			if (campaign.verdict() != null) {
				changes.add(CampaignChanged.of(campaign, null, true));
			}
		}
		return changes;
	}

}

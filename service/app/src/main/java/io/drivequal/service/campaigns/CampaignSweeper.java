/*
 * Keeps every active campaign's state, counts and model verdict up to date with its jobs, on every
 * replica: a campaign advances (and its webhooks fire) even when nobody reads it. Each refresh is a
 * compare-and-set, so replicas sweeping at once write each change once.
 */
package io.drivequal.service.campaigns;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Profile;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

@Component
@Profile("!setup")
class CampaignSweeper {

	private static final Logger log = LoggerFactory.getLogger(CampaignSweeper.class);

	/** Campaigns refreshed per round, oldest first. */
	private static final int BATCH = 200;

	private final CampaignStore store;

	private final CampaignService campaigns;

	CampaignSweeper(CampaignStore store, CampaignService campaigns) {
		this.store = store;
		this.campaigns = campaigns;
	}

	@Scheduled(fixedDelayString = "${drivequal.campaigns.refresh-interval:5s}",
			initialDelayString = "${drivequal.campaigns.refresh-interval:5s}")
	void sweep() {
		try {
			for (Campaign campaign : this.store.active(BATCH)) {
				this.campaigns.refresh(campaign);
			}
		}
		catch (RuntimeException ex) {
			log.warn("campaign refresh round failed: {}", ex.toString());
		}
	}

}

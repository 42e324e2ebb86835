/**
 * Campaigns: a drive model qualified on several samples. A campaign names the model
 * (vendor, model, firmware), its sample serials, the profiles to run and the criteria;
 * the service queues one ordinary job per sample and profile (through
 * qualification.CampaignJobs), tracks the campaign's state and counts from its jobs, and
 * judges the model from every sample's verdict (analysis.ModelJudge): per criterion each
 * sample, the worst sample and the spread, plus the sample-to-sample consistency
 * criteria. State lives in Elasticsearch (drivequal-campaigns) with optimistic
 * concurrency, as jobs do; CampaignChanged events feed the webhooks.
 */
package io.drivequal.service.campaigns;

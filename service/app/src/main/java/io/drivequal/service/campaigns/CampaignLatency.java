/*
 * Fleet-wide latency of a campaign: per profile, phase and direction, the percentiles of the
 * merged latency histograms of every sample's finished job. Percentiles do not average: the mean
 * of four samples' P99.99 is no percentile of any IO, while the merged histogram's P99.99 is that
 * of the pooled IOs (within the histogram's bucket, <= 1 %).
 */
package io.drivequal.service.campaigns;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.drivequal.analysis.LatencyQos;
import io.drivequal.analysis.LatencyQosAnalyzer;
import io.drivequal.analysis.PhaseLatencyHistogram;
import io.drivequal.service.ingest.PhaseHistograms;
import io.drivequal.service.qualification.JobState;
import io.drivequal.service.qualification.QualificationView;

final class CampaignLatency {

	static final String METHOD = "percentiles (nearest rank, each reported as its HdrHistogram bucket's highest "
			+ "value, <= 1 % above the IO's latency) of the merged per-phase latency histograms of every sample's "
			+ "completed job; never an average of the samples' percentiles";

	private CampaignLatency() {
	}

	/**
	 * @param profiles per profile, phase and direction the fleet-wide figures
	 * @param left samples whose job has no result yet, with why
	 */
	record FleetLatencyView(String campaign, List<FleetLatencyRow> profiles, List<String> left, String method) {
	}

	/**
	 * @param samples the serials whose histograms were merged
	 * @param fleet the merged histogram's QoS
	 * @param perSample each sample's own QoS, for comparison
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record FleetLatencyRow(String profile, String phase, String direction, List<String> samples, LatencyFigures fleet,
			List<SampleLatency> perSample) {
	}

	record LatencyFigures(long ios, double meanUs, double p50Us, double p99Us, double p99_9Us, double p99_99Us,
			double p99_9999Us, double maxUs) {

		static LatencyFigures of(LatencyQos qos) {
			return new LatencyFigures(qos.count(), qos.meanNs() / 1000.0, LatencyQos.toUs(qos.p50Ns()),
					LatencyQos.toUs(qos.p99Ns()), LatencyQos.toUs(qos.p99_9Ns()), LatencyQos.toUs(qos.p99_99Ns()),
					LatencyQos.toUs(qos.p99_9999Ns()), LatencyQos.toUs(qos.maxNs()));
		}

	}

	record SampleLatency(String serial, LatencyFigures figures) {
	}

	/** One sample's histogram of one profile's phase and direction. */
	record SampleHistogram(String profile, String phase, String direction, String serial,
			PhaseLatencyHistogram histogram) {
	}

	/** The campaign's histograms, read from its completed jobs' phase results. */
	static FleetLatencyView of(CampaignService.Current current, PhaseHistograms histograms) {
		List<SampleHistogram> found = new ArrayList<>();
		List<String> left = new ArrayList<>();
		for (Campaign.Cell cell : current.campaign().cells()) {
			QualificationView job = current.jobs().get(cell.jobId());
			if (job == null || job.state() != JobState.COMPLETED) {
				left.add(cell.serial() + " " + cell.plan() + ": job " + cell.jobId() + " is "
						+ ((job == null) ? "not stored" : job.state().name()));
				continue;
			}
			for (PhaseHistograms.Phase phase : histograms.ofJob(cell.jobId())) {
				phase.write()
					.ifPresent((h) -> found
						.add(new SampleHistogram(cell.plan(), phase.phaseName(), "write", cell.serial(), h)));
				phase.read()
					.ifPresent((h) -> found
						.add(new SampleHistogram(cell.plan(), phase.phaseName(), "read", cell.serial(), h)));
			}
		}
		return new FleetLatencyView(current.campaign().campaignId(), merge(found), left, METHOD);
	}

	/**
	 * Groups the histograms by profile, phase and direction (in the order met) and merges
	 * each group's.
	 */
	static List<FleetLatencyRow> merge(List<SampleHistogram> histograms) {
		Map<List<String>, List<SampleHistogram>> groups = new LinkedHashMap<>();
		for (SampleHistogram h : histograms) {
			groups.computeIfAbsent(List.of(h.profile(), h.phase(), h.direction()), (key) -> new ArrayList<>()).add(h);
		}
		List<FleetLatencyRow> rows = new ArrayList<>();
		for (Map.Entry<List<String>, List<SampleHistogram>> group : groups.entrySet()) {
			List<SampleHistogram> members = group.getValue();
			Optional<LatencyQos> fleet = LatencyQosAnalyzer
				.of(members.stream().map(SampleHistogram::histogram).toList());
			if (fleet.isEmpty()) {
				continue;
			}
			List<SampleLatency> perSample = new ArrayList<>();
			for (SampleHistogram member : members) {
				LatencyQosAnalyzer.of(member.histogram())
					.ifPresent((qos) -> perSample.add(new SampleLatency(member.serial(), LatencyFigures.of(qos))));
			}
			rows.add(new FleetLatencyRow(group.getKey().get(0), group.getKey().get(1), group.getKey().get(2),
					members.stream().map(SampleHistogram::serial).toList(), LatencyFigures.of(fleet.get()), perSample));
		}
		return rows;
	}

}

/*
 * The figures of a job's multi-stream phases, per stream and per direction: what each stream was
 * asked to do (its spec), its totals with service and response time percentiles from the phase's
 * histograms (to P99.9999 and max), and its seconds (offered vs achieved rate, per-second
 * percentiles). The report page's stream panels draw these; no figure is computed in the browser.
 */
package io.drivequal.service.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.drivequal.analysis.LatencyQos;
import io.drivequal.analysis.LatencyQosAnalyzer;
import io.drivequal.analysis.PhaseLatencyHistogram;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.StreamSpec;
import io.drivequal.service.ingest.PhaseResult;
import io.drivequal.service.ingest.StreamQueries;
import io.drivequal.service.ingest.StreamSecond;
import io.drivequal.service.qualification.JobReports.JobReport;

final class StreamFigures {

	private StreamFigures() {
	}

	/** The job's multi-stream phases; empty when it has none. */
	record JobStreams(String jobId, List<PhaseStreams> phases) {
	}

	record PhaseStreams(int phaseIndex, String phaseName, long runtimeS, List<Stream> streams) {
	}

	/**
	 * @param spec what the plan asked of the stream
	 * @param offeredIos an open loop's IOs due within the phase; null for a closed loop
	 * @param directions the directions the stream issued, with their totals
	 * @param seconds the stream's seconds in t order
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record Stream(int index, String name, StreamSpec spec, boolean openLoop, Long offeredIos, Long maxBacklog,
			List<Direction> directions, List<StreamSecond> seconds) {
	}

	/**
	 * @param service submission to completion (fio's lat)
	 * @param response an open loop's intended issue to completion; null for a closed loop
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record Direction(String direction, long ios, long bytes, long errors, Percentiles service, Percentiles response) {
	}

	/** Nearest-rank percentiles of the phase's histogram (LatencyQos), nanoseconds. */
	record Percentiles(long count, double meanNs, long p50Ns, long p99Ns, long p99_9Ns, long p99_99Ns, long p99_9999Ns,
			long maxNs) {

		static Percentiles of(LatencyQos qos) {
			return new Percentiles(qos.count(), qos.meanNs(), qos.p50Ns(), qos.p99Ns(), qos.p99_9Ns(), qos.p99_99Ns(),
					qos.p99_9999Ns(), qos.maxNs());
		}

	}

	static JobStreams of(JobReport job, StreamQueries queries) {
		List<PhaseStreams> phases = new ArrayList<>();
		Map<Integer, List<PhaseResult.StreamTotals>> totals = queries.totals(job.id());
		for (PhaseSpec phase : job.plan()) {
			if (phase.streams() == null || phase.streams().isEmpty()) {
				continue;
			}
			int phaseIndex = phase.index();
			List<StreamSecond> seconds = queries.seconds(job.id(), phaseIndex);
			List<PhaseResult.StreamTotals> phaseTotals = totals.getOrDefault(phaseIndex, List.of());
			List<Stream> streams = new ArrayList<>();
			for (int index = 0; index < phase.streams().size(); index++) {
				StreamSpec spec = phase.streams().get(index);
				int streamIndex = index;
				Optional<PhaseResult.StreamTotals> total = phaseTotals.stream()
					.filter((t) -> t.index() == streamIndex)
					.findFirst();
				String name = total.map(PhaseResult.StreamTotals::name)
					.orElse((spec.name() != null) ? spec.name() : "stream" + streamIndex);
				List<Direction> directions = new ArrayList<>();
				total.ifPresent((t) -> {
					direction("read", t.read()).ifPresent(directions::add);
					direction("write", t.write()).ifPresent(directions::add);
					direction("trim", t.trim()).ifPresent(directions::add);
				});
				streams.add(new Stream(streamIndex, name, spec, spec.isOpenLoop(),
						total.map(PhaseResult.StreamTotals::offeredIos).orElse(null),
						total.map(PhaseResult.StreamTotals::maxBacklog).orElse(null), directions,
						seconds.stream().filter((s) -> s.index() == streamIndex).toList()));
			}
			phases.add(new PhaseStreams(phaseIndex, phase.name(), phase.runtimeS(), streams));
		}
		return new JobStreams(job.id(), phases);
	}

	/** A direction the stream issued (its totals present), with its percentiles. */
	private static Optional<Direction> direction(String direction, PhaseResult.DirectionTotals totals) {
		if (totals == null) {
			return Optional.empty();
		}
		Percentiles response = (totals.responseTime() != null)
				? qos(totals.responseTime().latencyHistogram()).map(Percentiles::of).orElse(null) : null;
		// The contract makes errors optional; the runner always sends them.
		long errors = (totals.errors() != null) ? totals.errors() : 0;
		return Optional.of(new Direction(direction, totals.ios(), totals.bytes(), errors,
				qos(totals.latencyHistogram()).map(Percentiles::of).orElse(null), response));
	}

	/** The QoS of a directionTotals' (or responseTime's) latencyHistogram. */
	private static Optional<LatencyQos> qos(PhaseResult.LatencyHistogram histogram) {
		if (histogram == null) {
			return Optional.empty();
		}
		return LatencyQosAnalyzer.of(PhaseLatencyHistogram.fromPairs(histogram.totalCount(), histogram.minNs(),
				histogram.maxNs(), histogram.pairs()));
	}

}

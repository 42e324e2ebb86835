/*
 * Reads a job's samples back from Elasticsearch for the API, the live stream and progress.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.aggregations.ArrayPercentilesItem;
import co.elastic.clients.elasticsearch._types.aggregations.HistogramBucket;
import co.elastic.clients.elasticsearch._types.aggregations.LongTermsBucket;
import co.elastic.clients.elasticsearch._types.aggregations.StringTermsBucket;
import co.elastic.clients.elasticsearch._types.aggregations.TDigestPercentilesAggregate;
import co.elastic.clients.elasticsearch._types.aggregations.TopHitsAggregate;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.util.ObjectBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

@Component
public class SampleQueries {

	private static final Logger logger = LoggerFactory.getLogger(SampleQueries.class);

	private static final String ALL_SAMPLES = SampleDocument.INDEX_PREFIX + "*";

	/** The contract's most rounds and steps (sample.schema.json round, step). */
	private static final int MAX_ROUNDS = 1000;

	private static final int MAX_STEPS = 256;

	/**
	 * Samples read per request when reading a whole phase (Elasticsearch's default cap).
	 */
	private static final int PHASE_PAGE = 10_000;

	private final ElasticsearchClient client;

	SampleQueries(ElasticsearchClient client) {
		this.client = client;
	}

	/** Every indexed sample of one phase of a job, in t order, read page by page. */
	public List<SamplePoint> ofPhase(String jobId, int phaseIndex) {
		List<SamplePoint> all = new ArrayList<>();
		int afterT = 0;
		int afterPhase = -1;
		while (true) {
			List<SamplePoint> page = after(jobId, phaseIndex, afterPhase, afterT, PHASE_PAGE);
			all.addAll(page);
			if (page.size() < PHASE_PAGE) {
				return all;
			}
			afterPhase = phaseIndex;
			afterT = page.get(page.size() - 1).t();
		}
	}

	/**
	 * Samples of a job in (phase, t) order after the given position, at most
	 * {@code limit}.
	 * @param phaseIndex only this phase, or null for all
	 * @param afterPhase, afterT the last sample already read (-1, 0 to start)
	 */
	public List<SamplePoint> after(String jobId, Integer phaseIndex, int afterPhase, int afterT, int limit) {
		BoolQuery filter = filter(jobId, phaseIndex);
		SearchResponse<SampleDocument> response = search((search) -> {
			search.index(ALL_SAMPLES)
				.ignoreUnavailable(true)
				.allowNoIndices(true)
				.query((q) -> q.bool(filter))
				.size(limit)
				.sort((sort) -> sort.field((f) -> f.field("phaseIndex").order(SortOrder.Asc)))
				.sort((sort) -> sort.field((f) -> f.field("t").order(SortOrder.Asc)));
			if (afterPhase >= 0) {
				search.searchAfter(FieldValue.of(afterPhase), FieldValue.of(afterT));
			}
			return search;
		});
		List<SamplePoint> points = new ArrayList<>();
		for (Hit<SampleDocument> hit : response.hits().hits()) {
			points.add(SamplePoint.of(hit.source()));
		}
		return points;
	}

	/**
	 * The phase downsampled to at most about {@code maxPoints} buckets of equal width in
	 * t.
	 */
	public List<ChartBucket> chart(String jobId, int phaseIndex, int maxPoints) {
		OptionalInt lastT = latestT(jobId, phaseIndex);
		if (lastT.isEmpty()) {
			return List.of();
		}
		int width = Math.max(1, (lastT.getAsInt() + maxPoints - 1) / maxPoints);
		BoolQuery filter = filter(jobId, phaseIndex);
		SearchResponse<SampleDocument> response = search(
				(search) -> search.index(ALL_SAMPLES)
					.ignoreUnavailable(true)
					.allowNoIndices(true)
					.size(0)
					.query((q) -> q.bool(filter))
					.aggregations("byT", (agg) -> agg
						.histogram(
								(histogram) -> histogram.field("t").interval((double) width).offset(1.0).minDocCount(1))
						.aggregations("iops", (stats) -> stats.stats((s) -> s.field("totalIops")))));
		List<ChartBucket> buckets = new ArrayList<>();
		for (HistogramBucket bucket : response.aggregations().get("byT").histogram().buckets().array()) {
			var stats = bucket.aggregations().get("iops").stats();
			int fromT = (int) bucket.key();
			buckets.add(new ChartBucket(phaseIndex, fromT, fromT + width - 1, bucket.docCount(), stats.min(),
					stats.avg(), stats.max()));
		}
		return buckets;
	}

	/** The last second of the phase that has been indexed. */
	public OptionalInt latestT(String jobId, int phaseIndex) {
		BoolQuery filter = filter(jobId, phaseIndex);
		SearchResponse<SampleDocument> response = search((search) -> search.index(ALL_SAMPLES)
			.ignoreUnavailable(true)
			.allowNoIndices(true)
			.size(1)
			.query((q) -> q.bool(filter))
			.sort((sort) -> sort.field((f) -> f.field("t").order(SortOrder.Desc))));
		List<Hit<SampleDocument>> hits = response.hits().hits();
		return hits.isEmpty() ? OptionalInt.empty() : OptionalInt.of(hits.get(0).source().t());
	}

	/**
	 * What each job's given phase has measured so far, for a page of jobs in one search:
	 * its last second, its seconds and bytes, and, for a phase with rounds, the figures
	 * of each round's steps.
	 * @param phaseByJob the phase index to look at, by job id
	 * @return by job id; jobs with no indexed sample in their phase are absent
	 */
	public Map<String, PhaseMeasurement> measure(Map<String, Integer> phaseByJob) {
		Map<String, PhaseMeasurement> measured = new HashMap<>();
		if (phaseByJob.isEmpty()) {
			return measured;
		}
		BoolQuery.Builder anyOf = new BoolQuery.Builder().minimumShouldMatch("1");
		phaseByJob.forEach((jobId, phaseIndex) -> anyOf.should((q) -> q.bool(filter(jobId, phaseIndex))));
		BoolQuery query = anyOf.build();
		SearchResponse<SampleDocument> response;
		try {
			response = searchForMeasure(phaseByJob, query);
		}
		catch (ElasticsearchException ex) {
			if (ex.status() != 503) {
				throw ex;
			}
			// A samples index made a moment ago may not have its shard yet
			// (no_shard_available): the jobs are shown without what they measured, as
			// before their first sample, rather than not at all.
			logger.debug("Progress measured without samples: {}", ex.getMessage());
			return measured;
		}
		if (response.aggregations() == null || !response.aggregations().containsKey("byJob")) {
			return measured;
		}
		for (StringTermsBucket job : response.aggregations().get("byJob").sterms().buckets().array()) {
			double lastT = job.aggregations().get("lastT").max().value();
			if (job.docCount() == 0 || !Double.isFinite(lastT)) {
				continue;
			}
			List<PhaseMeasurement.StepFigures> rounds = new ArrayList<>();
			for (LongTermsBucket round : job.aggregations().get("byRound").lterms().buckets().array()) {
				for (LongTermsBucket step : round.aggregations().get("byStep").lterms().buckets().array()) {
					long writeBytes = (long) step.aggregations().get("writeBytes").sum().value();
					rounds.add(new PhaseMeasurement.StepFigures((int) round.key(), (int) step.key(), step.docCount(),
							step.aggregations().get("iops").avg().value(),
							(long) step.aggregations().get("readBytes").sum().value() + writeBytes, writeBytes));
				}
			}
			String jobId = job.key().stringValue();
			PhaseMeasurement.SimulatedClock clock = simulatedClock(job.aggregations().get("latest").topHits());
			measured.put(jobId, new PhaseMeasurement(phaseByJob.get(jobId), (int) lastT, job.docCount(),
					(long) job.aggregations().get("readBytes").sum().value()
							+ (long) job.aggregations().get("writeBytes").sum().value(),
					rounds, clock,
					(clock != null) ? clockSpread(job.aggregations().get("clockRates").tdigestPercentiles()) : null));
		}
		return measured;
	}

	private SearchResponse<SampleDocument> searchForMeasure(Map<String, Integer> phaseByJob, BoolQuery query) {
		return search((search) -> search.index(ALL_SAMPLES)
			.ignoreUnavailable(true)
			.allowNoIndices(true)
			.size(0)
			.query((q) -> q.bool(query))
			.aggregations("byJob", (agg) -> agg.terms((terms) -> terms.field("jobId").size(phaseByJob.size()))
				.aggregations("lastT", (max) -> max.max((m) -> m.field("t")))
				.aggregations("latest",
						(latest) -> latest.topHits((top) -> top.size(1)
							.sort((sort) -> sort.field((f) -> f.field("t").order(SortOrder.Desc)))
							.source((source) -> source.filter((f) -> f.includes("wallMs", "clockRate")))))
				.aggregations("clockRates",
						(rates) -> rates.percentiles((p) -> p.field("clockRate").percents(5.0, 95.0).keyed(false)))
				.aggregations("readBytes", (sum) -> sum.sum((m) -> m.field("read.bytes")))
				.aggregations("writeBytes", (sum) -> sum.sum((m) -> m.field("write.bytes")))
				.aggregations("byRound", (rounds) -> rounds.terms((terms) -> terms.field("round").size(MAX_ROUNDS))
					.aggregations("byStep",
							(steps) -> steps.terms((terms) -> terms.field("step").size(MAX_STEPS))
								.aggregations("iops", (avg) -> avg.avg((m) -> m.field("totalIops")))
								.aggregations("readBytes", (sum) -> sum.sum((m) -> m.field("read.bytes")))
								.aggregations("writeBytes", (sum) -> sum.sum((m) -> m.field("write.bytes")))))));
	}

	/**
	 * The last indexed second's wall time and clock rate, as the runner stamped them on a
	 * simulated clock; null on a wall clock or before the runner measured a rate.
	 */
	private static PhaseMeasurement.SimulatedClock simulatedClock(TopHitsAggregate latest) {
		if (latest == null || latest.hits().hits().isEmpty() || latest.hits().hits().get(0).source() == null) {
			return null;
		}
		JsonValue source = latest.hits().hits().get(0).source().toJson();
		if (source.getValueType() != JsonValue.ValueType.OBJECT) {
			return null;
		}
		JsonObject fields = source.asJsonObject();
		if (!(fields.get("wallMs") instanceof JsonNumber wallMs)
				|| !(fields.get("clockRate") instanceof JsonNumber rate) || rate.doubleValue() <= 0) {
			return null;
		}
		return new PhaseMeasurement.SimulatedClock(wallMs.longValue(), rate.doubleValue());
	}

	/**
	 * The 5th and 95th percentiles of the phase's stamped clock rates; null when there
	 * are none.
	 */
	private static PhaseMeasurement.ClockSpread clockSpread(TDigestPercentilesAggregate rates) {
		if (rates == null || !rates.values().isArray()) {
			return null;
		}
		Double p5 = null;
		Double p95 = null;
		for (ArrayPercentilesItem item : rates.values().array()) {
			if (!Double.isFinite(item.value())) {
				return null;
			}
			if (item.key() < 50) {
				p5 = item.value();
			}
			else {
				p95 = item.value();
			}
		}
		return (p5 != null && p95 != null && p5 > 0) ? new PhaseMeasurement.ClockSpread(p5, p95) : null;
	}

	/** Indexed samples of a job, or of one of its phases when phaseIndex is not null. */
	public long count(String jobId, Integer phaseIndex) {
		BoolQuery filter = filter(jobId, phaseIndex);
		try {
			return this.client
				.count((count) -> count.index(ALL_SAMPLES)
					.ignoreUnavailable(true)
					.allowNoIndices(true)
					.query((q) -> q.bool(filter)))
				.count();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static BoolQuery filter(String jobId, Integer phaseIndex) {
		BoolQuery.Builder bool = new BoolQuery.Builder();
		bool.filter((q) -> q.term((term) -> term.field("jobId").value(jobId)));
		if (phaseIndex != null) {
			bool.filter((q) -> q.term((term) -> term.field("phaseIndex").value(phaseIndex)));
		}
		return bool.build();
	}

	private SearchResponse<SampleDocument> search(
			Function<SearchRequest.Builder, ObjectBuilder<SearchRequest>> request) {
		try {
			return this.client.search(request, SampleDocument.class);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

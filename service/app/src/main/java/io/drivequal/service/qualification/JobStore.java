/*
 * Jobs in Elasticsearch. Every change is a compare-and-set on the document's sequence number and
 * primary term: two replicas that race on one job cannot both win, which is what keeps a job from
 * being dispatched twice.
 */
package io.drivequal.service.qualification;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.json.JsonData;
import co.elastic.clients.util.ObjectBuilder;
import io.drivequal.service.platform.Documents;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

@Component
class JobStore {

	static final String INDEX = "drivequal-jobs";

	/** A CAS loop that keeps losing is a bug or a storm; give up rather than spin. */
	private static final int MAX_ATTEMPTS = 20;

	private final ElasticsearchClient client;

	private final ApplicationEventPublisher events;

	JobStore(ElasticsearchClient client, ApplicationEventPublisher events) {
		this.client = client;
		this.events = events;
	}

	record Versioned(Job job, long seqNo, long primaryTerm) {
	}

	record Page(long total, List<Job> jobs) {
	}

	/**
	 * @param state, driveModel, serial, submitter exact filters, each optional
	 * @param queuedFrom, queuedTo bounds on the submission time, each optional
	 */
	record JobQuery(JobState state, String driveModel, String serial, String submitter, Instant queuedFrom,
			Instant queuedTo, int page, int size) {
	}

	/**
	 * Creates the job; false when a job with this id already exists (idempotent
	 * submission).
	 */
	boolean create(Job job) {
		try {
			this.client.create((create) -> create.index(INDEX).id(job.jobId()).document(job));
			this.events.publishEvent(QualificationChanged.of(job, null, false));
			return true;
		}
		catch (ElasticsearchException | IOException ex) {
			if (Documents.isConflict(ex)) {
				return false;
			}
			throw unchecked(ex);
		}
	}

	Optional<Job> find(String jobId) {
		return findVersioned(jobId).map(Versioned::job);
	}

	Optional<Versioned> findVersioned(String jobId) {
		return Documents.get(this.client, INDEX, jobId, Job.class)
			.map((response) -> new Versioned(response.source(), response.seqNo(), response.primaryTerm()));
	}

	/**
	 * Applies {@code change} to the current job and writes it back if nobody changed the
	 * job in between; otherwise re-reads and re-applies. {@code change} returns empty to
	 * decline (e.g. the job is no longer in the state the caller expected).
	 * @return the job as written, or empty when the job is missing or {@code change}
	 * declined
	 */
	Optional<Job> update(String jobId, Function<Job, Optional<Job>> change) {
		return update(jobId, null, change);
	}

	/**
	 * As {@link #update(String, Function)}, starting from a version the caller already
	 * read (a search hit): when nobody changed the job since, the write is the only round
	 * trip. A stale version costs one conflict and a re-read, never a wrong write.
	 */
	Optional<Job> updateFrom(Versioned known, Function<Job, Optional<Job>> change) {
		return update(known.job().jobId(), known, change);
	}

	private Optional<Job> update(String jobId, Versioned known, Function<Job, Optional<Job>> change) {
		Versioned read = known;
		for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
			boolean fresh = read == null;
			if (fresh) {
				read = findVersioned(jobId).orElse(null);
				if (read == null) {
					return Optional.empty();
				}
			}
			Optional<Job> changed = change.apply(read.job());
			if (changed.isEmpty()) {
				if (fresh) {
					return Optional.empty();
				}
				// Declined on a version the caller read earlier: decide on the current
				// one.
				read = null;
				continue;
			}
			try {
				Versioned current = read;
				this.client.index((index) -> index.index(INDEX)
					.id(jobId)
					.ifSeqNo(current.seqNo())
					.ifPrimaryTerm(current.primaryTerm())
					.document(changed.get()));
				announce(current.job(), changed.get());
				return changed;
			}
			catch (ElasticsearchException | IOException ex) {
				if (!Documents.isConflict(ex)) {
					throw unchecked(ex);
				}
				read = null;
			}
		}
		throw new IllegalStateException("job " + jobId + " kept changing under " + MAX_ATTEMPTS + " attempts");
	}

	/** A new state or a new verdict is news for the listeners of QualificationChanged. */
	private void announce(Job before, Job after) {
		if (before.state() != after.state()) {
			this.events.publishEvent(QualificationChanged.of(after, before.state(), false));
		}
		if (before.verdict() == null && after.verdict() != null) {
			this.events.publishEvent(QualificationChanged.of(after, before.state(), true));
		}
	}

	/**
	 * QUEUED jobs in dispatch order: highest priority first, then the queue order (the
	 * submission time, unless an admin moved the job), then the submission time. Jobs
	 * from before priorities existed count as normal and go first among equals.
	 * @param serial one drive's queue, or null for every drive's
	 */
	List<Job> queuedInOrder(String serial, int limit) {
		return queuedInOrderVersioned(serial, limit).stream().map(Versioned::job).toList();
	}

	/**
	 * As {@link #queuedInOrder}, each job with the version it was read at, so that a
	 * compare-and-set can start from it without reading the job again.
	 */
	List<Versioned> queuedInOrderVersioned(String serial, int limit) {
		BoolQuery.Builder filters = new BoolQuery.Builder().filter(term("state", JobState.QUEUED.name()));
		if (serial != null) {
			filters.filter(term("deviceSerial", serial));
		}
		SearchResponse<Job> response = search((search) -> search.query((q) -> q.bool(filters.build()))
			.size(limit)
			.seqNoPrimaryTerm(true)
			.sort((sort) -> sort.field((field) -> field.field("priorityRank")
				.order(SortOrder.Desc)
				.missing(FieldValue.of(JobPriority.NORMAL.rank()))))
			.sort((sort) -> sort.field((field) -> field.field("queueOrder").order(SortOrder.Asc).missing("_first")))
			.sort((sort) -> sort.field((field) -> field.field("queuedAt").order(SortOrder.Asc))));
		List<Versioned> result = new ArrayList<>();
		for (Hit<Job> hit : response.hits().hits()) {
			result.add(new Versioned(hit.source(), hit.seqNo(), hit.primaryTerm()));
		}
		return result;
	}

	/** Jobs whose document changed at or after {@code since}, oldest change first. */
	List<Job> updatedSince(Instant since, int limit) {
		return jobs(search((search) -> search
			.query((q) -> q.range((range) -> range
				.untyped((untyped) -> untyped.field("updatedAt").gte(JsonData.of(since.toString())))))
			.size(limit)
			.sort((sort) -> sort.field((field) -> field.field("updatedAt").order(SortOrder.Asc)))));
	}

	Page search(JobQuery query) {
		BoolQuery.Builder filters = new BoolQuery.Builder();
		if (query.state() != null) {
			filters.filter(term("state", query.state().name()));
		}
		if (query.driveModel() != null) {
			filters.filter(term("driveModel", query.driveModel()));
		}
		if (query.serial() != null) {
			filters.filter(term("deviceSerial", query.serial()));
		}
		if (query.submitter() != null) {
			filters.filter(term("submitter", query.submitter()));
		}
		if (query.queuedFrom() != null || query.queuedTo() != null) {
			filters.filter((q) -> q.range((range) -> range.untyped((untyped) -> {
				untyped.field("queuedAt");
				if (query.queuedFrom() != null) {
					untyped.gte(JsonData.of(query.queuedFrom().toString()));
				}
				if (query.queuedTo() != null) {
					untyped.lt(JsonData.of(query.queuedTo().toString()));
				}
				return untyped;
			})));
		}
		SearchResponse<Job> response = search((search) -> search.query((q) -> q.bool(filters.build()))
			.from(query.page() * query.size())
			.size(query.size())
			.trackTotalHits((total) -> total.enabled(true))
			.sort((sort) -> sort.field((field) -> field.field("queuedAt").order(SortOrder.Desc))));
		long total = (response.hits().total() != null) ? response.hits().total().value() : 0;
		return new Page(total, jobs(response));
	}

	/** Jobs in one of {@code states}, oldest submission first. */
	List<Job> inStates(List<JobState> states, int limit) {
		List<FieldValue> values = states.stream().map((state) -> FieldValue.of(state.name())).toList();
		return jobs(search(
				(search) -> search.query((q) -> q.terms((terms) -> terms.field("state").terms((t) -> t.value(values))))
					.size(limit)
					.sort((sort) -> sort.field((field) -> field.field("queuedAt").order(SortOrder.Asc)))));
	}

	/**
	 * COMPLETED jobs that have no verdict yet, earliest ended first. Filtered by
	 * Elasticsearch: analysed jobs (with their large analysis) accumulate for years and
	 * must not crowd the unanalysed ones out of a page.
	 */
	List<Job> completedWithoutVerdict(int limit) {
		return jobs(search((search) -> search
			.query((q) -> q.bool((bool) -> bool.filter(term("state", JobState.COMPLETED.name()))
				.mustNot((not) -> not.exists((exists) -> exists.field("verdict")))))
			.size(limit)
			.sort((sort) -> sort.field((field) -> field.field("endedAt").order(SortOrder.Asc)))));
	}

	private SearchResponse<Job> search(Function<SearchRequest.Builder, ObjectBuilder<SearchRequest>> request) {
		try {
			return this.client.search(
					(search) -> request.apply(search.index(INDEX).ignoreUnavailable(true).allowNoIndices(true)),
					Job.class);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static List<Job> jobs(SearchResponse<Job> response) {
		List<Job> result = new ArrayList<>();
		for (Hit<Job> hit : response.hits().hits()) {
			result.add(hit.source());
		}
		return result;
	}

	private static Query term(String field, String value) {
		return Query.of((q) -> q.term((term) -> term.field(field).value(value)));
	}

	private static RuntimeException unchecked(Exception ex) {
		return (ex instanceof RuntimeException runtime) ? runtime : new UncheckedIOException((IOException) ex);
	}

}

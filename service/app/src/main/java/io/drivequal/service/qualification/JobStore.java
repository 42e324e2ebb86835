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
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch.core.BulkResponse;
import co.elastic.clients.elasticsearch.core.MgetResponse;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.elasticsearch.core.bulk.BulkResponseItem;
import co.elastic.clients.elasticsearch.core.get.GetResult;
import co.elastic.clients.elasticsearch.core.mget.MultiGetResponseItem;
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
		if (!Documents.create(this.client, INDEX, job.jobId(), job)) {
			return false;
		}
		this.events.publishEvent(QualificationChanged.of(job, null, false));
		return true;
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
			if (Documents.writeIfUnchanged(this.client, INDEX, jobId, read.seqNo(), read.primaryTerm(),
					changed.get())) {
				announce(read.job(), changed.get());
				return changed;
			}
			read = null;
		}
		throw new IllegalStateException("job " + jobId + " kept changing under " + MAX_ATTEMPTS + " attempts");
	}

	/**
	 * Applies each job's changes in order, as {@link #update(String, Function)} applies
	 * one, for a batch of jobs at once: one multi-get reads them, one bulk request writes
	 * every changed job with a compare-and-set on the version read, and a job that
	 * someone else changed in between is redone on its own. Every state change and
	 * verdict along a job's steps is announced, in order, as if each step had been
	 * written alone. A change returning empty leaves the job as it was at that step.
	 * @param changesByJob each job's changes, in the order to apply them
	 */
	Updates updateAll(Map<String, List<Function<Job, Optional<Job>>>> changesByJob) {
		Map<String, Job> written = new HashMap<>();
		Map<String, Versioned> read = findAllVersioned(changesByJob.keySet());
		Set<String> missing = new HashSet<>(changesByJob.keySet());
		missing.removeAll(read.keySet());
		Map<String, List<Job>> stepsByJob = new LinkedHashMap<>();
		List<BulkOperation> writes = new ArrayList<>();
		for (Map.Entry<String, Versioned> entry : read.entrySet()) {
			List<Job> steps = steps(entry.getValue().job(), changesByJob.get(entry.getKey()));
			if (steps.size() > 1) {
				Versioned version = entry.getValue();
				Job last = steps.get(steps.size() - 1);
				stepsByJob.put(entry.getKey(), steps);
				writes.add(BulkOperation.of((op) -> op.index((index) -> index.index(INDEX)
					.id(entry.getKey())
					.ifSeqNo(version.seqNo())
					.ifPrimaryTerm(version.primaryTerm())
					.document(last))));
			}
		}
		if (writes.isEmpty()) {
			return new Updates(written, missing);
		}
		BulkResponse response;
		try {
			response = this.client.bulk((bulk) -> bulk.operations(writes));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		for (BulkResponseItem item : response.items()) {
			String jobId = item.id();
			if (item.error() == null) {
				List<Job> steps = stepsByJob.get(jobId);
				announceSteps(steps);
				written.put(jobId, steps.get(steps.size() - 1));
			}
			else if (item.status() == 409) {
				updateInSteps(jobId, changesByJob.get(jobId)).ifPresent((job) -> written.put(jobId, job));
			}
			else {
				throw new IllegalStateException("Elasticsearch refused the write of job " + jobId + ": "
						+ item.error().type() + ": " + item.error().reason());
			}
		}
		return new Updates(written, missing);
	}

	/**
	 * @param written the jobs as written, by id (jobs not changed are absent)
	 * @param missing the ids of jobs not in the store
	 */
	record Updates(Map<String, Job> written, Set<String> missing) {
	}

	/** One job's changes in order, re-read and redone until its compare-and-set wins. */
	private Optional<Job> updateInSteps(String jobId, List<Function<Job, Optional<Job>>> changes) {
		for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
			Optional<Versioned> current = findVersioned(jobId);
			if (current.isEmpty()) {
				return Optional.empty();
			}
			List<Job> steps = steps(current.get().job(), changes);
			if (steps.size() == 1) {
				return Optional.empty();
			}
			Job last = steps.get(steps.size() - 1);
			if (Documents.writeIfUnchanged(this.client, INDEX, jobId, current.get().seqNo(),
					current.get().primaryTerm(), last)) {
				announceSteps(steps);
				return Optional.of(last);
			}
		}
		throw new IllegalStateException("job " + jobId + " kept changing under " + MAX_ATTEMPTS + " attempts");
	}

	/** The job, then the job after each change that changed it. */
	private static List<Job> steps(Job job, List<Function<Job, Optional<Job>>> changes) {
		List<Job> steps = new ArrayList<>();
		steps.add(job);
		for (Function<Job, Optional<Job>> change : changes) {
			change.apply(steps.get(steps.size() - 1)).ifPresent(steps::add);
		}
		return steps;
	}

	private void announceSteps(List<Job> steps) {
		for (int i = 1; i < steps.size(); i++) {
			announce(steps.get(i - 1), steps.get(i));
		}
	}

	/** The jobs with these ids, by id; ids without a job are absent. */
	Map<String, Job> findAll(Collection<String> jobIds) {
		Map<String, Job> found = new LinkedHashMap<>();
		findAllVersioned(jobIds).forEach((id, versioned) -> found.put(id, versioned.job()));
		return found;
	}

	private Map<String, Versioned> findAllVersioned(Collection<String> jobIds) {
		if (jobIds.isEmpty()) {
			return Map.of();
		}
		MgetResponse<Job> response;
		try {
			response = this.client.mget((mget) -> mget.index(INDEX).ids(List.copyOf(jobIds)), Job.class);
		}
		catch (ElasticsearchException ex) {
			if (ex.status() == 404) {
				return Map.of();
			}
			throw ex;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Map<String, Versioned> found = new LinkedHashMap<>();
		for (MultiGetResponseItem<Job> item : response.docs()) {
			if (item.isResult() && item.result().found() && item.result().source() != null) {
				GetResult<Job> result = item.result();
				found.put(result.id(), new Versioned(result.source(), result.seqNo(), result.primaryTerm()));
			}
		}
		return found;
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
		BoolQuery.Builder filters = new BoolQuery.Builder().filter(Documents.term("state", JobState.QUEUED.name()));
		if (serial != null) {
			filters.filter(Documents.term("deviceSerial", serial));
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
		return Documents.sources(search((search) -> search
			.query((q) -> q.range((range) -> range
				.untyped((untyped) -> untyped.field("updatedAt").gte(JsonData.of(since.toString())))))
			.size(limit)
			.sort((sort) -> sort.field((field) -> field.field("updatedAt").order(SortOrder.Asc)))));
	}

	Page search(JobQuery query) {
		BoolQuery.Builder filters = new BoolQuery.Builder();
		if (query.state() != null) {
			filters.filter(Documents.term("state", query.state().name()));
		}
		if (query.driveModel() != null) {
			filters.filter(Documents.term("driveModel", query.driveModel()));
		}
		if (query.serial() != null) {
			filters.filter(Documents.term("deviceSerial", query.serial()));
		}
		if (query.submitter() != null) {
			filters.filter(Documents.term("submitter", query.submitter()));
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
		return new Page(total, Documents.sources(response));
	}

	/** Jobs in one of {@code states}, oldest submission first. */
	List<Job> inStates(List<JobState> states, int limit) {
		List<FieldValue> values = states.stream().map((state) -> FieldValue.of(state.name())).toList();
		return Documents.sources(search(
				(search) -> search.query((q) -> q.terms((terms) -> terms.field("state").terms((t) -> t.value(values))))
					.size(limit)
					.sort((sort) -> sort.field((field) -> field.field("queuedAt").order(SortOrder.Asc)))));
	}

	/**
	 * The latest COMPLETED jobs of a drive model, newest first, without their analyses
	 * (the history ETAs are measured from).
	 */
	List<Job> completedOfModel(String driveModel, int limit) {
		return Documents.sources(search((search) -> search
			.query((q) -> q.bool((bool) -> bool.filter(Documents.term("state", JobState.COMPLETED.name()))
				.filter(Documents.term("driveModel", driveModel))))
			.source((source) -> source.filter((filter) -> filter.excludes("analysis")))
			.size(limit)
			.sort((sort) -> sort.field((field) -> field.field("endedAt").order(SortOrder.Desc)))));
	}

	/**
	 * The job holding each drive (DISPATCHED or RUNNING), by serial; free drives absent.
	 */
	Map<String, Job> holding(Collection<String> serials) {
		Map<String, Job> holders = new HashMap<>();
		if (serials.isEmpty()) {
			return holders;
		}
		List<FieldValue> drives = serials.stream().map(FieldValue::of).toList();
		List<FieldValue> states = List.of(FieldValue.of(JobState.DISPATCHED.name()),
				FieldValue.of(JobState.RUNNING.name()));
		for (Job job : Documents.sources(search((search) -> search
			.query((q) -> q.bool((bool) -> bool
				.filter((f) -> f.terms((terms) -> terms.field("deviceSerial").terms((t) -> t.value(drives))))
				.filter((f) -> f.terms((terms) -> terms.field("state").terms((t) -> t.value(states))))))
			.source((source) -> source.filter((filter) -> filter.excludes("analysis")))
			.size(serials.size() * 2)))) {
			holders.putIfAbsent(job.deviceSerial(), job);
		}
		return holders;
	}

	/**
	 * COMPLETED jobs that have no verdict yet, earliest ended first. Filtered by
	 * Elasticsearch: analysed jobs (with their large analysis) accumulate for years and
	 * must not crowd the unanalysed ones out of a page.
	 */
	List<Job> completedWithoutVerdict(int limit) {
		return Documents.sources(search((search) -> search
			.query((q) -> q.bool((bool) -> bool.filter(Documents.term("state", JobState.COMPLETED.name()))
				.mustNot((not) -> not.exists((exists) -> exists.field("verdict")))))
			.size(limit)
			.sort((sort) -> sort.field((field) -> field.field("endedAt").order(SortOrder.Asc)))));
	}

	private SearchResponse<Job> search(Function<SearchRequest.Builder, ObjectBuilder<SearchRequest>> request) {
		return Documents.search(this.client, INDEX, Job.class, request);
	}

}

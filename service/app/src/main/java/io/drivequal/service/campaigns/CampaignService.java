/*
 * The use cases behind the campaigns API: create (every job checked before any is queued), look up
 * and list (the grid read from the jobs), cancel, rerun one cell, and refresh: the campaign's state,
 * counts and, once every job has ended, the model verdict, derived from its jobs and written back
 * with a compare-and-set whenever they changed.
 */
package io.drivequal.service.campaigns;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.Metric;
import io.drivequal.analysis.ModelJudge;
import io.drivequal.analysis.ModelVerdict;
import io.drivequal.analysis.SampleRun;
import io.drivequal.analysis.SpreadCriterion;
import io.drivequal.service.audit.AuditNotes;
import io.drivequal.service.platform.BadRequestException;
import io.drivequal.service.platform.ConflictException;
import io.drivequal.service.platform.ForbiddenException;
import io.drivequal.service.platform.NotFoundException;
import io.drivequal.service.qualification.CampaignJobs;
import io.drivequal.service.qualification.JobState;
import io.drivequal.service.qualification.QualificationView;
import io.drivequal.service.qualification.SubmitRequest;
import io.drivequal.service.runners.Drive;
import io.drivequal.service.runners.RunnerRegistry;
import io.drivequal.service.security.Callers;
import io.drivequal.service.security.Role;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Service;

@Service
class CampaignService {

	private static final Logger log = LoggerFactory.getLogger(CampaignService.class);

	private final CampaignStore store;

	private final CampaignJobs jobs;

	private final RunnerRegistry registry;

	private final Clock clock;

	CampaignService(CampaignStore store, CampaignJobs jobs, RunnerRegistry registry, Clock clock) {
		this.store = store;
		this.jobs = jobs;
		this.registry = registry;
		this.clock = clock;
	}

	record Created(Campaign campaign, boolean created, List<String> warnings) {
	}

	Created create(CampaignRequest request, Authentication caller, String idempotencyKey) {
		if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 128)) {
			throw new BadRequestException("Idempotency-Key", "must be 1 to 128 characters");
		}
		CampaignJobs.checkPriority(request.priority(), caller);
		String campaignId = (idempotencyKey != null) ? idFor(caller.getName(), idempotencyKey) : Campaign.newId();
		if (idempotencyKey != null) {
			Optional<Campaign> existing = this.store.find(campaignId);
			if (existing.isPresent()) {
				return new Created(existing.get(), false, List.of());
			}
		}
		checkSamples(request);
		List<Campaign.Plan> plans = plans(request);
		checkSpreadCriteria(request, plans);
		// Every job is checked before any is queued: a refused campaign leaves nothing.
		List<CampaignJobs.PreparedJob> prepared = new ArrayList<>();
		List<Campaign.Cell> cells = new ArrayList<>();
		List<String> warnings = new ArrayList<>();
		for (int s = 0; s < request.samples().size(); s++) {
			CampaignRequest.SampleSelector sample = request.samples().get(s);
			for (int p = 0; p < plans.size(); p++) {
				CampaignJobs.PreparedJob job = prepare(CampaignJobs.newJobId(), request, sample, s, plans.get(p), p,
						caller);
				prepared.add(job);
				cells.add(new Campaign.Cell(sample.serial(), plans.get(p).name(), job.jobId(), List.of()));
				job.warnings().stream().filter((w) -> !warnings.contains(w)).forEach(warnings::add);
			}
		}
		Instant now = this.clock.instant();
		Map<String, Integer> counts = emptyCounts();
		counts.put(JobState.QUEUED.name(), cells.size());
		Campaign campaign = new Campaign(campaignId, request.name(), CampaignState.QUEUED, caller.getName(),
				List.copyOf(Callers.teams(caller)), request.model(), List.copyOf(request.samples()), plans,
				request.spec(), request.criteria(), request.criteriaSet(), request.spreadCriteria(),
				(request.priority() != null) ? request.priority() : "normal", cells, counts, 0, now, now, null, null,
				null, null, null, idempotencyKey);
		// The campaign first, then its jobs: a crash in between leaves cells whose job is
		// missing, which the grid shows and a rerun fills, never a job outside any
		// campaign.
		if (!this.store.create(campaign)) {
			return new Created(this.store.find(campaignId).orElseThrow(), false, List.of());
		}
		for (CampaignJobs.PreparedJob job : prepared) {
			this.jobs.queue(job);
		}
		AuditNotes.put("jobs", cells.size());
		log.info("campaign {} QUEUED: {} samples x {} profiles of {} {} by {}", campaignId, request.samples().size(),
				plans.size(), request.model().model(), request.model().firmware(), caller.getName());
		return new Created(campaign, true, warnings);
	}

	/**
	 * Each sample once, in a runner's inventory, on the runner named if one is, and of
	 * the campaign's model and firmware by its own identify data.
	 */
	private void checkSamples(CampaignRequest request) {
		Map<String, Integer> seen = new HashMap<>();
		for (int i = 0; i < request.samples().size(); i++) {
			CampaignRequest.SampleSelector sample = request.samples().get(i);
			String field = "samples[" + i + "].serial";
			Integer first = seen.putIfAbsent(sample.serial(), i);
			if (first != null) {
				throw new BadRequestException(field, "serial " + sample.serial() + " is named twice (samples[" + first
						+ "] and samples[" + i + "])");
			}
			Drive drive = this.registry.drive(sample.serial())
				.orElseThrow(() -> new BadRequestException(field,
						"drive " + sample.serial() + " is not in the inventory of any runner"));
			if (sample.runnerId() != null && !sample.runnerId().equals(drive.runnerId())) {
				throw new BadRequestException("samples[" + i + "].runnerId",
						"drive " + drive.serial() + " is on runner " + drive.runnerId() + ", not " + sample.runnerId());
			}
			CampaignRequest.ModelRef model = request.model();
			if (!Objects.equals(drive.model(), model.model())) {
				throw new BadRequestException(field, "drive " + drive.serial() + " identifies as model '"
						+ drive.model() + "', not the campaign's model '" + model.model() + "'");
			}
			if (!Objects.equals(drive.firmware(), model.firmware())) {
				throw new BadRequestException(field, "drive " + drive.serial() + " runs firmware '" + drive.firmware()
						+ "', not the campaign's firmware '" + model.firmware() + "'");
			}
		}
	}

	/**
	 * Each profile once; a plan of explicit phases (or an inline fio job file) is named
	 * phases-N (its position), a shipped fio job file fio-NAME.
	 */
	private static List<Campaign.Plan> plans(CampaignRequest request) {
		List<Campaign.Plan> plans = new ArrayList<>();
		for (int i = 0; i < request.profiles().size(); i++) {
			SubmitRequest.TestPlan plan = request.profiles().get(i);
			String name = (plan.profile() != null) ? plan.profile() : (plan.fio() != null && plan.fio().name() != null)
					? "fio-" + plan.fio().name() : "phases-" + (i + 1);
			for (Campaign.Plan earlier : plans) {
				if (earlier.name().equals(name)) {
					throw new BadRequestException("profiles[" + i + "].profile",
							"profile " + name + " is named twice; a campaign runs each profile once per sample");
				}
			}
			plans.add(new Campaign.Plan(name, plan));
		}
		return plans;
	}

	private static void checkSpreadCriteria(CampaignRequest request, List<Campaign.Plan> plans) {
		if (request.spreadCriteria() == null) {
			return;
		}
		for (int i = 0; i < request.spreadCriteria().size(); i++) {
			CampaignRequest.SpreadLimit spread = request.spreadCriteria().get(i);
			if (Metric.fromWireName(spread.metric()).isEmpty()) {
				throw new BadRequestException("spreadCriteria[" + i + "].metric",
						"unknown metric " + spread.metric() + "; known: " + Metric.wireNames());
			}
			if (spread.profile() != null && plans.stream().noneMatch((plan) -> plan.name().equals(spread.profile()))) {
				throw new BadRequestException("spreadCriteria[" + i + "].profile",
						"the campaign runs no profile " + spread.profile() + "; it runs "
								+ String.join(", ", plans.stream().map(Campaign.Plan::name).toList()));
			}
		}
	}

	/**
	 * One cell's job checked as a submission; a refusal names the campaign's field
	 * (samples[i]..., profiles[j]...) rather than the job's.
	 */
	private CampaignJobs.PreparedJob prepare(String jobId, CampaignRequest request,
			CampaignRequest.SampleSelector sample, int sampleIndex, Campaign.Plan plan, int planIndex,
			Authentication caller) {
		SubmitRequest submission = new SubmitRequest(
				new SubmitRequest.DriveSelector(sample.serial(), sample.runnerId(), null), plan.plan(), request.spec(),
				request.criteria(), request.criteriaSet(), request.priority(), null);
		try {
			return this.jobs.prepare(jobId, submission, caller);
		}
		catch (BadRequestException ex) {
			String field = ex.field();
			if (field.startsWith("drive.")) {
				field = "samples[" + sampleIndex + "]." + field.substring("drive.".length());
			}
			else if (field.equals("plan") || field.startsWith("plan.")) {
				field = "profiles[" + planIndex + "]" + field.substring("plan".length());
			}
			String renamed = field;
			// a job file's problems keep their lines and options, under the campaign's
			// field
			List<Map<String, Object>> errors = ex.errors().stream().map((error) -> {
				Map<String, Object> moved = new LinkedHashMap<>(error);
				moved.put("field", renamed);
				return (Map<String, Object>) moved;
			}).toList();
			throw new BadRequestException(field,
					ex.getMessage() + " (sample " + sample.serial() + ", profile " + plan.name() + ")",
					(errors.size() > 1 || errors.get(0).containsKey("line")) ? errors : List.of());
		}
	}

	Campaign get(String campaignId) {
		return this.store.find(campaignId).orElseThrow(() -> new NotFoundException("no campaign " + campaignId));
	}

	CampaignStore.Page list(CampaignStore.CampaignQuery query) {
		return this.store.search(query);
	}

	/** The campaign as it stands, refreshed from its jobs, with the jobs read once. */
	record Current(Campaign campaign, Map<String, QualificationView> jobs) {
	}

	Current current(String campaignId) {
		return refresh(get(campaignId));
	}

	/**
	 * Derives the campaign's state, counts and (once every job has ended) the model
	 * verdict from its jobs, and writes them when they changed.
	 */
	Current refresh(Campaign campaign) {
		Map<String, QualificationView> views = this.jobs
			.views(campaign.cells().stream().map(Campaign.Cell::jobId).toList());
		Derived derived = derive(campaign, views);
		if (campaign.state().isFinal() || derived.same(campaign)) {
			return new Current(campaign, views);
		}
		Instant now = this.clock.instant();
		Optional<Campaign> written = this.store.update(campaign.campaignId(), (current) -> {
			if (current.state().isFinal() || current.reruns() != campaign.reruns()
					|| !current.cells().equals(campaign.cells())) {
				// Someone else finished or reran it in between: decide on their version.
				return Optional.empty();
			}
			Derived again = derive(current, views);
			if (again.same(current)) {
				return Optional.empty();
			}
			ModelVerdictView verdict = (again.state == CampaignState.COMPLETED)
					? ModelVerdictView.of(modelVerdict(current, views), now) : null;
			return Optional.of(current.with(again.state, again.counts, now, again.state.isFinal() ? now : null,
					(verdict != null) ? verdict.outcome() : null, verdict));
		});
		written.ifPresent((c) -> {
			if (c.state() != campaign.state()) {
				log.info("campaign {} {} -> {}{}", c.campaignId(), campaign.state(), c.state(),
						(c.verdict() != null) ? ": model verdict " + c.verdict() : "");
			}
		});
		return new Current(written.orElseGet(() -> this.store.find(campaign.campaignId()).orElse(campaign)), views);
	}

	private record Derived(CampaignState state, Map<String, Integer> counts) {

		boolean same(Campaign campaign) {
			return this.state == campaign.state() && this.counts.equals(campaign.counts());
		}

	}

	private static Derived derive(Campaign campaign, Map<String, QualificationView> views) {
		Map<String, Integer> counts = emptyCounts();
		boolean allEnded = true;
		boolean allJudged = true;
		boolean anyStarted = false;
		for (Campaign.Cell cell : campaign.cells()) {
			QualificationView job = views.get(cell.jobId());
			if (job == null) {
				// Not (yet) stored: counts as queued, and the campaign waits for it.
				counts.merge(JobState.QUEUED.name(), 1, Integer::sum);
				allEnded = false;
				continue;
			}
			counts.merge(job.state().name(), 1, Integer::sum);
			allEnded &= job.state().isFinal();
			allJudged &= job.state() != JobState.COMPLETED || job.verdict() != null;
			anyStarted |= job.state() != JobState.QUEUED;
		}
		CampaignState state;
		if (allEnded && campaign.cancelRequestedAt() != null) {
			state = CampaignState.CANCELLED;
		}
		else if (allEnded && allJudged) {
			state = CampaignState.COMPLETED;
		}
		else if (anyStarted || campaign.reruns() > 0) {
			state = CampaignState.RUNNING;
		}
		else {
			state = CampaignState.QUEUED;
		}
		return new Derived(state, counts);
	}

	static Map<String, Integer> emptyCounts() {
		Map<String, Integer> counts = new LinkedHashMap<>();
		for (JobState state : JobState.values()) {
			counts.put(state.name(), 0);
		}
		return counts;
	}

	/** The model verdict from every cell's job (analysis.ModelJudge). */
	static ModelVerdict modelVerdict(Campaign campaign, Map<String, QualificationView> views) {
		List<String> samples = campaign.samples().stream().map(CampaignRequest.SampleSelector::serial).toList();
		List<String> plans = campaign.plans().stream().map(Campaign.Plan::name).toList();
		List<SampleRun> runs = new ArrayList<>();
		for (Campaign.Cell cell : campaign.cells()) {
			runs.add(StoredVerdicts.run(cell.serial(), cell.plan(), cell.jobId(), views.get(cell.jobId()),
					campaign.campaignId()));
		}
		List<SpreadCriterion> spreads = new ArrayList<>();
		if (campaign.spreadCriteria() != null) {
			for (CampaignRequest.SpreadLimit limit : campaign.spreadCriteria()) {
				spreads.add(new SpreadCriterion(Metric.fromWireName(limit.metric()).orElseThrow(),
						Optional.ofNullable(limit.profile()), Optional.ofNullable(limit.phase()),
						limit.maxCvPercent()));
			}
		}
		return ModelJudge.judge(samples, plans, runs, spreads);
	}

	/**
	 * @return the campaign after the request: CANCELLED at once when no job had started,
	 * else still RUNNING until the runners stop theirs
	 */
	Current cancel(String campaignId, Authentication caller) {
		Campaign campaign = get(campaignId);
		checkOwner(campaign, caller, "cancel");
		Instant now = this.clock.instant();
		Campaign requested = this.store
			.update(campaignId, (current) -> current.state().isFinal() || current.cancelRequestedAt() != null
					? Optional.empty() : Optional.of(current.cancelRequested(now, caller.getName())))
			.orElseGet(() -> {
				Campaign current = get(campaignId);
				if (current.state().isFinal()) {
					throw new ConflictException("campaign " + campaignId + " is " + current.state()
							+ "; only active campaigns can be cancelled");
				}
				return current;
			});
		int cancelled = 0;
		for (Campaign.Cell cell : requested.cells()) {
			if (this.jobs.cancel(cell.jobId(), caller.getName()).isPresent()) {
				cancelled++;
			}
		}
		AuditNotes.put("jobsCancelled", cancelled);
		return refresh(get(campaignId));
	}

	/**
	 * A new job for one cell whose job has ended (typically FAILED or INTERRUPTED after a
	 * runner was lost): the cell stands for the new job, the old one is kept in its
	 * history, and the model verdict waits for it.
	 */
	Current rerun(String campaignId, String serial, String profile, Authentication caller) {
		Campaign campaign = get(campaignId);
		checkOwner(campaign, caller, "rerun");
		if (campaign.cancelRequestedAt() != null) {
			throw new ConflictException("campaign " + campaignId + " was cancelled; it runs nothing more");
		}
		int index = -1;
		for (int i = 0; i < campaign.cells().size(); i++) {
			Campaign.Cell cell = campaign.cells().get(i);
			if (cell.serial().equals(serial) && cell.plan().equals(profile)) {
				index = i;
			}
		}
		if (index < 0) {
			boolean knownSample = campaign.cells().stream().anyMatch((cell) -> cell.serial().equals(serial));
			throw new BadRequestException(knownSample ? "profile" : "serial",
					knownSample ? "campaign " + campaignId + " runs no profile " + profile
							: "campaign " + campaignId + " has no sample " + serial);
		}
		Campaign.Cell cell = campaign.cells().get(index);
		QualificationView job = this.jobs.views(List.of(cell.jobId())).get(cell.jobId());
		if (job != null && !job.state().isFinal()) {
			throw new ConflictException("job " + cell.jobId() + " of sample " + serial + ", profile " + profile + " is "
					+ job.state() + "; only an ended job can be rerun");
		}
		int sampleIndex = campaign.samples()
			.stream()
			.map(CampaignRequest.SampleSelector::serial)
			.toList()
			.indexOf(serial);
		Campaign.Plan plan = campaign.plans()
			.stream()
			.filter((p) -> p.name().equals(profile))
			.findFirst()
			.orElseThrow();
		CampaignRequest original = new CampaignRequest(campaign.name(), campaign.model(), campaign.samples(),
				campaign.plans().stream().map(Campaign.Plan::plan).toList(), campaign.spec(), campaign.criteria(),
				campaign.criteriaSet(), campaign.spreadCriteria(), campaign.priority());
		CampaignJobs.PreparedJob prepared = prepare(CampaignJobs.newJobId(), original,
				campaign.samples().get(sampleIndex), sampleIndex, plan, campaign.plans().indexOf(plan), caller);
		Instant now = this.clock.instant();
		int cellIndex = index;
		String oldJobId = cell.jobId();
		Campaign updated = this.store.update(campaignId, (current) -> {
			if (current.cancelRequestedAt() != null || !current.cells().get(cellIndex).jobId().equals(oldJobId)) {
				return Optional.empty();
			}
			return Optional.of(current.rerun(cellIndex, prepared.jobId(), now));
		})
			.orElseThrow(() -> new ConflictException(
					"campaign " + campaignId + " changed meanwhile (cancelled, or this cell was rerun already)"));
		this.jobs.queue(prepared);
		AuditNotes.put("serial", serial);
		AuditNotes.put("profile", profile);
		AuditNotes.put("replacedJob", oldJobId);
		AuditNotes.put("job", prepared.jobId());
		log.info("campaign {}: sample {} profile {} rerun as job {} (was {})", campaignId, serial, profile,
				prepared.jobId(), oldJobId);
		return refresh(updated);
	}

	private static void checkOwner(Campaign campaign, Authentication caller, String what) {
		if (!Callers.has(caller, Role.ADMIN) && !caller.getName().equals(campaign.submitter())) {
			throw new ForbiddenException(
					"only " + campaign.submitter() + " or an admin may " + what + " " + campaign.campaignId());
		}
	}

	private static String idFor(String submitter, String idempotencyKey) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256")
				.digest(("campaign\n" + submitter + "\n" + idempotencyKey).getBytes(StandardCharsets.UTF_8));
			return "c-" + HexFormat.of().formatHex(digest).substring(0, 24);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

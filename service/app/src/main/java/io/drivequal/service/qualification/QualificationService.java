/*
 * The use cases behind the API: submit (validated against the catalog, the drive and the
 * contract), look up, list, cancel.
 */
package io.drivequal.service.qualification;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.drivequal.analysis.Criterion;
import io.drivequal.analysis.Eligibility;
import io.drivequal.schemas.Validation;
import io.drivequal.service.catalog.Catalog;
import io.drivequal.service.catalog.CriteriaSet;
import io.drivequal.service.catalog.Durations;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.Profile;
import io.drivequal.service.fiojobs.FioJobFiles;
import io.drivequal.service.platform.BadRequestException;
import io.drivequal.service.platform.ConflictException;
import io.drivequal.service.platform.ForbiddenException;
import io.drivequal.service.platform.NotFoundException;
import io.drivequal.service.runners.Drive;
import io.drivequal.service.runners.RunnerRegistry;
import io.drivequal.service.security.Callers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Service;

@Service
class QualificationService {

	private static final Logger log = LoggerFactory.getLogger(QualificationService.class);

	private final JobStore store;

	private final DriveLeases leases;

	private final Catalog catalog;

	private final RunnerRegistry registry;

	private final CommandPublisher commands;

	private final Clock clock;

	/** How far ahead a start window may be set. */
	static final Duration MAX_START_DELAY = Duration.ofDays(90);

	QualificationService(JobStore store, DriveLeases leases, Catalog catalog, RunnerRegistry registry,
			CommandPublisher commands, Clock clock) {
		this.store = store;
		this.leases = leases;
		this.catalog = catalog;
		this.registry = registry;
		this.commands = commands;
		this.clock = clock;
	}

	record Submitted(Job job, boolean created, List<String> warnings) {
	}

	Submitted submit(SubmitRequest request, Authentication caller, String idempotencyKey) {
		String submitter = caller.getName();
		if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 128)) {
			throw new BadRequestException("Idempotency-Key", "must be 1 to 128 characters");
		}
		// Before anything else, so a refused submission leaves nothing behind.
		JobPriority priority = (request.priority() != null) ? JobPriority.ofWireName(request.priority()).orElseThrow()
				: JobPriority.NORMAL;
		DriveQueues.checkAllowed(priority, caller);
		if (request.notBefore() != null && request.notBefore().isAfter(this.clock.instant().plus(MAX_START_DELAY))) {
			throw new BadRequestException("notBefore", "must be within " + MAX_START_DELAY.toDays() + " days");
		}
		String jobId = (idempotencyKey != null) ? idFor(submitter, idempotencyKey) : Job.newId();
		if (idempotencyKey != null) {
			Optional<Job> existing = this.store.find(jobId);
			if (existing.isPresent()) {
				return new Submitted(existing.get(), false, List.of());
			}
		}
		Prepared prepared = prepare(request, caller, jobId, idempotencyKey, priority);
		Job job = prepared.job();
		if (!create(job)) {
			// Same Idempotency-Key raced with itself: the first one won; answer with it.
			return new Submitted(this.store.find(jobId).orElseThrow(), false, List.of());
		}
		return new Submitted(job, true, prepared.warnings());
	}

	/**
	 * A job checked against the inventory, the catalog and the contract, not yet stored.
	 */
	record Prepared(Job job, List<String> warnings) {
	}

	/**
	 * Everything a submission checks, without storing anything: what a campaign runs for
	 * every job before it queues any.
	 * @throws BadRequestException naming the request's field that is wrong
	 */
	Prepared prepare(SubmitRequest request, Authentication caller, String jobId, String idempotencyKey,
			JobPriority priority) {
		String submitter = caller.getName();
		Drive drive = this.registry.drive(request.drive().serial())
			.orElseThrow(() -> new BadRequestException("drive.serial",
					"drive " + request.drive().serial() + " is not in the inventory of any runner"));
		if (request.drive().runnerId() != null && !request.drive().runnerId().equals(drive.runnerId())) {
			throw new BadRequestException("drive.runnerId", "drive " + drive.serial() + " is on runner "
					+ drive.runnerId() + ", not " + request.drive().runnerId());
		}
		if (request.drive().transportAddress() != null
				&& !request.drive().transportAddress().equals(drive.transportAddress())) {
			throw new BadRequestException("drive.transportAddress", "drive " + drive.serial() + " is at "
					+ drive.transportAddress() + ", not " + request.drive().transportAddress());
		}
		String profileName = request.plan().profile();
		AnalysisSettings analysisSettings = analysisSettings(request.plan());
		RoundsPlan.Checked rounds = RoundsPlan.checked(resolvePlan(request.plan(), drive), drive.lbaSizeBytes(),
				jobRangeWritesRequired(analysisSettings, profileName));
		List<PhaseSpec> plan = rounds.phases();
		List<Criterion> criteria = criteria(this.catalog, request, profileName);
		// After every check of the request itself: a 422 says the drive cannot, not that
		// the request is wrong.
		CapabilityCheck.require(drive, plan, criteria);
		Instant now = this.clock.instant();
		Job.Draft draft = new Job.Draft();
		draft.jobId = jobId;
		draft.state = JobState.QUEUED;
		draft.submitter = submitter;
		draft.profile = profileName;
		draft.deviceSerial = drive.serial();
		draft.driveModel = drive.model();
		draft.firmware = drive.firmware();
		draft.runnerId = drive.runnerId();
		draft.transportAddress = drive.transportAddress();
		draft.engine = drive.engine();
		draft.capacityBytes = drive.capacityBytes();
		draft.lbaSizeBytes = drive.lbaSizeBytes();
		draft.idempotencyKey = idempotencyKey;
		draft.commandId = "start-" + jobId;
		draft.queuedAt = now;
		draft.updatedAt = now;
		draft.expectedDurationS = Durations.expectedS(plan, drive.capacityBytes());
		draft.plan = plan;
		draft.spec = request.spec();
		draft.criteria = criteria;
		draft.criteriaSet = request.criteriaSet();
		draft.analysisSettings = analysisSettings;
		draft.priority = priority.wireName();
		draft.priorityRank = priority.rank();
		draft.queueOrder = DriveQueues.queueOrderOf(now);
		draft.notBefore = request.notBefore();
		if (request.plan().latencyMonitor() != null) {
			request.plan().latencyMonitor().requireIncreasing("plan.latencyMonitor");
		}
		draft.latencyMonitor = request.plan().latencyMonitor();
		draft.submitterTeams = List.copyOf(Callers.teams(caller));
		draft.driveCapabilities = drive.capabilities();
		Job job = draft.build();
		checkAgainstContract(job);
		List<String> warnings = new ArrayList<>(rounds.warnings());
		warnings.addAll(warnings(drive, plan));
		return new Prepared(job, warnings);
	}

	/**
	 * Stores a prepared job (QUEUED): false when a job with its id exists already.
	 */
	boolean create(Job job) {
		boolean created = this.store.create(job);
		if (created) {
			log.info("job {} QUEUED for drive {} by {}", job.jobId(), job.deviceSerial(), job.submitter());
		}
		return created;
	}

	Job get(String jobId) {
		return this.store.find(jobId).orElseThrow(() -> new NotFoundException("no qualification " + jobId));
	}

	JobStore.Page list(JobStore.JobQuery query) {
		return this.store.search(query);
	}

	List<Job> history(String serial) {
		return this.store.search(new JobStore.JobQuery(null, null, serial, null, null, null, 0, 100)).jobs();
	}

	/**
	 * @return the job after the request: CANCELLED at once if it was queued, or still
	 * active with cancelRequested when its runner has to stop it
	 */
	Job cancel(String jobId, String caller, boolean isAdmin) {
		Job job = get(jobId);
		if (!isAdmin && !caller.equals(job.submitter())) {
			throw new ForbiddenException("only " + job.submitter() + " or an admin may cancel " + jobId);
		}
		Instant now = this.clock.instant();
		Optional<Job> changed = this.store.update(jobId, (current) -> {
			if (current.state().isFinal()) {
				return Optional.empty();
			}
			return Optional.of(current.edit((draft) -> {
				if (current.state() == JobState.QUEUED) {
					draft.state = JobState.CANCELLED;
					draft.endedAt = now;
					draft.message = "cancelled by " + caller + " while queued";
				}
				draft.cancelRequestedAt = now;
				draft.cancelRequestedBy = caller;
				draft.updatedAt = now;
			}));
		});
		Job result = changed.orElseThrow(() -> new ConflictException(
				"qualification " + jobId + " is " + get(jobId).state() + "; only active jobs can be cancelled"));
		if (result.state() == JobState.CANCELLED) {
			this.leases.release(result.deviceSerial(), result.jobId());
		}
		else {
			this.commands.cancel(result, "cancelled by " + caller);
		}
		return result;
	}

	private List<PhaseSpec> resolvePlan(SubmitRequest.TestPlan plan, Drive drive) {
		boolean hasProfile = plan.profile() != null;
		boolean hasPhases = plan.phases() != null && !plan.phases().isEmpty();
		boolean hasFio = plan.fio() != null;
		if ((hasProfile ? 1 : 0) + (hasPhases ? 1 : 0) + (hasFio ? 1 : 0) != 1) {
			throw new BadRequestException("plan",
					"give exactly one of a catalog profile, explicit phases or a fio job file (fio)");
		}
		List<PhaseSpec> phases;
		if (hasProfile) {
			Profile profile = this.catalog.find(plan.profile())
				.orElseThrow(() -> new BadRequestException("plan.profile", "no profile named " + plan.profile()));
			Map<String, PhaseSpec> overrides = (plan.phaseOverrides() != null) ? plan.phaseOverrides() : Map.of();
			for (String name : overrides.keySet()) {
				if (profile.phases().stream().noneMatch((phase) -> phase.name().equals(name))) {
					throw new BadRequestException("plan.phaseOverrides." + name,
							"profile " + profile.name() + " has no phase " + name);
				}
			}
			phases = profile.phases()
				.stream()
				.map((phase) -> overrides.containsKey(phase.name()) ? phase.overriddenBy(overrides.get(phase.name()))
						: phase)
				.toList();
		}
		else {
			if (plan.phaseOverrides() != null) {
				throw new BadRequestException("plan.phaseOverrides", "overrides apply to a profile's phases only");
			}
			phases = hasFio ? FioJobFiles.phases(plan.fio().name(), plan.fio().jobFile(), "plan.fio") : plan.phases();
		}
		phases = SweepPlan.expanded(phases, plan.sweep());
		if (plan.purgeFallback() != null && phases.stream().noneMatch((phase) -> "purge".equals(phase.kind()))) {
			throw new BadRequestException("plan.purgeFallback", "the plan has no purge phase to fall back from");
		}
		List<PhaseSpec> resolved = new ArrayList<>();
		for (int i = 0; i < phases.size(); i++) {
			PhaseSpec.LimitProblem limits = phases.get(i).limitProblem();
			if (limits != null) {
				throw new BadRequestException("plan.phases[" + i + "]." + limits.field(), limits.reason());
			}
			PhaseSpec phase = phases.get(i).withIndex(i).resolvedFor(drive.capacityBytes());
			if (plan.purgeFallback() != null && "purge".equals(phase.kind())) {
				phase = phase.withPurgeFallback(plan.purgeFallback());
			}
			if (plan.rangePercent() != null && phase.rangePercent() != null) {
				phase = phase.withRangePercent(plan.rangePercent());
			}
			if (phase.blockSizeBytes() != null && phase.blockSizeBytes() % drive.lbaSizeBytes() != 0) {
				throw new BadRequestException("plan.phases[" + i + "].blockSizeBytes", "must be a multiple of the "
						+ "drive's LBA size " + drive.lbaSizeBytes() + " (got " + phase.blockSizeBytes() + ")");
			}
			resolved.add(phase);
		}
		return resolved;
	}

	/**
	 * The criteria to judge: the named set's first, then the request's own.
	 */
	static List<Criterion> criteria(Catalog catalog, SubmitRequest request, String profileName) {
		List<Criterion> criteria = new ArrayList<>();
		if (request.criteriaSet() != null) {
			CriteriaSet set = catalog.criteriaSet(request.criteriaSet())
				.orElseThrow(() -> new BadRequestException("criteriaSet",
						"no criteria set named " + request.criteriaSet() + "; known: "
								+ String.join(", ", catalog.criteriaSets().stream().map(CriteriaSet::name).toList())));
			if (!set.appliesTo(profileName)) {
				throw new BadRequestException("criteriaSet",
						"criteria set " + set.name() + " judges phases of " + String.join(", ", set.profiles())
								+ "; the plan "
								+ ((profileName != null) ? "uses " + profileName : "has explicit phases"));
			}
			// the job keeps each line as the buyer's criteria are kept; the set's
			// source stays with the set
			set.criteria()
				.forEach((line) -> criteria
					.add(new Criterion(line.metric(), line.comparison(), line.limit(), line.phaseName())));
		}
		if (request.criteria() != null) {
			criteria.addAll(request.criteria());
		}
		return criteria;
	}

	/** W of the job: its own analysis settings', else its profile's, else 1.0. */
	private double jobRangeWritesRequired(AnalysisSettings settings, String profileName) {
		if (settings != null && settings.rangeWritesRequired() != null) {
			return settings.rangeWritesRequired();
		}
		return Optional.ofNullable(profileName)
			.flatMap(this.catalog::find)
			.map((profile) -> (profile.analysis() != null) ? profile.analysis().rangeWritesRequired() : null)
			.orElse(Eligibility.DEFAULT_RANGE_WRITES_REQUIRED);
	}

	/**
	 * plan.analysis, checked beyond what bean validation says (JSON's 1e999 is infinite).
	 */
	static AnalysisSettings analysisSettings(SubmitRequest.TestPlan plan) {
		AnalysisSettings settings = plan.analysis();
		if (settings == null || settings.rangeWritesRequired() == null) {
			return settings;
		}
		if (!Double.isFinite(settings.rangeWritesRequired()) || settings.rangeWritesRequired() < 0) {
			throw new BadRequestException("plan.analysis.rangeWritesRequired",
					"must be a finite number >= 0 (a multiple of the tested range), got "
							+ settings.rangeWritesRequired());
		}
		return settings;
	}

	/**
	 * The contract is the final word on a plan: the start command must be one a runner
	 * accepts.
	 */
	private void checkAgainstContract(Job job) {
		ObjectNode command = this.commands.startCommand(job);
		Validation validation = this.commands.check(command);
		if (!validation.valid()) {
			throw new BadRequestException(fieldOf(validation.errors()), validation.summary());
		}
	}

	/**
	 * The field of the first error inside the plan (a start command's oneOf adds errors
	 * about the other branch, which name no field a caller can fix), else "plan".
	 */
	static String fieldOf(List<String> contractErrors) {
		return contractErrors.stream()
			.filter((error) -> error.startsWith("/phases") || error.startsWith("/latencyMonitor"))
			.findFirst()
			.map(QualificationService::fieldOf)
			.orElse("plan");
	}

	/** "/phases/2/queueDepth: ..." names the field plan.phases[2].queueDepth. */
	static String fieldOf(String contractError) {
		String pointer = contractError.substring(0, Math.max(0, contractError.indexOf(':')));
		if (!pointer.startsWith("/phases") && !pointer.startsWith("/latencyMonitor")) {
			return "plan";
		}
		StringBuilder field = new StringBuilder("plan");
		String[] parts = pointer.split("/");
		for (String part : parts) {
			if (part.isEmpty()) {
				continue;
			}
			field.append(part.chars().allMatch(Character::isDigit) ? "[" + part + "]" : "." + part);
		}
		return field.toString();
	}

	/**
	 * Refusals the runner will give, said at submission rather than found at dispatch.
	 */
	static List<String> warnings(Drive drive, List<PhaseSpec> plan) {
		List<String> warnings = new ArrayList<>();
		boolean destructive = plan.stream().anyMatch(PhaseSpec::destroysData);
		if (destructive && !drive.allowlisted()) {
			warnings.add("runner " + drive.runnerId() + " does not allowlist drive " + drive.serial()
					+ ": it will refuse the destructive phases");
		}
		if (destructive && drive.interlock() != null) {
			warnings.add("runner " + drive.runnerId() + " reports interlock '" + drive.interlock() + "' on drive "
					+ drive.serial() + ": it will refuse the destructive phases");
		}
		return warnings;
	}

	private static String idFor(String submitter, String idempotencyKey) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256")
				.digest((submitter + "\n" + idempotencyKey).getBytes(StandardCharsets.UTF_8));
			return "q-" + HexFormat.of().formatHex(digest).substring(0, 24);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}

/*
 * /api/v1/qualifications: submit, list, look up and cancel qualification jobs.
 */
package io.drivequal.service.qualification;

import java.net.URI;
import java.time.Instant;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import io.drivequal.service.audit.AuditNotes;
import io.drivequal.service.audit.Audited;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.drivequal.service.platform.BadRequestException;

import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/qualifications")
@Validated
class QualificationController {

	/** Only some operations can conflict with a job's state: they say so themselves. */
	static final String CONFLICT = "#/components/responses/Conflict";

	private final QualificationService qualifications;

	private final DriveQueues queues;

	private final Views views;

	QualificationController(QualificationService qualifications, DriveQueues queues, Views views) {
		this.qualifications = qualifications;
		this.queues = queues;
		this.views = views;
	}

	/**
	 * @param priority normal or high; urgent needs the admin role
	 */
	record PriorityChange(@NotNull @Pattern(regexp = "^(normal|high|urgent)$",
			message = "must be normal, high or urgent") String priority) {
	}

	/**
	 * @param position 1 = next on the drive; past the end: last
	 */
	record QueueMove(@NotNull @Min(1) @Max(DriveQueues.MAX_QUEUE) Integer position) {
	}

	/** Elasticsearch's default index.max_result_window. */
	static final int MAX_RESULT_WINDOW = 10000;

	record PageView(long total, int page, int size, List<QualificationView> items) {
	}

	/**
	 * 201 with Location for a new job; 200 with the original job for a repeated
	 * Idempotency-Key.
	 */
	@PostMapping
	@Audited("qualification.submit")
	@ApiResponse(responseCode = "201", description = "the new job")
	@ApiResponse(responseCode = "200", description = "the job an earlier request with this Idempotency-Key created")
	@ApiResponse(responseCode = "422", ref = "#/components/responses/Unprocessable")
	ResponseEntity<QualificationView> submit(@Valid @RequestBody SubmitRequest request,
			@RequestHeader(name = "Idempotency-Key", required = false) @Parameter(
					description = "repeating a submission with the same key answers the job the first one created",
					schema = @Schema(minLength = 1, maxLength = 128)) String idempotencyKey,
			Authentication caller) {
		QualificationService.Submitted submitted = this.qualifications.submit(request, caller, idempotencyKey);
		URI location = URI.create("/api/v1/qualifications/" + submitted.job().jobId());
		return ResponseEntity.status(submitted.created() ? HttpStatus.CREATED : HttpStatus.OK)
			.location(location)
			.body(this.views.full(submitted.job(), submitted.warnings()));
	}

	@GetMapping
	PageView list(@RequestParam(required = false) JobState state, @RequestParam(required = false) String driveModel,
			@RequestParam(required = false) String serial, @RequestParam(required = false) String submitter,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
			@RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to,
			@RequestParam(defaultValue = "0") @Min(0) @Max(10000) int page,
			@RequestParam(defaultValue = "20") @Min(1) @Max(100) int size) {
		// Elasticsearch pages through the first 10000 hits only
		// (index.max_result_window);
		// past them it failed the search, which was a 500 (found by the fault suite's
		// fuzzer).
		if ((long) (page + 1) * size > MAX_RESULT_WINDOW) {
			throw new BadRequestException("page", "page * size must stay within the first " + MAX_RESULT_WINDOW
					+ " results; narrow the filters (state, serial, from, to) instead");
		}
		JobStore.Page result = this.qualifications
			.list(new JobStore.JobQuery(state, driveModel, serial, submitter, from, to, page, size));
		return new PageView(result.total(), page, size, this.views.page(result.jobs()));
	}

	@GetMapping("/{id}")
	QualificationView get(@PathVariable String id) {
		return this.views.full(this.qualifications.get(id), null);
	}

	/** A queued job's priority: the submitter (up to high) or an admin (any). */
	@PostMapping("/{id}/priority")
	@Audited("qualification.reprioritise")
	@ApiResponse(responseCode = "200", description = "the job with its new priority")
	@ApiResponse(responseCode = "409", ref = CONFLICT)
	QualificationView reprioritise(@PathVariable String id, @Valid @RequestBody PriorityChange change,
			Authentication caller) {
		AuditNotes.put("priority", change.priority());
		Job job = this.queues.reprioritise(id, JobPriority.ofWireName(change.priority()).orElseThrow(), caller);
		return this.views.full(job, null);
	}

	/** Admins only (the role rules): moves a queued job within its drive's queue. */
	@PostMapping("/{id}/queue-position")
	@Audited("qualification.reorder")
	@ApiResponse(responseCode = "200", description = "the job at its new place")
	@ApiResponse(responseCode = "409", ref = CONFLICT)
	QualificationView move(@PathVariable String id, @Valid @RequestBody QueueMove move) {
		AuditNotes.put("position", move.position());
		return this.views.full(this.queues.move(id, move.position()), null);
	}

	/**
	 * 200 when a queued job is cancelled at once; 202 when its runner has been told to
	 * stop it.
	 */
	@PostMapping("/{id}/cancel")
	@Audited("qualification.cancel")
	@ApiResponse(responseCode = "200", description = "it was queued: CANCELLED now")
	@ApiResponse(responseCode = "202", description = "it is running: its runner was told to stop it")
	@ApiResponse(responseCode = "409", ref = CONFLICT)
	ResponseEntity<QualificationView> cancel(@PathVariable String id, Authentication caller) {
		boolean isAdmin = caller.getAuthorities()
			.stream()
			.anyMatch((authority) -> authority.getAuthority().equals("ROLE_ADMIN"));
		Job job = this.qualifications.cancel(id, caller.getName(), isAdmin);
		HttpStatus status = (job.state() == JobState.CANCELLED) ? HttpStatus.OK : HttpStatus.ACCEPTED;
		return ResponseEntity.status(status).body(this.views.full(job, null));
	}

}

/*
 * A job's per-second samples: raw pages, chart buckets, and a Server-Sent-Events stream of new
 * samples while the job runs. The stream polls Elasticsearch, so any replica can serve any job.
 */
package io.drivequal.service.report;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.drivequal.service.ingest.ChartBucket;
import io.drivequal.service.ingest.SamplePoint;
import io.drivequal.service.ingest.SampleQueries;
import io.drivequal.service.qualification.JobReports;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.annotation.PreDestroy;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.MediaType;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

@RestController
@RequestMapping("/api/v1/qualifications/{id}/samples")
@Validated
class SampleController {

	private static final Logger log = LoggerFactory.getLogger(SampleController.class);

	private static final long STREAM_TIMEOUT_MS = 6 * 3600 * 1000L;

	private static final int STREAM_BATCH = 1000;

	private final JobReports jobs;

	private final SampleQueries samples;

	private final ScheduledExecutorService pollers = Executors.newScheduledThreadPool(2);

	SampleController(JobReports jobs, SampleQueries samples) {
		this.jobs = jobs;
		this.samples = samples;
	}

	record RawPage(List<SamplePoint> items, Integer nextAfterPhase, Integer nextAfterT) {
	}

	/**
	 * One event of the sample stream, as the document describes each (the contract fuzzer
	 * checks every event against it).
	 *
	 * @param event state, sample or end
	 * @param data the job's state, or a sample as JSON
	 */
	record SampleEvent(String event, String data) {
	}

	/**
	 * Raw samples in (phase, t) order, a page at a time: pass the returned nextAfterPhase
	 * and nextAfterT to get the next page.
	 */
	@GetMapping
	RawPage raw(@PathVariable String id, @RequestParam(required = false) @Min(0) @Max(255) Integer phase,
			@RequestParam(defaultValue = "-1") @Min(-1) @Max(255) int afterPhase,
			@RequestParam(defaultValue = "0") @Min(0) int afterT,
			@RequestParam(defaultValue = "1000") @Min(1) @Max(10000) int limit) {
		this.jobs.get(id);
		List<SamplePoint> page = this.samples.after(id, phase, afterPhase, afterT, limit);
		SamplePoint last = page.isEmpty() ? null : page.get(page.size() - 1);
		boolean more = page.size() == limit;
		return new RawPage(page, (more) ? last.phaseIndex() : null, (more) ? last.t() : null);
	}

	/** One phase downsampled for charts: min/mean/max IOPS per bucket. */
	@GetMapping("/chart")
	List<ChartBucket> chart(@PathVariable String id, @RequestParam @Min(0) @Max(255) int phase,
			@RequestParam(defaultValue = "2000") @Min(10) @Max(20000) int maxPoints) {
		this.jobs.get(id);
		return this.samples.chart(id, phase, maxPoints);
	}

	/**
	 * The job's state as a "state" event, then new samples as they are indexed, as
	 * "sample" events; ends with "end" when the job ends.
	 */
	@GetMapping(path = "/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	@ApiResponse(responseCode = "200",
			description = "Server-Sent Events: \"state\" (the job's state) at once, \"sample\" events (a sample as JSON each), "
					+ "then \"end\" (the job's final state)",
			content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE,
					schema = @Schema(implementation = SampleEvent.class)))
	SseEmitter stream(@PathVariable String id) throws IOException {
		JobReports.JobReport job = this.jobs.get(id);
		SseEmitter emitter = new SseEmitter(STREAM_TIMEOUT_MS);
		// The job's state at once: it sends the response's headers, so a client knows the
		// stream is open before the first sample, which a queued job may not have for
		// hours (a client that waited for the headers timed out: found by the contract
		// fuzzer, ContractFuzzIT).
		emitter.send(SseEmitter.event().name("state").data(job.state().name()));
		AtomicReference<SamplePoint> last = new AtomicReference<>();
		AtomicReference<ScheduledFuture<?>> task = new AtomicReference<>();
		task.set(this.pollers.scheduleWithFixedDelay(() -> {
			try {
				SamplePoint seen = last.get();
				List<SamplePoint> fresh = this.samples.after(id, null, (seen != null) ? seen.phaseIndex() : -1,
						(seen != null) ? seen.t() : 0, STREAM_BATCH);
				for (SamplePoint point : fresh) {
					emitter.send(SseEmitter.event().name("sample").data(point, MediaType.APPLICATION_JSON));
					last.set(point);
				}
				if (fresh.isEmpty() && this.jobs.get(id).state().isFinal()) {
					emitter.send(SseEmitter.event().name("end").data(this.jobs.get(id).state().name()));
					emitter.complete();
					stop(task);
				}
			}
			catch (IOException | IllegalStateException ex) {
				// The client went away or the emitter completed.
				stop(task);
			}
			catch (RuntimeException ex) {
				log.warn("sample stream of {} failed: {}", id, ex.toString());
				emitter.completeWithError(ex);
				stop(task);
			}
		}, 0, 1, TimeUnit.SECONDS));
		emitter.onCompletion(() -> stop(task));
		emitter.onTimeout(() -> stop(task));
		return emitter;
	}

	/**
	 * The first poll may run before its own future is stored; it then stops on the next
	 * one.
	 */
	private static void stop(AtomicReference<ScheduledFuture<?>> task) {
		ScheduledFuture<?> future = task.get();
		if (future != null) {
			future.cancel(false);
		}
	}

	@PreDestroy
	void stopPolling() {
		this.pollers.shutdownNow();
	}

}

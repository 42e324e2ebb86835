/*
 * The liveness rule on a fake clock: after Elasticsearch was unreadable, a runner is judged only
 * once the heartbeats that waited in Kafka could have been indexed (the consumer's longest retry
 * interval plus one heartbeat timeout), and while heartbeats wait unread nobody is judged: never
 * on the stale heartbeat the index still shows. With a resume grace, a RUNNING job waits for its
 * silent runner (runnerLostAt) until the grace is over, and one back in time goes to the resumer.
 */
package io.drivequal.service.qualification;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import io.drivequal.service.platform.BrokerHealth;
import io.drivequal.service.runners.Runner;
import io.drivequal.service.runners.RunnerRegistry;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

class LivenessSweeperTest {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-11-23T00:00:00Z"));

	private final JobStore store = mock(JobStore.class);

	private final RunnerRegistry registry = mock(RunnerRegistry.class);

	private final BrokerHealth broker = mock(BrokerHealth.class);

	@Test
	void afterAnElasticsearchOutageARunnerIsJudgedOnlyOnceItsHeartbeatsCouldBeIndexed() {
		LivenessSweeper sweeper = sweeper();
		Job running = running("q-1", "r1");
		silentFor(Duration.ofSeconds(60), "r1", "q-1");
		given(this.registry.heartbeatsConsumed()).willReturn(true);

		sweeper.run();
		this.clock.advance(Duration.ofSeconds(25));
		given(this.store.inStates(any(), anyInt()))
			.willThrow(new UncheckedIOException(new IOException("Elasticsearch: connection refused")));
		sweeper.run();

		// Stubbed this way round: the stub of the outage would throw inside given(...).
		willReturn(List.of(running)).given(this.store).inStates(any(), anyInt());
		this.clock.advance(Duration.ofSeconds(2));
		sweeper.run();
		this.clock.advance(Duration.ofSeconds(45));
		sweeper.run();
		verify(this.store, never()).update(any(), any());

		this.clock.advance(Duration.ofSeconds(10));
		sweeper.run();
		verify(this.store).update(eq("q-1"), any());
	}

	@Test
	void withoutAnOutageASilentRunnerIsJudgedOneTimeoutAfterTheStart() {
		LivenessSweeper sweeper = sweeper();
		Job running = running("q-2", "r2");
		given(this.store.inStates(any(), anyInt())).willReturn(List.of(running));
		given(this.registry.runners(Set.of("r2"))).willReturn(Map.of());
		given(this.registry.heartbeatsConsumed()).willReturn(true);
		sweeper.run();
		this.clock.advance(Duration.ofSeconds(21));
		sweeper.run();
		verify(this.store).update(eq("q-2"), any());
	}

	/**
	 * A replica died holding heartbeat partitions: until its session times out and the
	 * survivors read what waited there, the index shows a stale heartbeat for a live
	 * runner (the fleet run's replica kill interrupted 400 running jobs that way).
	 */
	@Test
	void whileHeartbeatsWaitUnreadNobodyIsJudged() {
		LivenessSweeper sweeper = sweeper();
		Job running = running("q-3", "r3");
		given(this.store.inStates(any(), anyInt())).willReturn(List.of(running));
		silentFor(Duration.ofSeconds(43), "r3", "q-3");
		given(this.registry.heartbeatsConsumed()).willReturn(false);
		sweeper.run();
		for (int i = 0; i < 30; i++) {
			this.clock.advance(Duration.ofSeconds(2));
			sweeper.run();
		}
		verify(this.store, never()).update(any(), any());

		// Caught up, and the runner's heartbeat is still old: now it is judged.
		given(this.registry.heartbeatsConsumed()).willReturn(true);
		this.clock.advance(Duration.ofSeconds(2));
		sweeper.run();
		verify(this.store).update(eq("q-3"), any());
	}

	@Test
	@SuppressWarnings("unchecked")
	void aRunningJobWaitsTheResumeGraceForItsRunnerThenIsInterrupted() {
		given(this.registry.timeouts())
			.willReturn(new RunnerRegistry.Timeouts(Duration.ofSeconds(20), Duration.ofMinutes(5)));
		given(this.broker.reachable()).willReturn(true);
		given(this.registry.heartbeatsConsumed()).willReturn(true);
		JobResumer resumer = mock(JobResumer.class);
		LivenessSweeper sweeper = new LivenessSweeper(this.store, mock(DriveLeases.class), this.registry, this.clock,
				this.broker, resumer, Duration.ofSeconds(30));
		Job job = running("q-7", "r7").edit((draft) -> draft.plan = List.of());
		given(this.store.inStates(any(), anyInt())).willReturn(List.of(job));
		sweeper.run();
		this.clock.advance(Duration.ofSeconds(25));

		silentFor(Duration.ofSeconds(25), "r7", "q-7");
		sweeper.run();
		ArgumentCaptor<Function<Job, Optional<Job>>> change = ArgumentCaptor.forClass(Function.class);
		verify(this.store).update(eq("q-7"), change.capture());
		Job waiting = change.getValue().apply(job).orElseThrow();
		assertThat(waiting.state()).isEqualTo(JobState.RUNNING);
		assertThat(waiting.runnerLostAt()).isEqualTo(this.clock.instant().minus(Duration.ofSeconds(25)));

		// Back within the grace: the resumer decides.
		Runner back = new Runner("r7", "host", "1.0", List.of("sim"), 1000, 1, List.of(), this.clock.instant());
		given(this.registry.runners(Set.of("r7"))).willReturn(Map.of("r7", back));
		given(this.registry.isAlive(back)).willReturn(true);
		given(this.store.inStates(any(), anyInt())).willReturn(List.of(waiting));
		sweeper.run();
		verify(resumer).runnerBack(waiting, back);

		// Not back within it: INTERRUPTED as without a grace.
		silentFor(Duration.ofMinutes(6), "r7", "q-7");
		this.clock.advance(Duration.ofSeconds(2));
		sweeper.run();
		verify(this.store, org.mockito.Mockito.times(2)).update(eq("q-7"), change.capture());
		assertThat(change.getValue().apply(waiting).orElseThrow().state()).isEqualTo(JobState.INTERRUPTED);
	}

	@Test
	@SuppressWarnings("unchecked")
	void aRunnerBackFasterThanTheTimeoutWithoutItsJobIsCaughtAndResumedOneTimeoutLater() {
		given(this.registry.timeouts())
			.willReturn(new RunnerRegistry.Timeouts(Duration.ofSeconds(20), Duration.ofMinutes(5)));
		given(this.broker.reachable()).willReturn(true);
		given(this.registry.heartbeatsConsumed()).willReturn(true);
		JobResumer resumer = mock(JobResumer.class);
		LivenessSweeper sweeper = new LivenessSweeper(this.store, mock(DriveLeases.class), this.registry, this.clock,
				this.broker, resumer, Duration.ofSeconds(30));
		sweeper.run();
		this.clock.advance(Duration.ofSeconds(25));
		Job job = running("q-8", "r8").edit((draft) -> {
			draft.plan = List.of();
			draft.dispatchedAt = this.clock.instant().minus(Duration.ofMinutes(10));
		});
		given(this.store.inStates(any(), anyInt())).willReturn(List.of(job));
		// Alive (restarted a few seconds ago), listing no job.
		Runner restarted = new Runner("r8", "host", "1.0", List.of("sim"), 1000, 1, List.of(), this.clock.instant());
		given(this.registry.runners(Set.of("r8"))).willReturn(Map.of("r8", restarted));
		given(this.registry.isAlive(restarted)).willReturn(true);
		sweeper.run();
		ArgumentCaptor<Function<Job, Optional<Job>>> change = ArgumentCaptor.forClass(Function.class);
		verify(this.store).update(eq("q-8"), change.capture());
		Job lost = change.getValue().apply(job).orElseThrow();
		assertThat(lost.runnerLostAt()).isEqualTo(this.clock.instant());

		given(this.store.inStates(any(), anyInt())).willReturn(List.of(lost));
		this.clock.advance(Duration.ofSeconds(10));
		sweeper.run();
		verify(resumer, never()).runnerBack(any(), any());
		this.clock.advance(Duration.ofSeconds(12));
		sweeper.run();
		verify(resumer).runnerBack(lost, restarted);
	}

	private LivenessSweeper sweeper() {
		given(this.registry.timeouts()).willReturn(new RunnerRegistry.Timeouts(Duration.ofSeconds(20), Duration.ZERO));
		given(this.broker.reachable()).willReturn(true);
		return new LivenessSweeper(this.store, mock(DriveLeases.class), this.registry, this.clock, this.broker,
				mock(JobResumer.class), Duration.ofSeconds(30));
	}

	/** The registry shows the runner's last heartbeat {@code silence} ago: not alive. */
	private void silentFor(Duration silence, String runnerId, String jobId) {
		Runner stale = new Runner(runnerId, "host", "1.0", List.of("sim"), 1000, 1, List.of(jobId),
				this.clock.instant().minus(silence));
		given(this.registry.runners(Set.of(runnerId))).willReturn(Map.of(runnerId, stale));
		given(this.registry.isAlive(stale)).willReturn(false);
	}

	private static Job running(String jobId, String runnerId) {
		return new Job.Draft().build().edit((draft) -> {
			draft.jobId = jobId;
			draft.state = JobState.RUNNING;
			draft.runnerId = runnerId;
		});
	}

	static final class MutableClock extends Clock {

		private Instant now;

		MutableClock(Instant now) {
			this.now = now;
		}

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}

/*
 * Reads the fleet from Elasticsearch, so every service replica sees the same runners and drives,
 * and decides liveness from the last heartbeat's time.
 */
package io.drivequal.service.runners;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.drivequal.schemas.Contracts;
import io.drivequal.schemas.MessageType;
import io.drivequal.service.platform.BrokerHealth;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
public class RunnerRegistry {

	static final String RUNNERS_INDEX = "drivequal-runners";

	static final String DRIVES_INDEX = "drivequal-drives";

	/**
	 * More runners or drives than this in one listing is beyond this service's design.
	 */
	private static final int MAX_LISTED = 10_000;

	/** The consumer group that reads heartbeats into the fleet's indices. */
	static final String HEARTBEAT_GROUP = "drivequal-service-heartbeats";

	private final ElasticsearchClient client;

	private final RunnerSettings settings;

	private final Clock clock;

	private final BrokerHealth broker;

	private final String heartbeatTopic;

	RunnerRegistry(ElasticsearchClient client, RunnerSettings settings, Clock clock, BrokerHealth broker,
			Contracts contracts) {
		this.client = client;
		this.settings = settings;
		this.clock = clock;
		this.broker = broker;
		this.heartbeatTopic = contracts.topicCarrying(MessageType.RUNNER_HEARTBEAT).name();
	}

	public Optional<Drive> drive(String serial) {
		return get(DRIVES_INDEX, serial, Drive.class);
	}

	public Optional<Runner> runner(String runnerId) {
		return get(RUNNERS_INDEX, runnerId, Runner.class);
	}

	/**
	 * The known drives among {@code serials}, by serial, in one round trip: for callers
	 * that look at many drives at once (the dispatcher's round).
	 */
	public Map<String, Drive> drives(Collection<String> serials) {
		return Documents.getAll(this.client, DRIVES_INDEX, serials, Drive.class);
	}

	/** The known runners among {@code runnerIds}, by id, in one round trip. */
	public Map<String, Runner> runners(Collection<String> runnerIds) {
		return Documents.getAll(this.client, RUNNERS_INDEX, runnerIds, Runner.class);
	}

	/** Alive = a heartbeat within the timeout; a runner never heard from is not alive. */
	public boolean isAlive(String runnerId) {
		return runner(runnerId).map((runner) -> isAlive(runner)).orElse(false);
	}

	public boolean isAlive(Runner runner) {
		Instant now = this.clock.instant();
		return !runner.lastHeartbeatAt().isBefore(now.minus(this.settings.heartbeatTimeout()));
	}

	/**
	 * True when every heartbeat that was on its way at the last ask (a few seconds ago)
	 * has been read into the index: only then does a heartbeat's age say the runner is
	 * silent. False while a dead replica still holds heartbeat partitions nobody reads
	 * (until its Kafka session times out, 45 s by default, longer than the heartbeat
	 * timeout).
	 */
	public boolean heartbeatsConsumed() {
		return this.broker.consumedSinceLastAsked(HEARTBEAT_GROUP, this.heartbeatTopic);
	}

	/**
	 * The liveness rule's figures, for components that must wait them out; resumeGrace is
	 * how long a lost runner's RUNNING job waits for it to come back.
	 */
	public record Timeouts(Duration heartbeatTimeout, Duration resumeGrace) {
	}

	public Timeouts timeouts() {
		return new Timeouts(this.settings.heartbeatTimeout(), this.settings.resumeGrace());
	}

	public List<Runner> runners() {
		return list(RUNNERS_INDEX, "runnerId", Runner.class);
	}

	public List<Drive> drives() {
		return list(DRIVES_INDEX, "serial", Drive.class);
	}

	private <T> Optional<T> get(String index, String id, Class<T> type) {
		return Documents.get(this.client, index, id, type).map(GetResponse::source);
	}

	private <T> List<T> list(String index, String sortField, Class<T> type) {
		try {
			return this.client
				.search((search) -> search.index(index)
					.size(MAX_LISTED)
					.ignoreUnavailable(true)
					.allowNoIndices(true)
					.sort((sort) -> sort.field((field) -> field.field(sortField).order(SortOrder.Asc))), type)
				.hits()
				.hits()
				.stream()
				.map(Hit::source)
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

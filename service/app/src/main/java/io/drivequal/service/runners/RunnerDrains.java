/*
 * Which runners an admin has drained: one document per runner in drivequal-runner-drains (id =
 * runnerId), apart from the heartbeat-fed drivequal-runners, so a drain survives restarts of the
 * service and of the runner until it is lifted. The dispatcher reads it to send drained runners
 * nothing new; the runners API reads it, with the jobs the runner still holds, to say draining or
 * drained.
 */
package io.drivequal.service.runners;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.Refresh;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
public class RunnerDrains {

	static final String INDEX = "drivequal-runner-drains";

	/** More drained runners than this at once is beyond this service's design. */
	private static final int MAX_LISTED = 10_000;

	private final ElasticsearchClient client;

	private final Clock clock;

	RunnerDrains(ElasticsearchClient client, Clock clock) {
		this.client = client;
		this.clock = clock;
	}

	/** A drain in force: since when and by whom. */
	public record Drain(String runnerId, Instant requestedAt, String requestedBy) {
	}

	/**
	 * Drains the runner; a repeated drain keeps the first one's time and author.
	 * Refreshes the index, so the dispatcher's next round (on any replica) sees it.
	 */
	Drain drain(String runnerId, String requestedBy) {
		Optional<Drain> existing = of(runnerId);
		if (existing.isPresent()) {
			return existing.get();
		}
		Drain drain = new Drain(runnerId, this.clock.instant(), requestedBy);
		try {
			this.client.index((index) -> index.index(INDEX).id(runnerId).document(drain).refresh(Refresh.True));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return drain;
	}

	/** Lifts the drain, if any: the runner gets jobs again. */
	void undrain(String runnerId) {
		try {
			this.client.delete((delete) -> delete.index(INDEX).id(runnerId).refresh(Refresh.True));
		}
		catch (ElasticsearchException ex) {
			if (ex.status() != 404) {
				throw ex;
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public Optional<Drain> of(String runnerId) {
		return Documents.get(this.client, INDEX, runnerId, Drain.class).map(GetResponse::source);
	}

	/** Every drain in force, by runner id: one search, for the dispatcher's round. */
	public Map<String, Drain> all() {
		try {
			return this.client
				.search((search) -> search.index(INDEX).size(MAX_LISTED).ignoreUnavailable(true).allowNoIndices(true),
						Drain.class)
				.hits()
				.hits()
				.stream()
				.map(Hit::source)
				.collect(Collectors.toMap(Drain::runnerId, Function.identity(), (a, b) -> a));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}

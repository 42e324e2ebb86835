/*
 * One job per drive, across every service replica: a lease is a document whose id is the drive's
 * serial, created with op_type=create, so Elasticsearch lets exactly one job hold it.
 */
package io.drivequal.service.qualification;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.core.GetResponse;
import io.drivequal.service.platform.Documents;

import org.springframework.stereotype.Component;

@Component
class DriveLeases {

	static final String INDEX = "drivequal-drive-leases";

	private final ElasticsearchClient client;

	private final Clock clock;

	DriveLeases(ElasticsearchClient client, Clock clock) {
		this.client = client;
		this.clock = clock;
	}

	record Lease(String serial, String jobId, Instant acquiredAt) {
	}

	/**
	 * Gives the drive to the job; true also when the job already holds it (a retried
	 * dispatch).
	 */
	boolean acquire(String serial, String jobId) {
		try {
			this.client.create((
					create) -> create.index(INDEX).id(serial).document(new Lease(serial, jobId, this.clock.instant())));
			return true;
		}
		catch (ElasticsearchException | IOException ex) {
			if (Documents.isConflict(ex)) {
				return holder(serial).map((lease) -> lease.jobId().equals(jobId)).orElse(false);
			}
			throw unchecked(ex);
		}
	}

	/** Frees the drive if — and only if — this job holds it. */
	void release(String serial, String jobId) {
		Optional<GetResponse<Lease>> current = Documents.get(this.client, INDEX, serial, Lease.class);
		if (current.isEmpty() || !jobId.equals(current.get().source().jobId())) {
			return;
		}
		try {
			this.client.delete((delete) -> delete.index(INDEX)
				.id(serial)
				.ifSeqNo(current.get().seqNo())
				.ifPrimaryTerm(current.get().primaryTerm()));
		}
		catch (ElasticsearchException | IOException ex) {
			// Gone or changed meanwhile: someone else released or re-acquired it; not
			// ours.
			boolean gone = ex instanceof ElasticsearchException elasticsearch && elasticsearch.status() == 404;
			if (!gone && !Documents.isConflict(ex)) {
				throw unchecked(ex);
			}
		}
	}

	/**
	 * The leases of the drives among {@code serials} that are held, by serial: one round
	 * trip.
	 */
	Map<String, Lease> holders(Collection<String> serials) {
		return Documents.getAll(this.client, INDEX, serials, Lease.class);
	}

	Optional<Lease> holder(String serial) {
		return Documents.get(this.client, INDEX, serial, Lease.class).map(GetResponse::source);
	}

	private static RuntimeException unchecked(Exception ex) {
		return (ex instanceof RuntimeException runtime) ? runtime : new UncheckedIOException((IOException) ex);
	}

}

/*
 * Reading one document by id the way every store here needs it: absent (or its index absent) is
 * an empty result, not an error, and I/O failures are unchecked (the API maps them to 503). And
 * recognising a version conflict, which the 8.19 client reports in two shapes.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.core.GetResponse;
import org.elasticsearch.client.ResponseException;

public final class Documents {

	private Documents() {
	}

	/**
	 * The found document with its seqNo and primaryTerm (for compare-and-set), or empty.
	 */
	public static <T> Optional<GetResponse<T>> get(ElasticsearchClient client, String index, String id, Class<T> type) {
		try {
			GetResponse<T> response = client.get((get) -> get.index(index).id(id), type);
			return (response.found() && response.source() != null) ? Optional.of(response) : Optional.empty();
		}
		catch (ElasticsearchException ex) {
			if (ex.status() == 404) {
				return Optional.empty();
			}
			throw ex;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * True for a 409 version conflict: as an {@link ElasticsearchException}, or as the
	 * low-level {@link ResponseException} that the client lets through for
	 * {@code _create} and {@code if_seq_no} writes (seen on create of an existing id:
	 * without this, "the drive is taken" failed the whole dispatch round).
	 */
	public static boolean isConflict(Exception ex) {
		if (ex instanceof ElasticsearchException elasticsearch) {
			return elasticsearch.status() == 409;
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof ResponseException response) {
				return response.getResponse().getStatusLine().getStatusCode() == 409;
			}
		}
		return false;
	}

}

/*
 * Reading one document by id the way every store here needs it: absent (or its index absent) is
 * an empty result, not an error, and I/O failures are unchecked (the API maps them to 503).
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.core.GetResponse;

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

}

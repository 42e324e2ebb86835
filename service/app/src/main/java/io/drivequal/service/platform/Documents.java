/*
 * Reading documents by id the way every store here needs it: absent (or its index absent) is
 * an empty result, not an error, and I/O failures are unchecked (the API maps them to 503). And
 * recognising a version conflict, which the 8.19 client reports in two shapes.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.MgetResponse;
import co.elastic.clients.elasticsearch.core.mget.MultiGetResponseItem;
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
	 * The found documents among {@code ids}, by id, in one round trip (a multi-get); ids
	 * not found are absent from the map.
	 * @param sourceIncludes the fields to read, or none for the whole document
	 */
	public static <T> Map<String, T> getAll(ElasticsearchClient client, String index, Collection<String> ids,
			Class<T> type, String... sourceIncludes) {
		Map<String, T> found = new HashMap<>();
		if (ids.isEmpty()) {
			return found;
		}
		MgetResponse<T> response;
		try {
			response = client.mget((mget) -> {
				mget.index(index).ids(List.copyOf(ids));
				return (sourceIncludes.length > 0) ? mget.sourceIncludes(List.of(sourceIncludes)) : mget;
			}, type);
		}
		catch (ElasticsearchException ex) {
			if (ex.status() == 404) {
				return found;
			}
			throw ex;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Elasticsearch multi-get of " + ids.size() + " documents failed", ex);
		}
		for (MultiGetResponseItem<T> item : response.docs()) {
			if (item.isResult() && item.result().found() && item.result().source() != null) {
				found.put(item.result().id(), item.result().source());
			}
		}
		return found;
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

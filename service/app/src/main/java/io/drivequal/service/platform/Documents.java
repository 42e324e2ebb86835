/*
 * Reading documents by id the way every store here needs it: absent (or its index absent) is
 * an empty result, not an error, and I/O failures are unchecked (the API maps them to 503). And
 * recognising a version conflict, which the 8.19 client reports in two shapes; creating a
 * document only where none is, writing one only over the version read (compare-and-set),
 * searching an index that may not exist yet, and refreshing one so a reader sees every write
 * acknowledged so far.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.GetResponse;
import co.elastic.clients.elasticsearch.core.MgetResponse;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.SearchResponse;
import co.elastic.clients.elasticsearch.core.mget.MultiGetResponseItem;
import co.elastic.clients.elasticsearch.core.search.Hit;
import co.elastic.clients.util.ObjectBuilder;
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

	/**
	 * Creates the document under {@code id}; false when one exists already (a repeated
	 * submission or Idempotency-Key).
	 */
	public static boolean create(ElasticsearchClient client, String index, String id, Object document) {
		try {
			client.create((create) -> create.index(index).id(id).document(document));
			return true;
		}
		catch (ElasticsearchException | IOException ex) {
			if (isConflict(ex)) {
				return false;
			}
			throw unchecked(ex);
		}
	}

	/**
	 * Writes {@code document} over the version {@code read} came with; false when
	 * somebody wrote it in between (the caller re-reads and decides again).
	 */
	public static boolean writeIfUnchanged(ElasticsearchClient client, String index, String id, long seqNo,
			long primaryTerm, Object document) {
		try {
			client.index(
					(write) -> write.index(index).id(id).ifSeqNo(seqNo).ifPrimaryTerm(primaryTerm).document(document));
			return true;
		}
		catch (ElasticsearchException | IOException ex) {
			if (isConflict(ex)) {
				return false;
			}
			throw unchecked(ex);
		}
	}

	/** A search of {@code index}, which may not exist yet (then nothing is found). */
	public static <T> SearchResponse<T> search(ElasticsearchClient client, String index, Class<T> type,
			Function<SearchRequest.Builder, ObjectBuilder<SearchRequest>> request) {
		try {
			return client.search(
					(search) -> request.apply(search.index(index).ignoreUnavailable(true).allowNoIndices(true)), type);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Makes every write to {@code index} acknowledged so far searchable now, rather than
	 * at its next scheduled refresh; an index that does not exist yet is no error.
	 */
	public static void refresh(ElasticsearchClient client, String index) {
		try {
			client.indices().refresh((refresh) -> refresh.index(index).ignoreUnavailable(true).allowNoIndices(true));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The documents of a search's hits, in the hits' order. */
	public static <T> List<T> sources(SearchResponse<T> response) {
		List<T> result = new ArrayList<>();
		for (Hit<T> hit : response.hits().hits()) {
			result.add(hit.source());
		}
		return result;
	}

	/** An exact match on a keyword field. */
	public static Query term(String field, String value) {
		return Query.of((q) -> q.term((term) -> term.field(field).value(value)));
	}

	/** A client failure as thrown on: runtime ones as they are, I/O ones unchecked. */
	public static RuntimeException unchecked(Exception ex) {
		return (ex instanceof RuntimeException runtime) ? runtime : new UncheckedIOException((IOException) ex);
	}

}

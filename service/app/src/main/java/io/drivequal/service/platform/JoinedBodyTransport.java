/*
 * The official client's transport over the low-level RestClient, with each request body handed
 * to the HTTP client as one buffer. The client serializes a bulk request into one buffer per
 * NDJSON line (two per document), and its entity gives the HTTP client one buffer per
 * output-ready event: each line became a chunk of its own, a socket write and a selector turn on
 * the client's I/O thread. Joined first (one copy, in the calling thread), a body goes out in a
 * few large writes. Measured in the ingest benchmark (docs/benchmarks.md): the I/O threads' CPU
 * per indexed sample fell from about 10 us to under 1 us.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import co.elastic.clients.json.JsonpMapper;
import co.elastic.clients.transport.ElasticsearchTransportBase;
import co.elastic.clients.transport.TransportOptions;
import co.elastic.clients.transport.http.TransportHttpClient;
import co.elastic.clients.transport.rest_client.RestClientHttpClient;
import org.elasticsearch.client.RestClient;

public final class JoinedBodyTransport extends ElasticsearchTransportBase {

	public JoinedBodyTransport(RestClient restClient, JsonpMapper mapper) {
		super(new JoiningHttpClient(new RestClientHttpClient(restClient)), null, mapper);
	}

	/**
	 * The request with its body as one buffer: unchanged when it has none or one already;
	 * the parts are read through duplicates, so the request stays repeatable.
	 */
	static TransportHttpClient.Request joined(TransportHttpClient.Request request) {
		Iterable<ByteBuffer> body = request.body();
		if (body == null) {
			return request;
		}
		Iterator<ByteBuffer> parts = body.iterator();
		if (!parts.hasNext()) {
			return request;
		}
		parts.next();
		if (!parts.hasNext()) {
			return request;
		}
		long length = 0;
		for (ByteBuffer part : body) {
			length += part.remaining();
		}
		if (length > Integer.MAX_VALUE - 8) {
			throw new IllegalArgumentException("a request body of " + length + " bytes");
		}
		ByteBuffer whole = ByteBuffer.allocate((int) length);
		for (ByteBuffer part : body) {
			whole.put(part.duplicate());
		}
		whole.flip();
		return new TransportHttpClient.Request(request.method(), request.path(), request.queryParams(),
				request.headers(), List.of(whole));
	}

	private static final class JoiningHttpClient implements TransportHttpClient {

		private final TransportHttpClient delegate;

		JoiningHttpClient(TransportHttpClient delegate) {
			this.delegate = delegate;
		}

		@Override
		public TransportOptions createOptions(TransportOptions options) {
			return this.delegate.createOptions(options);
		}

		@Override
		public Response performRequest(String endpointId, Node node, Request request, TransportOptions options)
				throws IOException {
			return this.delegate.performRequest(endpointId, node, joined(request), options);
		}

		@Override
		public CompletableFuture<Response> performRequestAsync(String endpointId, Node node, Request request,
				TransportOptions options) {
			return this.delegate.performRequestAsync(endpointId, node, joined(request), options);
		}

		@Override
		public void close() throws IOException {
			this.delegate.close();
		}

	}

}

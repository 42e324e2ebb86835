/*
 * A request body of many buffers (a bulk request's NDJSON lines) goes to the HTTP client as one
 * buffer holding the same bytes in order; a body of none or one is passed as it is; the parts
 * are left unread, so the request can be sent again.
 */
package io.drivequal.service.platform;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import co.elastic.clients.transport.http.TransportHttpClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JoinedBodyTransportTest {

	@Test
	void manyPartsBecomeOneBufferWithTheSameBytesInOrder() {
		List<ByteBuffer> lines = new ArrayList<>();
		StringBuilder expected = new StringBuilder();
		for (int i = 0; i < 2000; i++) {
			String line = (i % 2 == 0) ? "{\"index\":{\"_id\":\"j/0/" + i + "\"}}\n" : "{\"t\":" + i + "}\n";
			lines.add(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
			expected.append(line);
		}
		TransportHttpClient.Request request = request(lines);

		TransportHttpClient.Request joined = JoinedBodyTransport.joined(request);

		List<ByteBuffer> body = new ArrayList<>();
		joined.body().forEach(body::add);
		assertThat(body).hasSize(1);
		assertThat(StandardCharsets.UTF_8.decode(body.get(0)).toString()).isEqualTo(expected.toString());
		assertThat(joined.method()).isEqualTo("POST");
		assertThat(joined.path()).isEqualTo("/_bulk");
		assertThat(joined.queryParams()).containsEntry("refresh", "false");
		assertThat(joined.headers()).containsEntry("Content-Type", "application/x-ndjson");
		assertThat(lines).allSatisfy((line) -> assertThat(line.position()).isZero());
	}

	@Test
	void aPartReadPastItsStartIsJoinedFromItsPosition() {
		ByteBuffer first = ByteBuffer.wrap("xx{\"a\":1}\n".getBytes(StandardCharsets.UTF_8));
		first.position(2);
		ByteBuffer second = ByteBuffer.wrap("{\"b\":2}\n".getBytes(StandardCharsets.UTF_8));

		TransportHttpClient.Request joined = JoinedBodyTransport.joined(request(List.of(first, second)));

		assertThat(StandardCharsets.UTF_8.decode(joined.body().iterator().next()).toString())
			.isEqualTo("{\"a\":1}\n{\"b\":2}\n");
		assertThat(first.position()).isEqualTo(2);
	}

	@Test
	void noBodyOrOnePartIsPassedAsItIs() {
		TransportHttpClient.Request none = new TransportHttpClient.Request("GET", "/_cluster/health", Map.of(),
				Map.of(), null);
		TransportHttpClient.Request empty = request(List.of());
		TransportHttpClient.Request one = request(List.of(ByteBuffer.wrap(new byte[] { '{', '}' })));

		assertThat(JoinedBodyTransport.joined(none)).isSameAs(none);
		assertThat(JoinedBodyTransport.joined(empty)).isSameAs(empty);
		assertThat(JoinedBodyTransport.joined(one)).isSameAs(one);
	}

	private static TransportHttpClient.Request request(List<ByteBuffer> body) {
		return new TransportHttpClient.Request("POST", "/_bulk", Map.of("refresh", "false"),
				Map.of("Content-Type", "application/x-ndjson"), body);
	}

}

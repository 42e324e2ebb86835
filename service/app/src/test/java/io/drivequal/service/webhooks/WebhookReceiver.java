/*
 * A real HTTP receiver for webhook tests (the JDK's com.sun.net.httpserver on loopback): records
 * every request's headers and body, answers with the status it is told, optionally after a delay
 * (a slow receiver), and verifies signatures with its own few lines of HMAC code, written from the
 * documented scheme rather than borrowed from the service.
 */
package io.drivequal.service.webhooks;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.sun.net.httpserver.HttpServer;

public final class WebhookReceiver implements AutoCloseable {

	public record Received(Map<String, String> headers, String body, Instant at) {

		public String header(String name) {
			return this.headers.get(name.toLowerCase(Locale.ROOT));
		}

	}

	private final HttpServer server;

	private final ExecutorService handlers = Executors.newCachedThreadPool();

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private final AtomicInteger status;

	private final Duration delay;

	private WebhookReceiver(int port, int status, Duration delay) throws IOException {
		this.status = new AtomicInteger(status);
		this.delay = delay;
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
		this.server.setExecutor(this.handlers);
		this.server.createContext("/", (exchange) -> {
			byte[] body;
			try (InputStream in = exchange.getRequestBody()) {
				body = in.readAllBytes();
			}
			Map<String, String> headers = new TreeMap<>();
			exchange.getRequestHeaders()
				.forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
			this.received.add(new Received(headers, new String(body, StandardCharsets.UTF_8), Instant.now()));
			try {
				Thread.sleep(this.delay.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			exchange.sendResponseHeaders(this.status.get(), -1);
			exchange.close();
		});
		this.server.start();
	}

	/** Answers {@code status} at once, on any free port. */
	public static WebhookReceiver answering(int status) throws IOException {
		return new WebhookReceiver(0, status, Duration.ZERO);
	}

	/** Answers 204 on {@code port} (one that nothing listened on before). */
	static WebhookReceiver onPort(int port) throws IOException {
		return new WebhookReceiver(port, 204, Duration.ZERO);
	}

	/** Answers 204 only after {@code delay}. */
	static WebhookReceiver slow(Duration delay) throws IOException {
		return new WebhookReceiver(0, 204, delay);
	}

	/** A loopback port nothing listens on (until a receiver is started on it). */
	static int unusedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	public String url(String path) {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + path;
	}

	public List<Received> received() {
		return List.copyOf(this.received);
	}

	/**
	 * The receiver's side of the scheme in docs/api.md: HMAC-SHA256 keyed with the
	 * base64-decoded secret after "whsec_", over id + "." + timestamp + "." + body,
	 * compared with each "v1,"-prefixed signature of the header.
	 */
	public static boolean signatureValid(String secret, Received request) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.replaceFirst("^whsec_", "")), "HmacSHA256"));
			String signed = request.header("webhook-id") + "." + request.header("webhook-timestamp") + "."
					+ request.body();
			String expected = Base64.getEncoder().encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
			for (String candidate : request.header("webhook-signature").split(" ")) {
				if (candidate.startsWith("v1,") && java.security.MessageDigest.isEqual(
						candidate.substring(3).getBytes(StandardCharsets.US_ASCII),
						expected.getBytes(StandardCharsets.US_ASCII))) {
					return true;
				}
			}
			return false;
		}
		catch (java.security.GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.handlers.shutdownNow();
	}

}

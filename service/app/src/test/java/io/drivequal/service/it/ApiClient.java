/*
 * A small HTTP client for integration tests: real requests to a running service, Basic auth as a
 * given user, JSON bodies.
 */
package io.drivequal.service.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.awaitility.Awaitility.await;

public final class ApiClient {

	public record Response(int status, JsonNode body, String location) {
	}

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String baseUrl;

	public ApiClient(String baseUrl) {
		this.baseUrl = baseUrl;
	}

	/**
	 * The drives a runner reports (GET /api/v1/drives, fed by its heartbeats), once there
	 * are at least {@code count}, in transport-address order.
	 */
	public List<JsonNode> awaitDrives(String runnerId, int count) {
		List<JsonNode> found = new ArrayList<>();
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			found.clear();
			for (JsonNode drive : get("viewer", "/api/v1/drives").body()) {
				if (runnerId.equals(drive.get("drive").get("runnerId").asString())) {
					found.add(drive);
				}
			}
			return found.size() >= count;
		});
		found.sort(Comparator.comparing((JsonNode drive) -> drive.get("drive").get("transportAddress").asString()));
		return found;
	}

	/** The serial of the first drive a runner reports. */
	public String awaitDriveSerial(String runnerId) {
		return awaitDrives(runnerId, 1).get(0).get("drive").get("serial").asString();
	}

	/**
	 * The serial of the drive at {@code target} (its transport address) among
	 * {@code drives}, as {@link #drivesOf(String)} lists them.
	 */
	public static String serialAt(java.util.List<JsonNode> drives, String target) {
		return drives.stream()
			.filter((drive) -> target.equals(drive.path("drive").path("transportAddress").asString())
					|| target.equals(drive.path("transportAddress").asString()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no drive at " + target + " in " + drives))
			.path("drive")
			.path("serial")
			.asString();
	}

	public Response get(String user, String path) {
		return send(user, HttpRequest.newBuilder(URI.create(this.baseUrl + path)).GET());
	}

	/**
	 * The drives {@code GET /api/v1/drives} lists on one runner, as the viewer sees them.
	 */
	public java.util.List<JsonNode> drivesOf(String runnerId) {
		java.util.List<JsonNode> found = new java.util.ArrayList<>();
		for (JsonNode drive : get("viewer", "/api/v1/drives").body()) {
			if (runnerId.equals(drive.get("drive").get("runnerId").asString())) {
				found.add(drive);
			}
		}
		return found;
	}

	/**
	 * Submits, as alice, one 4 KiB random-write QD32 phase over the whole drive for
	 * {@code runtimeS} seconds.
	 */
	public Response submitRandomWrite(String serial, String runnerId, int runtimeS) {
		return post("alice", "/api/v1/qualifications", """
				{"drive":{"serial":"%s","runnerId":"%s"},
				 "plan":{"phases":[{"name":"randwrite-4k-qd32","kind":"workload","rw":"randwrite",
				   "blockSizeBytes":4096,"queueDepth":32,"rangePercent":100,"runtimeS":%d}]}}
				""".formatted(serial, runnerId, runtimeS));
	}

	public Response post(String user, String path, String json) {
		return send(user,
				HttpRequest.newBuilder(URI.create(this.baseUrl + path))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	/** A text/plain body, e.g. a fio job file. */
	public Response postText(String user, String path, String text) {
		return send(user,
				HttpRequest.newBuilder(URI.create(this.baseUrl + path))
					.header("Content-Type", "text/plain")
					.POST(HttpRequest.BodyPublishers.ofString(text)));
	}

	/**
	 * multipart/form-data: a JSON part named "request", then files as (part name, file).
	 */
	public Response postMultipart(String user, String path, String requestJson,
			java.util.List<java.util.Map.Entry<String, java.nio.file.Path>> files) {
		String boundary = "drivequal-" + System.nanoTime();
		java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
		try {
			body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"request\"\r\n"
					+ "Content-Type: application/json\r\n\r\n" + requestJson + "\r\n")
				.getBytes(StandardCharsets.UTF_8));
			for (java.util.Map.Entry<String, java.nio.file.Path> file : files) {
				body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + file.getKey()
						+ "\"; filename=\"" + file.getValue().getFileName() + "\"\r\n"
						+ "Content-Type: application/octet-stream\r\n\r\n")
					.getBytes(StandardCharsets.UTF_8));
				body.writeBytes(java.nio.file.Files.readAllBytes(file.getValue()));
				body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
			}
			body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		return send(user,
				HttpRequest.newBuilder(URI.create(this.baseUrl + path))
					.header("Content-Type", "multipart/form-data; boundary=" + boundary)
					.POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
	}

	/**
	 * Any method, any path, as {@code user} (null: anonymous); the body is kept as text,
	 * since an error page need not be JSON.
	 */
	public RawResponse request(String user, String method, String path, String json) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.baseUrl + path))
			.method(method,
					(json != null) ? HttpRequest.BodyPublishers.ofString(json) : HttpRequest.BodyPublishers.noBody());
		if (json != null) {
			request.header("Content-Type", "application/json");
		}
		authorize(user, request);
		try {
			HttpResponse<String> response = this.http.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			return new RawResponse(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	public record RawResponse(int status, String body) {
	}

	private static void authorize(String user, HttpRequest.Builder request) {
		if (user != null) {
			String credentials = user + ":" + user + "-pw";
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
	}

	private Response send(String user, HttpRequest.Builder request) {
		authorize(user, request);
		try {
			HttpResponse<String> response = this.http.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			JsonNode body = response.body().isEmpty() ? null : JSON.readTree(response.body());
			return new Response(response.statusCode(), body, response.headers().firstValue("Location").orElse(null));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}

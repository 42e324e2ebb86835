// A real single-node Elasticsearch on loopback, from the distribution the harness build unpacked.
package io.drivequal.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One Elasticsearch node whose config, data, logs and temp files all live in the caller's
 * instance directory. Ports are chosen once, so {@link #stop()} then {@link #start()}
 * reuses them.
 */
public final class ElasticsearchNode implements AutoCloseable {

	private final HarnessPaths paths;

	private final Path instanceDir;

	private final String clusterName;

	private final int heapMb;

	private final long startTimeoutS;

	private int httpPort;

	private int transportPort;

	private ManagedProcess process;

	private final String username;

	private final String password;

	private final PemCertificates tls;

	private ElasticsearchNode(Builder builder) {
		this.paths = builder.paths;
		this.instanceDir = builder.instanceDir.toAbsolutePath();
		this.clusterName = builder.clusterName;
		this.heapMb = builder.heapMb;
		this.startTimeoutS = builder.startTimeoutS;
		this.httpPort = builder.httpPort;
		this.username = builder.username;
		this.password = builder.password;
		this.tls = builder.tls;
	}

	public static Builder builder(Path instanceDir) {
		return new Builder(instanceDir);
	}

	/**
	 * Starts the node and waits for a yellow cluster; throws with the log's tail if it
	 * does not get there.
	 */
	public synchronized ElasticsearchNode start() {
		if (this.process != null && this.process.isAlive()) {
			return this;
		}
		long startNanos = System.nanoTime();
		Path home = this.paths.elasticsearchHome();
		if (this.httpPort == 0) {
			this.httpPort = Ports.freeLoopbackPort();
		}
		if (this.transportPort == 0) {
			this.transportPort = Ports.freeLoopbackPort();
		}
		Optional<RunAs> runAs = RunAs.whenRoot();
		prepareInstanceDir(home, runAs);
		List<String> command = new ArrayList<>();
		runAs.ifPresent((user) -> command.addAll(user.commandPrefix()));
		command.add(home.resolve("bin/elasticsearch").toString());
		// The working dir receives gc.log and hs_err files (relative paths in the stock
		// jvm.options).
		this.process = ManagedProcess.start("Elasticsearch", command, environment(), this.instanceDir, consoleLog());
		awaitHealthy(startNanos);
		double seconds = (System.nanoTime() - startNanos) / 1e9;
		System.out.printf("[harness] Elasticsearch %s started on %s in %.1f s (pid %d, log: %s)%n",
				this.paths.elasticsearchVersion(), url(), seconds, this.process.pid(), serverLog());
		return this;
	}

	/**
	 * Graceful stop (SIGTERM, then kill after 30 s); data and logs stay for a later
	 * start.
	 */
	public synchronized void stop() {
		if (this.process != null) {
			this.process.stop();
			this.process = null;
			System.out.println("[harness] Elasticsearch on " + url() + " stopped (log: " + serverLog() + ")");
		}
	}

	@Override
	public void close() {
		stop();
	}

	/** https when built with {@link Builder#security} and certificates. */
	public String url() {
		return ((this.tls != null) ? "https" : "http") + "://127.0.0.1:" + this.httpPort;
	}

	/**
	 * The Authorization header of the superuser a secured node was built with; empty for
	 * a node without security.
	 */
	public Optional<String> authorization() {
		if (this.username == null) {
			return Optional.empty();
		}
		return Optional.of("Basic " + java.util.Base64.getEncoder()
			.encodeToString((this.username + ":" + this.password).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
	}

	/** An HTTP client that trusts the node's certificate when it has one. */
	public HttpClient httpClient() {
		HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1));
		if (this.tls != null) {
			builder.sslContext(this.tls.clientContext());
		}
		return builder.build();
	}

	public int httpPort() {
		return this.httpPort;
	}

	public Path instanceDir() {
		return this.instanceDir;
	}

	/**
	 * Elasticsearch's own log; the console log next to it also holds JVM and launcher
	 * output.
	 */
	public Path serverLog() {
		return this.instanceDir.resolve("logs").resolve(this.clusterName + ".log");
	}

	public Path consoleLog() {
		return this.instanceDir.resolve("console.log");
	}

	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	private void prepareInstanceDir(Path home, Optional<RunAs> runAs) {
		Path config = this.instanceDir.resolve("config");
		try {
			Files.createDirectories(this.instanceDir.resolve("data"));
			Files.createDirectories(this.instanceDir.resolve("logs"));
			Files.createDirectories(this.instanceDir.resolve("tmp"));
			if (!Files.isDirectory(config)) {
				// ES writes its keystore into the config dir, so each instance needs its
				// own copy.
				copyTree(home.resolve("config"), config);
			}
			Files.writeString(config.resolve("elasticsearch.yml"), elasticsearchYml());
			if (this.tls != null) {
				// Elasticsearch reads TLS files only from its config directory.
				Files.copy(this.tls.serverKeyPem(), config.resolve("http.key"), StandardCopyOption.REPLACE_EXISTING);
				Files.copy(this.tls.serverCertificatePem(), config.resolve("http.pem"),
						StandardCopyOption.REPLACE_EXISTING);
			}
			if (this.username != null && !Files.readString(config.resolve("users_roles")).contains(this.username)) {
				addFileRealmSuperuser(home);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		runAs.ifPresent((user) -> user.chownRecursively(this.instanceDir));
	}

	/**
	 * A file-realm user (config/users, users_roles): the realm that works without the
	 * .security index, which this distribution cannot create (its mapping needs the
	 * analysis-common module's pattern_capture filter, absent here) — so no API keys
	 * either.
	 */
	private void addFileRealmSuperuser(Path home) {
		Map<String, String> environment = new LinkedHashMap<>(environment());
		environment.remove("ES_JAVA_OPTS");
		ManagedProcess.runToCompletion("elasticsearch-users",
				List.of(home.resolve("bin/elasticsearch-users").toString(), "useradd", this.username, "-p",
						this.password, "-r", "superuser"),
				environment, this.instanceDir, consoleLog(), Duration.ofSeconds(60));
	}

	private String elasticsearchYml() {
		// No ingest.geoip.* here: the integ-test-zip has no ingest-geoip module and
		// rejects the setting.
		List<String> security = new ArrayList<>(List.of("xpack.security.enabled: " + (this.username != null)));
		if (this.tls != null) {
			security.addAll(List.of("xpack.security.http.ssl.enabled: true", "xpack.security.http.ssl.key: http.key",
					"xpack.security.http.ssl.certificate: http.pem"));
		}
		return String.join("\n", "# Written by the drivequal harness on every start.",
				"cluster.name: " + this.clusterName, "node.name: " + this.clusterName + "-node",
				"discovery.type: single-node", String.join("\n", security), "network.host: 127.0.0.1",
				"http.port: " + this.httpPort, "transport.port: " + this.transportPort,
				"path.data: " + this.instanceDir.resolve("data"), "path.logs: " + this.instanceDir.resolve("logs"),
				"cluster.routing.allocation.disk.threshold_enabled: false", "action.destructive_requires_name: false",
				"");
	}

	private Map<String, String> environment() {
		Map<String, String> environment = new LinkedHashMap<>();
		environment.put("ES_JAVA_HOME", this.paths.javaHome().toString());
		environment.put("ES_PATH_CONF", this.instanceDir.resolve("config").toString());
		environment.put("ES_TMPDIR", this.instanceDir.resolve("tmp").toString());
		environment.put("ES_JAVA_OPTS", "-Xms" + this.heapMb + "m -Xmx" + this.heapMb + "m");
		// ES ignores JAVA_HOME anyway; removing it avoids a misleading warning in the
		// log.
		environment.put("JAVA_HOME", null);
		return environment;
	}

	private void awaitHealthy(long startNanos) {
		HttpClient http = httpClient();
		HttpRequest.Builder request = HttpRequest
			.newBuilder(URI.create(url() + "/_cluster/health?wait_for_status=yellow&timeout=1s"))
			.timeout(Duration.ofSeconds(5));
		authorization().ifPresent((authorization) -> request.header("Authorization", authorization));
		HttpRequest health = request.build();
		long deadlineNanos = startNanos + Duration.ofSeconds(this.startTimeoutS).toNanos();
		String lastAnswer = "no answer yet";
		while (System.nanoTime() < deadlineNanos) {
			if (!this.process.isAlive()) {
				int exitCode = this.process.exitValue();
				this.process = null;
				throw new IllegalStateException("Elasticsearch exited with code " + exitCode + " while starting"
						+ ManagedProcess.describeLogs(consoleLog(), serverLog()));
			}
			try {
				HttpResponse<String> response = http.send(health, HttpResponse.BodyHandlers.ofString());
				if (response.statusCode() == 200) {
					return;
				}
				lastAnswer = response.statusCode() + " " + response.body();
			}
			catch (ConnectException ex) {
				lastAnswer = "connection refused";
			}
			catch (IOException ex) {
				lastAnswer = ex.toString();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				stop();
				throw new IllegalStateException("Interrupted while waiting for Elasticsearch", ex);
			}
			sleepMs(250);
		}
		stop();
		throw new IllegalStateException("Elasticsearch not healthy within " + this.startTimeoutS + " s (last: "
				+ lastAnswer + ")" + ManagedProcess.describeLogs(consoleLog(), serverLog()));
	}

	static void sleepMs(long ms) {
		try {
			Thread.sleep(ms);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static void copyTree(Path from, Path to) throws IOException {
		try (Stream<Path> paths = Files.walk(from)) {
			for (Path source : (Iterable<Path>) paths::iterator) {
				Files.copy(source, to.resolve(from.relativize(source).toString()), StandardCopyOption.COPY_ATTRIBUTES);
			}
		}
	}

	/** Defaults suit tests on a 2-core machine; {@code heapMb} is both -Xms and -Xmx. */
	public static final class Builder {

		private final Path instanceDir;

		private HarnessPaths paths = HarnessPaths.load();

		private String clusterName = "drivequal-it";

		private int heapMb = 512;

		private long startTimeoutS = 120;

		private int httpPort;

		private String username;

		private String password;

		private PemCertificates tls;

		private Builder(Path instanceDir) {
			this.instanceDir = instanceDir;
		}

		/**
		 * Security on, with a file-realm superuser (the password is passed on a command
		 * line: use generated test credentials only) and, when {@code tls} is not null,
		 * HTTPS with its server certificate.
		 */
		public Builder security(String username, String password, PemCertificates tls) {
			this.username = username;
			this.password = password;
			this.tls = tls;
			return this;
		}

		public Builder clusterName(String clusterName) {
			this.clusterName = clusterName;
			return this;
		}

		public Builder heapMb(int heapMb) {
			this.heapMb = heapMb;
			return this;
		}

		public Builder startTimeoutS(long startTimeoutS) {
			this.startTimeoutS = startTimeoutS;
			return this;
		}

		/** 0 (the default) picks a free port at the first start. */
		public Builder httpPort(int httpPort) {
			this.httpPort = httpPort;
			return this;
		}

		Builder paths(HarnessPaths paths) {
			this.paths = paths;
			return this;
		}

		/** Not started yet: call {@link ElasticsearchNode#start()}. */
		public ElasticsearchNode build() {
			return new ElasticsearchNode(this);
		}

	}

}

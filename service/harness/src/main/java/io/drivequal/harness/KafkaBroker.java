// A real Kafka KRaft broker (combined broker+controller) in its own JVM on loopback.
package io.drivequal.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * One single-node KRaft cluster whose storage, config and logs live in the caller's
 * instance directory. Storage is formatted once and ports are chosen once, so
 * {@link #stop()} then {@link #start()} brings the same cluster back with its topics and
 * data, as a broker restart in production would.
 */
public final class KafkaBroker implements AutoCloseable {

	private static final Duration FORMAT_TIMEOUT = Duration.ofSeconds(60);

	static final String SCRAM_MECHANISM = "SCRAM-SHA-512";

	private final HarnessPaths paths;

	private final Path instanceDir;

	private final int heapMb;

	private final long startTimeoutS;

	private int port;

	private int controllerPort;

	private final String scramUsername;

	private final String scramPassword;

	private final PemCertificates tls;

	private final String plainUsername;

	private final String plainPassword;

	private int securedPort;

	private ManagedProcess process;

	private KafkaBroker(Builder builder) {
		this.paths = builder.paths;
		this.instanceDir = builder.instanceDir.toAbsolutePath();
		this.heapMb = builder.heapMb;
		this.startTimeoutS = builder.startTimeoutS;
		this.port = builder.port;
		this.scramUsername = builder.scramUsername;
		this.scramPassword = builder.scramPassword;
		this.tls = builder.tls;
		this.plainUsername = builder.plainUsername;
		this.plainPassword = builder.plainPassword;
	}

	public static Builder builder(Path instanceDir) {
		return new Builder(instanceDir);
	}

	/**
	 * Formats storage on the first start, then waits until the broker answers
	 * describeCluster.
	 */
	public synchronized KafkaBroker start() {
		if (this.process != null && this.process.isAlive()) {
			return this;
		}
		long startNanos = System.nanoTime();
		if (this.port == 0) {
			this.port = Ports.freeLoopbackPort();
		}
		if (this.controllerPort == 0) {
			this.controllerPort = Ports.freeLoopbackPort();
		}
		if (isSecured() && this.securedPort == 0) {
			this.securedPort = Ports.freeLoopbackPort();
		}
		writeConfig();
		if (!Files.exists(dataDir().resolve("meta.properties"))) {
			// Static voters (controller.quorum.voters): no --standalone, and nothing to
			// re-bootstrap on restart.
			List<String> format = new ArrayList<>(List.of("format", "--config", serverProperties().toString(),
					"--cluster-id", Uuid.randomUuid().toString(), "--ignore-formatted"));
			if (isSecured()) {
				// KRaft keeps SCRAM credentials in the metadata log: they are added at
				// format.
				format.addAll(List.of("--add-scram",
						SCRAM_MECHANISM + "=[name=" + this.scramUsername + ",password=" + this.scramPassword + "]"));
			}
			ManagedProcess.runToCompletion("Kafka storage format",
					javaCommand("kafka.tools.StorageTool", format.toArray(String[]::new)), this.instanceDir,
					consoleLog(), FORMAT_TIMEOUT);
		}
		this.process = ManagedProcess.start("Kafka", javaCommand("kafka.Kafka", serverProperties().toString()),
				Map.of(), this.instanceDir, consoleLog());
		awaitReady(startNanos);
		double seconds = (System.nanoTime() - startNanos) / 1e9;
		System.out.printf("[harness] Kafka %s broker (KRaft) started on %s%s in %.1f s (pid %d, log: %s)%n",
				this.paths.kafkaVersion(), bootstrapServers(),
				isSecured() ? " and " + securedProtocol() + " " + securedBootstrapServers() : "", seconds,
				this.process.pid(), serverLog());
		return this;
	}

	/**
	 * Graceful stop (SIGTERM, controlled shutdown; killed after 30 s); storage stays for
	 * a later start.
	 */
	public synchronized void stop() {
		if (this.process != null) {
			this.process.stop();
			this.process = null;
			System.out
				.println("[harness] Kafka broker on " + bootstrapServers() + " stopped (log: " + serverLog() + ")");
		}
	}

	@Override
	public void close() {
		stop();
	}

	public String bootstrapServers() {
		return "127.0.0.1:" + this.port;
	}

	public int port() {
		return this.port;
	}

	/**
	 * The SASL listener (SCRAM-SHA-512; SASL_SSL when built with {@code tls}, else
	 * SASL_PLAINTEXT), for brokers built with {@link Builder#scram}. The plain-text
	 * listener stays for the harness itself and inter-broker traffic.
	 */
	public String securedBootstrapServers() {
		if (!isSecured()) {
			throw new IllegalStateException("this broker has no SASL listener: build it with scram(...)");
		}
		return "127.0.0.1:" + this.securedPort;
	}

	/** SASL_SSL or SASL_PLAINTEXT. */
	public String securedProtocol() {
		return (this.tls != null) ? "SASL_SSL" : "SASL_PLAINTEXT";
	}

	private boolean isSecured() {
		return this.scramUsername != null;
	}

	public Path instanceDir() {
		return this.instanceDir;
	}

	/**
	 * The broker's log4j2 output; console.log next to it holds JVM output and the storage
	 * format run.
	 */
	public Path serverLog() {
		return this.instanceDir.resolve("logs").resolve("server.log");
	}

	public Path consoleLog() {
		return this.instanceDir.resolve("console.log");
	}

	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	/**
	 * Single-replica topics; ones that already exist are left as they are, so callers can
	 * repeat it.
	 */
	public void createTopics(Map<String, Integer> partitionsByTopic) {
		List<NewTopic> topics = new ArrayList<>();
		partitionsByTopic.forEach((name, partitions) -> topics.add(new NewTopic(name, partitions, (short) 1)));
		try (Admin admin = Admin.create(adminProperties())) {
			for (KafkaFuture<Void> created : admin.createTopics(topics).values().values()) {
				try {
					created.get(30, TimeUnit.SECONDS);
				}
				catch (ExecutionException ex) {
					if (!(ex.getCause() instanceof TopicExistsException)) {
						throw new IllegalStateException("Cannot create topics " + partitionsByTopic.keySet(),
								ex.getCause());
					}
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("Timed out creating topics " + partitionsByTopic.keySet(), ex);
		}
	}

	private Properties adminProperties() {
		Properties properties = new Properties();
		properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
		properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
		return properties;
	}

	private void awaitReady(long startNanos) {
		long deadlineNanos = startNanos + Duration.ofSeconds(this.startTimeoutS).toNanos();
		String lastError = "no answer yet";
		try (Admin admin = Admin.create(adminProperties())) {
			while (System.nanoTime() < deadlineNanos) {
				if (!this.process.isAlive()) {
					int exitCode = this.process.exitValue();
					this.process = null;
					throw new IllegalStateException("Kafka exited with code " + exitCode + " while starting"
							+ ManagedProcess.describeLogs(consoleLog(), serverLog()));
				}
				try {
					if (!admin.describeCluster().nodes().get(2, TimeUnit.SECONDS).isEmpty()) {
						return;
					}
				}
				catch (ExecutionException | TimeoutException ex) {
					lastError = ex.toString();
				}
				ElasticsearchNode.sleepMs(200);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			stop();
			throw new IllegalStateException("Interrupted while waiting for Kafka", ex);
		}
		stop();
		throw new IllegalStateException("Kafka not ready within " + this.startTimeoutS + " s (last: " + lastError + ")"
				+ ManagedProcess.describeLogs(consoleLog(), serverLog()));
	}

	private List<String> javaCommand(String mainClass, String... args) {
		List<String> command = new ArrayList<>(List.of(this.paths.javaHome().resolve("bin/java").toString(),
				"-Xms" + Math.min(this.heapMb, 256) + "m", "-Xmx" + this.heapMb + "m", "-XX:+UseG1GC",
				"-Djava.awt.headless=true", "-Dkafka.logs.dir=" + this.instanceDir.resolve("logs"),
				"-Dlog4j2.configurationFile=" + this.instanceDir.resolve("log4j2.xml"), "-cp",
				this.paths.kafkaBrokerClasspath(), mainClass));
		command.addAll(List.of(args));
		return command;
	}

	private void writeConfig() {
		String listeners = "PLAINTEXT://127.0.0.1:" + this.port + ",CONTROLLER://127.0.0.1:" + this.controllerPort;
		String advertised = "PLAINTEXT://127.0.0.1:" + this.port;
		String protocolMap = "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT";
		List<String> secured = new ArrayList<>();
		if (isSecured()) {
			listeners += ",SECURED://127.0.0.1:" + this.securedPort;
			advertised += ",SECURED://127.0.0.1:" + this.securedPort;
			protocolMap += ",SECURED:" + securedProtocol();
			secured.add("sasl.enabled.mechanisms=" + SCRAM_MECHANISM + ((this.plainUsername != null) ? ",PLAIN" : ""));
			secured.add("listener.name.secured." + SCRAM_MECHANISM.toLowerCase(java.util.Locale.ROOT)
					+ ".sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;");
			if (this.plainUsername != null) {
				secured.add("listener.name.secured.plain.sasl.jaas.config="
						+ "org.apache.kafka.common.security.plain.PlainLoginModule required user_" + this.plainUsername
						+ "=\"" + this.plainPassword + "\";");
			}
			if (this.tls != null) {
				secured.add("listener.name.secured.ssl.keystore.type=PEM");
				secured.add("listener.name.secured.ssl.keystore.location=" + this.tls.serverKeyStorePem());
			}
		}
		String serverProperties = String.join("\n", "# Written by the drivequal harness on every start.",
				"process.roles=broker,controller", "node.id=1",
				"controller.quorum.voters=1@127.0.0.1:" + this.controllerPort, "listeners=" + listeners,
				"advertised.listeners=" + advertised, "controller.listener.names=CONTROLLER",
				"inter.broker.listener.name=PLAINTEXT", "listener.security.protocol.map=" + protocolMap,
				String.join("\n", secured), "log.dirs=" + dataDir(), "num.partitions=1", "default.replication.factor=1",
				"min.insync.replicas=1", "offsets.topic.replication.factor=1",
				// One partition each: the default 50 makes the first consumer group wait
				// for 50 leaders.
				"offsets.topic.num.partitions=1", "transaction.state.log.num.partitions=1",
				"transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1",
				"share.coordinator.state.topic.replication.factor=1", "share.coordinator.state.topic.min.isr=1",
				"group.initial.rebalance.delay.ms=0", "auto.create.topics.enable=false", "");
		String log4j2 = """
				<?xml version="1.0" encoding="UTF-8"?>
				<!-- Written by the drivequal harness: broker logs go to a file kept in the instance dir. -->
				<Configuration status="WARN">
				  <Appenders>
				    <File name="server" fileName="%s" append="true">
				      <PatternLayout pattern="[%%d] %%p %%m (%%c)%%n"/>
				    </File>
				  </Appenders>
				  <Loggers>
				    <Logger name="kafka.request.logger" level="WARN"/>
				    <Logger name="state.change.logger" level="WARN"/>
				    <Root level="INFO">
				      <AppenderRef ref="server"/>
				    </Root>
				  </Loggers>
				</Configuration>
				""".formatted(serverLog());
		try {
			Files.createDirectories(dataDir());
			Files.createDirectories(this.instanceDir.resolve("logs"));
			Files.writeString(serverProperties(), serverProperties);
			Files.writeString(this.instanceDir.resolve("log4j2.xml"), log4j2);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private Path serverProperties() {
		return this.instanceDir.resolve("server.properties");
	}

	private Path dataDir() {
		return this.instanceDir.resolve("data");
	}

	/** Defaults suit tests on a 2-core machine. */
	public static final class Builder {

		private final Path instanceDir;

		private HarnessPaths paths = HarnessPaths.load();

		private int heapMb = 512;

		private long startTimeoutS = 120;

		private int port;

		private String scramUsername;

		private String scramPassword;

		private PemCertificates tls;

		private String plainUsername;

		private String plainPassword;

		private Builder(Path instanceDir) {
			this.instanceDir = instanceDir;
		}

		/**
		 * Adds a SASL listener (SCRAM-SHA-512) and the user it accepts, created when the
		 * storage is formatted; see {@link KafkaBroker#securedBootstrapServers()}. Both
		 * values are passed on a command line: use generated test credentials only.
		 */
		public Builder scram(String username, String password) {
			this.scramUsername = username;
			this.scramPassword = password;
			return this;
		}

		/**
		 * The SASL listener also accepts PLAIN for this user (its password ends up in
		 * server.properties: generated test credentials only). For librdkafka before
		 * 2.6.1, whose SCRAM Kafka 4 brokers refuse (confluentinc/librdkafka#4895).
		 */
		public Builder plain(String username, String password) {
			this.plainUsername = username;
			this.plainPassword = password;
			return this;
		}

		/** The SASL listener speaks TLS with this server certificate (SASL_SSL). */
		public Builder tls(PemCertificates certificates) {
			this.tls = certificates;
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

		/**
		 * 0 (the default) picks a free port at the first start; later starts reuse it.
		 */
		public Builder port(int port) {
			this.port = port;
			return this;
		}

		Builder paths(HarnessPaths paths) {
			this.paths = paths;
			return this;
		}

		/** Not started yet: call {@link KafkaBroker#start()}. */
		public KafkaBroker build() {
			return new KafkaBroker(this);
		}

	}

}

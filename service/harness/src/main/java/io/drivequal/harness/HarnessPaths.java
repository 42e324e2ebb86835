// Where the build put the Elasticsearch home and the Kafka broker classpath, so any module's tests can find them.
package io.drivequal.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Paths written into {@code drivequal-harness.properties} by the harness build (resource
 * filtering). System properties {@code drivequal.es.home} and
 * {@code drivequal.kafka.classpath} override them, e.g. for a distribution unpacked
 * elsewhere.
 */
public final class HarnessPaths {

	static final String RESOURCE = "drivequal-harness.properties";

	private static final String REBUILD_HINT = "build the harness first: mvn -B -f service/harness/pom.xml generate-resources";

	private final Properties properties;

	private HarnessPaths(Properties properties) {
		this.properties = properties;
	}

	public static HarnessPaths load() {
		Properties properties = new Properties();
		try (InputStream in = HarnessPaths.class.getResourceAsStream(RESOURCE)) {
			if (in == null) {
				throw new IllegalStateException(RESOURCE + " is missing from the classpath; " + REBUILD_HINT);
			}
			properties.load(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new HarnessPaths(properties);
	}

	public String elasticsearchVersion() {
		return this.properties.getProperty("elasticsearch.version");
	}

	public String kafkaVersion() {
		return this.properties.getProperty("kafka.version");
	}

	public Path elasticsearchHome() {
		Path home = Path.of(System.getProperty("drivequal.es.home", this.properties.getProperty("elasticsearch.home")));
		if (!Files.isRegularFile(home.resolve("bin/elasticsearch"))) {
			throw new IllegalStateException("No Elasticsearch distribution at " + home + "; " + REBUILD_HINT);
		}
		return home;
	}

	/**
	 * The broker JVM's classpath: broker-only jars, then kafka-clients and its runtime
	 * deps.
	 */
	public String kafkaBrokerClasspath() {
		String override = System.getProperty("drivequal.kafka.classpath");
		if (override != null) {
			return override;
		}
		return readClasspathFile("kafka.broker.classpath.file") + ":"
				+ readClasspathFile("kafka.clients.classpath.file");
	}

	/**
	 * The JDK that runs this JVM also runs the broker and Elasticsearch (ES 8.19 supports
	 * 17+).
	 */
	public Path javaHome() {
		return Path.of(System.getProperty("drivequal.java.home", System.getProperty("java.home")));
	}

	private String readClasspathFile(String key) {
		Path file = Path.of(this.properties.getProperty(key));
		try {
			return Files.readString(file).trim();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + file + "; " + REBUILD_HINT, ex);
		}
	}

}

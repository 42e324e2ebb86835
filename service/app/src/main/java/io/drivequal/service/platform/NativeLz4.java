/*
 * Runners compress samples with lz4, and Kafka's consumer decompresses them with lz4-java's
 * "fastest instance". lz4-java picks its JNI binding (the C liblz4) for that only when it is
 * already loaded or when lz4-java was loaded by the system class loader; in the packaged service
 * (Spring Boot's own class loader) it takes the pure-Java decompressor, which cost about 6% of the
 * sample consumers' CPU in the ingest benchmark's profile (docs/benchmarks.md). Loading the
 * binding at start-up, before any consumer reads a batch, makes Kafka's codec take it. Where the
 * binding cannot load (no writable temporary directory, an unsupported platform) the pure-Java
 * decompressor stays, and the log says so.
 */
package io.drivequal.service.platform;

import net.jpountz.lz4.LZ4Factory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

@Component
class NativeLz4 {

	private static final Logger logger = LoggerFactory.getLogger(NativeLz4.class);

	private final boolean loaded;

	NativeLz4() {
		this.loaded = load();
	}

	/** Whether lz4 compression and decompression go through the JNI binding. */
	boolean loaded() {
		return this.loaded;
	}

	static boolean load() {
		try {
			LZ4Factory.nativeInstance();
		}
		catch (Throwable ex) {
			logger.info("lz4: the JNI binding did not load ({}); Kafka decompresses in pure Java", ex.toString());
			return false;
		}
		boolean chosen = LZ4Factory.fastestInstance() == LZ4Factory.nativeInstance();
		logger.info("lz4: {}", chosen ? "Kafka decompresses with the JNI binding (liblz4)"
				: "the JNI binding loaded but is not lz4-java's fastest instance; Kafka decompresses in pure Java");
		return chosen;
	}

}

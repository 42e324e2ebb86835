/*
 * The lz4 JNI binding loads here and Kafka's lz4 codec reads its own batches through it. (Whether
 * the packaged jar's class loader would have left Kafka in pure Java is what ServiceCrashReplayIT
 * checks, in the service's log: under the test class path lz4-java is the system loader's.)
 */
package io.drivequal.service.platform;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import net.jpountz.lz4.LZ4Factory;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NativeLz4Test {

	@Test
	void kafkasLz4CodecTakesTheJniBindingAndReadsItsBatchesBack() {
		assertThat(new NativeLz4().loaded()).isTrue();
		assertThat(LZ4Factory.fastestInstance()).isSameAs(LZ4Factory.nativeInstance());
		List<SimpleRecord> written = new ArrayList<>();
		for (int t = 1; t <= 500; t++) {
			written.add(new SimpleRecord(("job-" + (t % 7)).getBytes(StandardCharsets.UTF_8),
					("{\"t\":" + t + ",\"write\":{\"ios\":" + (t * 7919L % 100_000) + "}}")
						.getBytes(StandardCharsets.UTF_8)));
		}
		MemoryRecords batch = MemoryRecords.withRecords(Compression.lz4().build(),
				written.toArray(SimpleRecord[]::new));
		List<String> read = new ArrayList<>();
		for (RecordBatch recordBatch : batch.batches()) {
			assertThat(recordBatch.compressionType().name).isEqualTo("lz4");
			for (Record record : recordBatch) {
				byte[] value = new byte[record.valueSize()];
				record.value().get(value);
				read.add(new String(value, StandardCharsets.UTF_8));
			}
		}
		assertThat(read).hasSize(500)
			.containsExactlyElementsOf(
					written.stream().map((r) -> StandardCharsets.UTF_8.decode(r.value()).toString()).toList());
	}

}

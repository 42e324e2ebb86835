/*
 * The service reads the same shared vectors as the C runner: every valid sample decodes into the
 * service's record without losing a field, every invalid one is refused as poison.
 */
package io.drivequal.service.ingest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import io.drivequal.schemas.Contracts;
import io.drivequal.service.platform.InvalidMessageException;
import io.drivequal.service.platform.MessageDecoder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class SampleListenerTest {

	private static final Path EXAMPLES = Path.of(System.getProperty("drivequal.schemas.dir", "../../schemas"))
		.resolve("examples/sample");

	private final Contracts contracts = Contracts.load();

	private final SampleListener listener = new SampleListener(new MessageDecoder(this.contracts), null,
			new IngestSettings(DataSize.ofKilobytes(64), SampleIndexPeriod.MONTH), this.contracts);

	@TestFactory
	Stream<DynamicTest> validVectorsDecodeWithoutLoss() throws IOException {
		return files("valid").stream().map((file) -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
			byte[] bytes = Files.readAllBytes(file);
			JsonNode original = this.contracts.mapper().readTree(bytes);
			SampleMessage sample = this.listener.decode(record(original.get("jobId").asString(), bytes));
			JsonNode roundTrip = this.contracts.mapper().valueToTree(sample);
			assertThat(withoutNulls(roundTrip)).isEqualTo(original);
		}));
	}

	@TestFactory
	Stream<DynamicTest> invalidVectorsArePoison() throws IOException {
		return files("invalid").stream()
			.map((file) -> DynamicTest.dynamicTest(file.getFileName().toString(),
					() -> assertThatExceptionOfType(InvalidMessageException.class)
						.isThrownBy(() -> this.listener.decode(record(null, Files.readAllBytes(file))))));
	}

	@Test
	void oversizedSampleIsPoisonBeforeParsing() {
		byte[] big = new byte[65 * 1024];
		assertThatExceptionOfType(InvalidMessageException.class)
			.isThrownBy(() -> this.listener.decode(record("j", big)))
			.withMessageContaining("exceeds");
		assertThatExceptionOfType(InvalidMessageException.class)
			.isThrownBy(() -> this.listener.decode(record("j", null)))
			.withMessageContaining("tombstone");
	}

	@Test
	void aValidSampleTheStreamDecoderDeclinesTakesTheGeneralPathAndIsCounted() throws IOException {
		byte[] canonical = Files.readAllBytes(EXAMPLES.resolve("valid/randwrite-second.json"));
		SampleMessage streamed = this.listener.decode(record("job-0001", canonical));
		assertThat(this.listener.generalPathSamples()).isZero();
		// 2.0 is an integer to JSON Schema; the stream decoder leaves such spellings
		// alone
		String spelled = new String(canonical, java.nio.charset.StandardCharsets.UTF_8).replace("\"phaseIndex\":2,",
				"\"phaseIndex\":2.0,");
		assertThat(spelled).contains("2.0");
		SampleMessage general = this.listener.decode(record("job-0001", spelled.getBytes()));
		assertThat(general).isEqualTo(streamed);
		assertThat(this.listener.generalPathSamples()).isEqualTo(1);
	}

	@Test
	void keyMustBeTheJobIdSoAJobStaysOnOnePartition() throws IOException {
		byte[] bytes = Files.readAllBytes(EXAMPLES.resolve("valid/randwrite-second.json"));
		assertThatExceptionOfType(InvalidMessageException.class)
			.isThrownBy(() -> this.listener.decode(record("some-other-job", bytes)))
			.withMessageContaining("is not its jobId");
	}

	@Test
	void documentCarriesIopsAndMegabytesPerSecondWithADeterministicId() throws IOException {
		byte[] bytes = Files.readAllBytes(EXAMPLES.resolve("valid/mixed-second.json"));
		SampleMessage sample = this.listener.decode(record("job-0002", bytes));
		SampleDocument document = SampleDocument.of(sample, DriveLabels.UNKNOWN);
		assertThat(sample.documentId()).isEqualTo("job-0002/0/1400");
		assertThat(document.read().iops()).isEqualTo(40211);
		assertThat(document.totalIops()).isEqualTo(40211 + 19805);
		assertThat(document.write().mbPerS()).isEqualTo(162.24256);
		assertThat(document.timestampMs()).isEqualTo(1795382600000L);
		// The index is the sample's own time's (UTC), whatever the period.
		assertThat(SampleDocument.indexFor(sample, SampleIndexPeriod.MONTH)).isEqualTo("drivequal-samples-2026.11");
		assertThat(SampleDocument.indexFor(sample, SampleIndexPeriod.DAY)).isEqualTo("drivequal-samples-2026.11.22");
		assertThat(SampleDocument.indexFor(sample, SampleIndexPeriod.HOUR))
			.isEqualTo("drivequal-samples-2026.11.22.21");
		assertThat(document.driveModel()).isNull();
		assertThat(document.simulated()).isNull();
	}

	@Test
	void documentCarriesTheEffectiveQueueDepthAsANumberWhenMeasured() throws IOException {
		byte[] measured = Files.readAllBytes(EXAMPLES.resolve("valid/randwrite-second-effective-queue-depth.json"));
		assertThat(SampleDocument.of(this.listener.decode(record("job-0001", measured)), DriveLabels.UNKNOWN)
			.effectiveQueueDepth()).isEqualTo(31.87);
		byte[] older = Files.readAllBytes(EXAMPLES.resolve("valid/randwrite-second.json"));
		assertThat(SampleDocument.of(this.listener.decode(record("job-0001", older)), DriveLabels.UNKNOWN)
			.effectiveQueueDepth()).isNull();
	}

	@Test
	void documentCarriesTheDriveOfItsJob() throws IOException {
		byte[] bytes = Files.readAllBytes(EXAMPLES.resolve("valid/mixed-second.json"));
		SampleMessage sample = this.listener.decode(record("job-0002", bytes));
		SampleDocument document = SampleDocument.of(sample, new DriveLabels("DQSIM-E3", "1.0.0", true));
		assertThat(document.driveModel()).isEqualTo("DQSIM-E3");
		assertThat(document.firmware()).isEqualTo("1.0.0");
		assertThat(document.simulated()).isTrue();
	}

	private static ConsumerRecord<String, byte[]> record(String key, byte[] value) {
		return new ConsumerRecord<>("drivequal.samples", 0, 0L, key, value);
	}

	/**
	 * Absent optional fields come back as explicit nulls from the record; the wire omits
	 * them.
	 */
	private JsonNode withoutNulls(JsonNode node) {
		String json = this.contracts.mapper()
			.writeValueAsString(node)
			// an absent member binds as null, at any depth (no member comes first)
			.replaceAll(",\"[A-Za-z]+\":null", "");
		return this.contracts.mapper().readTree(json);
	}

	private static List<Path> files(String kind) throws IOException {
		try (Stream<Path> list = Files.list(EXAMPLES.resolve(kind))) {
			List<Path> result = list.filter((f) -> f.toString().endsWith(".json")).sorted().toList();
			assertThat(result).as(kind + " sample vectors").isNotEmpty();
			return result;
		}
	}

}

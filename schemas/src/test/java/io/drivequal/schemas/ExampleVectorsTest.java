/*
 * The shared vectors in schemas/examples are read here AND by the C runner's test_vectors: a valid
 * vector must pass the JSON Schema, an invalid one must fail it, on both sides.
 */
package io.drivequal.schemas;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import static org.assertj.core.api.Assertions.assertThat;

class ExampleVectorsTest {

	/** The source folder itself, not a copy: Surefire runs in schemas/. */
	private static final Path EXAMPLES = Path.of("examples");

	private final Contracts contracts = Contracts.load();

	@TestFactory
	Stream<DynamicTest> validVectorsPassTheirSchema() throws IOException {
		return vectors("valid").stream().map((vector) -> DynamicTest.dynamicTest(vector.toString(), () -> {
			Validation validation = this.contracts.validate(typeOf(vector), Files.readAllBytes(vector));
			assertThat(validation.errors()).as(vector.toString()).isEmpty();
		}));
	}

	@TestFactory
	Stream<DynamicTest> invalidVectorsFailTheirSchema() throws IOException {
		return vectors("invalid").stream().map((vector) -> DynamicTest.dynamicTest(vector.toString(), () -> {
			Validation validation = this.contracts.validate(typeOf(vector), Files.readAllBytes(vector));
			assertThat(validation.valid()).as(vector + " should be rejected").isFalse();
			assertThat(validation.message()).isNull();
			System.out.println("rejected " + vector + ": " + validation.summary());
		}));
	}

	@Test
	void everyTypeHasValidAndInvalidVectors() throws IOException {
		for (MessageType type : MessageType.values()) {
			for (String kind : List.of("valid", "invalid")) {
				try (Stream<Path> files = Files.list(EXAMPLES.resolve(type.id()).resolve(kind))) {
					assertThat(files.filter((f) -> f.toString().endsWith(".json")).count()).as(type.id() + "/" + kind)
						.isPositive();
				}
			}
		}
	}

	/**
	 * Vectors of what the runner produces are in canonical form (compact, one line): the
	 * C encoder must reproduce their bytes, so a reformatted file would break the pin
	 * silently.
	 */
	@Test
	void validVectorsAreCompactCanonicalJson() throws IOException {
		for (Path vector : vectors("valid")) {
			String text = Files.readString(vector);
			String canonical = this.contracts.mapper().writeValueAsString(this.contracts.mapper().readTree(text))
					+ "\n";
			assertThat(text).as(vector.toString()).isEqualTo(canonical);
		}
	}

	private static MessageType typeOf(Path vector) {
		String typeId = vector.getParent().getParent().getFileName().toString();
		return Stream.of(MessageType.values())
			.filter((type) -> type.id().equals(typeId))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("no message type for " + vector));
	}

	private static List<Path> vectors(String kind) throws IOException {
		List<Path> result = new ArrayList<>();
		for (MessageType type : MessageType.values()) {
			try (Stream<Path> files = Files.list(EXAMPLES.resolve(type.id()).resolve(kind))) {
				files.filter((f) -> f.toString().endsWith(".json")).sorted().forEach(result::add);
			}
		}
		return result;
	}

}

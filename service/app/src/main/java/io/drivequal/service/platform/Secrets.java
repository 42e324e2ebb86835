/*
 * Secrets for the connections (Kafka SASL password, Elasticsearch API key or password) come from
 * the environment or from files (mounted Kubernetes secrets), never from the repository; a value
 * that cannot be read is a start-up failure naming the variable, never showing the value.
 */
package io.drivequal.service.platform;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.springframework.util.StringUtils;

final class Secrets {

	private Secrets() {
	}

	/**
	 * The secret given inline or in a file, or empty when neither is set.
	 * @param variable the environment variable operators set, e.g. KAFKA_SASL_PASSWORD;
	 * its file variant is {@code variable + "_FILE"}
	 * @throws InvalidConnectionSettingsException when both are set, or the file cannot be
	 * read or is empty
	 */
	static Optional<String> inlineOrFile(String variable, String inline, String file) {
		boolean hasInline = StringUtils.hasLength(inline);
		boolean hasFile = StringUtils.hasText(file);
		if (hasInline && hasFile) {
			throw new InvalidConnectionSettingsException("set " + variable + " or " + variable + "_FILE, not both");
		}
		if (hasFile) {
			String value = readSecretFile(variable + "_FILE", file);
			return Optional.of(value);
		}
		return hasInline ? Optional.of(inline) : Optional.empty();
	}

	/**
	 * A file's contents without trailing line ends; the file must exist and not be empty.
	 */
	static String readSecretFile(String variable, String file) {
		String value;
		try {
			value = Files.readString(Path.of(file), StandardCharsets.UTF_8);
		}
		catch (IOException | RuntimeException ex) {
			throw new InvalidConnectionSettingsException(
					variable + ": cannot read " + file + " (" + ex.getClass().getSimpleName() + ")");
		}
		value = value.replaceAll("[\r\n]+$", "");
		if (value.isEmpty()) {
			throw new InvalidConnectionSettingsException(variable + ": " + file + " is empty");
		}
		return value;
	}

	/** A readable file, e.g. a CA bundle; returns its path. */
	static Path readableFile(String variable, String file) {
		Path path = Path.of(file);
		if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
			throw new InvalidConnectionSettingsException(variable + ": cannot read " + file);
		}
		return path;
	}

}

// Loads the real fio outputs committed under src/test/resources/fio (see the README there for the commands).
package io.drivequal.analysis.fio;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

final class FioFixtures {

	private FioFixtures() {
	}

	static Path directory(String name) {
		try {
			return Path.of(FioFixtures.class.getResource("/fio/" + name).toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static String text(String directory, String file) {
		try {
			return Files.readString(directory(directory).resolve(file), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static List<Path> logs(String directory) {
		try (Stream<Path> files = Files.list(directory(directory))) {
			return new ArrayList<>(
					files.filter((file) -> file.getFileName().toString().endsWith(".log")).sorted().toList());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static List<FioLogFile> logFiles(String directory) {
		List<FioLogFile> files = new ArrayList<>();
		for (Path log : logs(directory)) {
			files.add(new FioLogFile(log.getFileName().toString(), text(directory, log.getFileName().toString())));
		}
		return files;
	}

}

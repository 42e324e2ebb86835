/*
 * docs/architecture.md maps each behaviour to the file or package that owns it. A map that names
 * a file which moved or was renamed sends readers nowhere, so every path in its "lives in" column
 * must exist, and every name given beside a path must be found there.
 */
package io.drivequal.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ArchitectureDocTest {

	private static final Pattern CODE = Pattern.compile("`([^`]+)`");

	private final Path root = repositoryRoot();

	private final List<Row> rows = livesInRows(this.root.resolve("docs/architecture.md"));

	/**
	 * A backticked token with a slash is a path from the repository root; one without
	 * names something in the path before it: a file of that directory, or a symbol in
	 * that file.
	 */
	@Test
	void everyPathAndNameInTheLivesInColumnExists() throws IOException {
		List<String> missing = new ArrayList<>();
		for (Row row : this.rows) {
			Path current = null;
			Matcher code = CODE.matcher(row.livesIn());
			while (code.find()) {
				String token = code.group(1);
				if (token.contains("/")) {
					current = this.root.resolve(token);
					if (!Files.exists(current)) {
						missing.add(row.behaviour() + ": " + token);
					}
				}
				else if (current == null || !Files.exists(current)) {
					missing.add(row.behaviour() + ": " + token + " (no path before it)");
				}
				else if (Files.isDirectory(current) ? !Files.exists(current.resolve(token))
						: !Files.readString(current).contains(token)) {
					missing.add(row.behaviour() + ": " + token + " in " + this.root.relativize(current));
				}
			}
		}
		assertThat(this.rows).as("rows of the lives-in table").hasSizeGreaterThan(20);
		assertThat(missing).as("named in docs/architecture.md but not in the repository").isEmpty();
	}

	@Test
	void everyRowNamesAPath() {
		assertThat(this.rows).allSatisfy((row) -> assertThat(row.livesIn()).as(row.behaviour()).contains("/"));
	}

	/**
	 * The walks a newcomer takes: from the README to this map, and from the map to the
	 * owner of steady state, of the mounted-drive refusal, and of a sample's path into
	 * Elasticsearch without duplicates.
	 */
	@Test
	void theReadmeLeadsToTheMapAndTheMapToTheKeyBehaviours() throws IOException {
		assertThat(Files.readString(this.root.resolve("README.md"))).contains("(docs/architecture.md)");
		assertThat(this.rows).map(Row::behaviour)
			.anyMatch((behaviour) -> behaviour.startsWith("SNIA steady state"))
			.anyMatch((behaviour) -> behaviour.contains("mounted"))
			.anyMatch((behaviour) -> behaviour.contains("from Kafka to Elasticsearch"))
			.anyMatch((behaviour) -> behaviour.contains("no duplicates"));
	}

	record Row(String behaviour, String livesIn) {
	}

	/** The rows of every table whose header has a "lives in" column. */
	private static List<Row> livesInRows(Path markdown) {
		List<Row> rows = new ArrayList<>();
		List<String> lines;
		try {
			lines = Files.readAllLines(markdown);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		int column = -1;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i).trim();
			if (!line.startsWith("|")) {
				column = -1;
				continue;
			}
			List<String> cells = cells(line);
			if (column < 0) {
				column = cells.indexOf("lives in");
				if (column >= 0) {
					i++; // the |---| line under the header
				}
				continue;
			}
			rows.add(new Row(cells.get(0), cells.get(column)));
		}
		return rows;
	}

	private static List<String> cells(String line) {
		String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
		List<String> cells = new ArrayList<>();
		for (String cell : inner.split("\\|", -1)) {
			cells.add(cell.trim());
		}
		return cells;
	}

	/** Surefire runs in service/app; the repository root is the folder holding docs/. */
	private static Path repositoryRoot() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isRegularFile(dir.resolve("docs/architecture.md"))) {
				return dir;
			}
		}
		throw new IllegalStateException("no docs/architecture.md above " + Path.of("").toAbsolutePath());
	}

}

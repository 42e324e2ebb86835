/*
 * Where the fault-injection tests leave their measurements: one JSON file per item under
 * target/fault-suite/figures, which service/bin/drivequal-fault-suite gathers into its report. A
 * test records what it measured even when run alone (mvn verify), so the figures of the fast
 * subset are there after every build.
 */
package io.drivequal.service.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

public final class FaultFigures {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final String item;

	private final Map<String, Object> figures = new LinkedHashMap<>();

	private FaultFigures(String item, String title) {
		this.item = item;
		this.figures.put("item", item);
		this.figures.put("title", title);
		this.figures.put("recordedAt", Instant.now().toString());
	}

	/**
	 * @param item "1".."13", the number of the requirement in docs/reliability.md
	 */
	public static FaultFigures item(String item, String title) {
		return new FaultFigures(item, title);
	}

	public FaultFigures put(String name, Object value) {
		this.figures.put(name, value);
		return this;
	}

	public Object get(String name) {
		return this.figures.get(name);
	}

	/**
	 * Writes the figures; call it after the assertions, with "passed" set by the caller.
	 */
	public void write() {
		Path dir = Path.of(System.getProperty("drivequal.fault.dir", "target/fault-suite"), "figures");
		try {
			Files.createDirectories(dir);
			Files.writeString(dir.resolve("item-" + this.item + ".json"),
					JSON.writerWithDefaultPrettyPrinter().writeValueAsString(this.figures));
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot write the fault-suite figures of item " + this.item, ex);
		}
	}

}

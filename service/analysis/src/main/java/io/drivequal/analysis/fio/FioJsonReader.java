// Reads fio 3.x's JSON output (--output-format=json): version, jobs, options and per-direction totals.
package io.drivequal.analysis.fio;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Parses fio's JSON; refuses anything that is not fio 3.x JSON output with the reason.
 */
final class FioJsonReader {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private FioJsonReader() {
	}

	/**
	 * A job as the JSON describes it.
	 *
	 * @param jobNumber 1-based position in "jobs"
	 * @param jobName "jobname"
	 * @param error fio's "error" (0 when the job succeeded)
	 * @param totals directions with IO
	 * @param options global options overridden by the job's options
	 */
	record Job(int jobNumber, String jobName, long error, Map<FioDirection, FioJobTotals> totals,
			Map<String, String> options) {

	}

	/**
	 * The run.
	 *
	 * @param fioVersion "fio version"
	 * @param jobs every job
	 * @param notes what was skipped
	 */
	record Run(String fioVersion, List<Job> jobs, List<String> notes) {

	}

	static Run read(String text) {
		List<String> notes = new ArrayList<>();
		String json = text.strip();
		if (!json.startsWith("{")) {
			// fio prints warnings ("note: ...") before the JSON when stdout was captured.
			int start = json.indexOf("\n{");
			if (start < 0) {
				throw new FioImportException(
						"not fio JSON output: no JSON object found (run fio with --output-format=json)");
			}
			notes.add("skipped " + json.substring(0, start).split("\n").length + " line(s) of text before the JSON");
			json = json.substring(start + 1);
		}
		JsonNode root;
		try {
			root = MAPPER.readTree(json);
		}
		catch (JacksonException ex) {
			throw new FioImportException("not fio JSON output: " + ex.getOriginalMessage(), ex);
		}
		if (root == null || !root.isObject() || !root.path("fio version").isString()) {
			throw new FioImportException("not fio JSON output: no \"fio version\" field");
		}
		JsonNode jobs = root.path("jobs");
		if (!jobs.isArray() || jobs.isEmpty()) {
			throw new FioImportException("fio JSON has no jobs");
		}
		Map<String, String> globalOptions = options(root.path("global options"));
		List<Job> parsed = new ArrayList<>();
		for (int i = 0; i < jobs.size(); i++) {
			parsed.add(job(jobs.get(i), i + 1, globalOptions));
		}
		return new Run(root.path("fio version").asString(), parsed, notes);
	}

	private static Job job(JsonNode job, int jobNumber, Map<String, String> globalOptions) {
		String where = "fio JSON job " + jobNumber;
		if (!job.path("jobname").isString()) {
			throw new FioImportException(where + " has no \"jobname\"");
		}
		String name = job.path("jobname").asString();
		Map<FioDirection, FioJobTotals> totals = new EnumMap<>(FioDirection.class);
		for (FioDirection direction : FioDirection.values()) {
			JsonNode section = job.path(direction.jsonKey());
			if (section.isMissingNode()) {
				continue;
			}
			long totalIos = number(section, "total_ios", where + " " + direction.jsonKey());
			if (totalIos > 0) {
				totals.put(direction, totals(section, totalIos, where + " ('" + name + "') " + direction.jsonKey()));
			}
		}
		Map<String, String> options = new HashMap<>(globalOptions);
		options.putAll(options(job.path("job options")));
		return new Job(jobNumber, name, job.path("error").asLong(0), totals, options);
	}

	private static FioJobTotals totals(JsonNode section, long totalIos, String where) {
		JsonNode clat = section.path("clat_ns");
		if (!clat.isObject()) {
			String hint = section.has("clat") ? " (it has fio 2.x \"clat\" in microseconds; use fio 3.x)" : "";
			throw new FioImportException(where + " has no \"clat_ns\"" + hint);
		}
		Map<String, Long> percentiles = new TreeMap<>();
		for (Map.Entry<String, JsonNode> entry : clat.path("percentile").properties()) {
			percentiles.put(entry.getKey(), entry.getValue().asLong());
		}
		return new FioJobTotals(totalIos, number(section, "io_bytes", where), section.path("iops").asDouble(),
				section.path("bw_bytes").asLong(), section.path("runtime").asLong(), clat.path("min").asLong(),
				clat.path("max").asLong(), clat.path("mean").asDouble(), section.path("lat_ns").path("mean").asDouble(),
				percentiles);
	}

	private static long number(JsonNode section, String field, String where) {
		JsonNode value = section.path(field);
		if (!value.isIntegralNumber()) {
			throw new FioImportException(where + " has no integer \"" + field + "\"");
		}
		return value.asLong();
	}

	private static Map<String, String> options(JsonNode options) {
		Map<String, String> result = new HashMap<>();
		if (options.isObject()) {
			for (Map.Entry<String, JsonNode> entry : options.properties()) {
				result.put(entry.getKey(), entry.getValue().asString());
			}
		}
		return result;
	}

}

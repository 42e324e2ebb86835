/*
 * A job's results flattened to rows of (phase, figure, value): every figure of the analysis, the
 * verdict and its criteria, named by its path in results.json, so nothing is left out and the
 * names need no second dictionary.
 */
package io.drivequal.service.report;

import java.util.List;
import java.util.Map;

import io.drivequal.service.qualification.JobReports.JobReport;

final class ResultsCsv {

	static final String HEADER = "phaseIndex,phaseName,figure,value\n";

	private ResultsCsv() {
	}

	static String of(JobReport report) {
		StringBuilder csv = new StringBuilder(HEADER);
		row(csv, null, null, "state", report.state().name());
		row(csv, null, null, "verdict", report.verdict());
		if (report.analysis() == null) {
			return csv.toString();
		}
		for (Map.Entry<String, Object> entry : report.analysis().entrySet()) {
			if (!entry.getKey().equals("phases")) {
				flatten(csv, null, null, entry.getKey(), entry.getValue());
			}
		}
		if (report.analysis().get("phases") instanceof List<?> phases) {
			for (Object phase : phases) {
				if (phase instanceof Map<?, ?> figures) {
					Object index = figures.get("phaseIndex");
					Object name = figures.get("phaseName");
					for (Map.Entry<?, ?> entry : figures.entrySet()) {
						if (!"phaseIndex".equals(entry.getKey()) && !"phaseName".equals(entry.getKey())) {
							flatten(csv, index, name, String.valueOf(entry.getKey()), entry.getValue());
						}
					}
				}
			}
		}
		return csv.toString();
	}

	private static void flatten(StringBuilder csv, Object phaseIndex, Object phaseName, String path, Object value) {
		if (value instanceof Map<?, ?> map) {
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				flatten(csv, phaseIndex, phaseName, path + "." + entry.getKey(), entry.getValue());
			}
		}
		else if (value instanceof List<?> list) {
			for (int i = 0; i < list.size(); i++) {
				flatten(csv, phaseIndex, phaseName, path + "[" + i + "]", list.get(i));
			}
		}
		else if (value != null) {
			row(csv, phaseIndex, phaseName, path, String.valueOf(value));
		}
	}

	private static void row(StringBuilder csv, Object phaseIndex, Object phaseName, String figure, String value) {
		csv.append((phaseIndex != null) ? phaseIndex.toString() : "")
			.append(',')
			.append((phaseName != null) ? quote(phaseName.toString()) : "")
			.append(',')
			.append(quote(figure))
			.append(',')
			.append((value != null) ? quote(value) : "")
			.append('\n');
	}

	/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
	static String quote(String field) {
		if (field == null) {
			return "";
		}
		if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) {
			return field;
		}
		return "\"" + field.replace("\"", "\"\"") + "\"";
	}

}

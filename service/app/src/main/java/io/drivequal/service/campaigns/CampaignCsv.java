/*
 * A campaign as CSV (RFC 4180): one row per sample, profile and criterion with the sample's outcome
 * and measured value; per criterion a row for the worst sample and the spread; per spread criterion
 * one row; the model verdict last. Columns: section, profile, criterion, serial, outcome, value,
 * detail.
 */
package io.drivequal.service.campaigns;

import java.util.Locale;

final class CampaignCsv {

	private CampaignCsv() {
	}

	static String of(CampaignView view) {
		StringBuilder csv = new StringBuilder("section,profile,criterion,serial,outcome,value,detail\r\n");
		for (CampaignView.GridCell cell : view.grid()) {
			row(csv, "job", cell.profile(), "", cell.serial(), (cell.verdict() != null) ? cell.verdict() : cell.state(),
					null, cell.jobId());
		}
		ModelVerdictView verdict = view.modelVerdict();
		if (verdict != null) {
			for (ModelVerdictView.ModelCriterionRow criterion : verdict.criteria()) {
				String name = criterion.metric() + " " + ("atLeast".equals(criterion.comparator()) ? ">=" : "<=") + " "
						+ number(criterion.limit()) + ((criterion.phase() != null) ? " in " + criterion.phase() : "");
				for (ModelVerdictView.SampleCell cell : criterion.samples()) {
					row(csv, "sample", criterion.profile(), name, cell.serial(), cell.outcome(), cell.measured(),
							cell.explanation());
				}
				if (criterion.worstSample() != null) {
					row(csv, "worst", criterion.profile(), name, criterion.worstSample(), criterion.outcome(), null,
							"");
				}
				if (criterion.spread() != null) {
					ModelVerdictView.SpreadFigures spread = criterion.spread();
					row(csv, "min", criterion.profile(), name, "", "", spread.min(), "");
					row(csv, "max", criterion.profile(), name, "", "", spread.max(), "");
					row(csv, "cvPercent", criterion.profile(), name, "", "", spread.cvPercent(),
							spread.samples() + " samples");
				}
			}
			for (ModelVerdictView.SpreadRow spread : verdict.spreads()) {
				row(csv, "spread", (spread.profile() != null) ? spread.profile() : "",
						spread.metric() + " CV <= " + number(spread.maxCvPercent()) + " %", "", spread.outcome(),
						(spread.spread() != null) ? spread.spread().cvPercent() : null, spread.explanation());
			}
			row(csv, "model", "", "", "", verdict.outcome(), null, String.join("; ", verdict.reasons()));
		}
		return csv.toString();
	}

	private static void row(StringBuilder csv, String section, String profile, String criterion, String serial,
			String outcome, Double value, String detail) {
		csv.append(quote(section))
			.append(',')
			.append(quote(profile))
			.append(',')
			.append(quote(criterion))
			.append(',')
			.append(quote(serial))
			.append(',')
			.append(quote(outcome))
			.append(',')
			.append((value != null) ? number(value) : "")
			.append(',')
			.append(quote((detail != null) ? detail : ""))
			.append("\r\n");
	}

	private static String number(double value) {
		return (value == Math.rint(value) && Math.abs(value) < 1e15) ? String.valueOf((long) value)
				: String.format(Locale.ROOT, "%s", value);
	}

	/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
	static String quote(String field) {
		if (field == null) {
			return "";
		}
		if (field.contains(",") || field.contains("\"") || field.contains("\n") || field.contains("\r")) {
			return "\"" + field.replace("\"", "\"\"") + "\"";
		}
		return field;
	}

}

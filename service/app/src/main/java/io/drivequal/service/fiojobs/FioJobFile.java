/*
 * The ini syntax of a fio job file, as fio reads it: [section] headers, key=value or bare key
 * lines, comments starting with ; or #, blank lines. Only the syntax: what the options mean is
 * FioPlans'. A line fio would not read as one of these is refused with its number.
 */
package io.drivequal.service.fiojobs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class FioJobFile {

	private static final Pattern SECTION = Pattern.compile("\\[([^\\[\\]]+)\\]");

	private static final Pattern OPTION = Pattern.compile("([A-Za-z0-9_]+)\\s*(?:=\\s*(.*))?");

	private FioJobFile() {
	}

	/** An option as written: value null for a bare key (fio's flag form). */
	record Option(String name, String value, int line) {
	}

	/** A [name] section and its options in file order. */
	record Section(String name, int line, List<Option> options) {

		boolean isGlobal() {
			return "global".equals(this.name);
		}

	}

	/**
	 * @throws FioRefusedException naming every malformed line
	 */
	static List<Section> parse(String text) {
		List<Section> sections = new ArrayList<>();
		List<FioRefusedException.Problem> problems = new ArrayList<>();
		String[] lines = text.split("\\r?\\n", -1);
		Section current = null;
		// the options under a malformed header belong to it: one problem, not one a line
		boolean broken = false;
		for (int i = 0; i < lines.length; i++) {
			int number = i + 1;
			String line = lines[i].strip();
			if (line.isEmpty() || line.startsWith(";") || line.startsWith("#")) {
				continue;
			}
			if (line.startsWith("[")) {
				Matcher section = SECTION.matcher(line);
				if (!section.matches() || section.group(1).isBlank()) {
					problems.add(new FioRefusedException.Problem(number, null,
							"malformed section header: " + line + " (expected [name])"));
					current = null;
					broken = true;
					continue;
				}
				current = new Section(section.group(1).strip(), number, new ArrayList<>());
				broken = false;
				sections.add(current);
				continue;
			}
			Matcher option = OPTION.matcher(line);
			if (!option.matches()) {
				problems.add(new FioRefusedException.Problem(number, null,
						"malformed line: " + line + " (expected option=value, a bare option or [section])"));
				continue;
			}
			if (current == null && broken) {
				continue;
			}
			if (current == null) {
				problems.add(new FioRefusedException.Problem(number, option.group(1),
						"option outside any section (a job file starts with [global] or [job name])"));
				continue;
			}
			String value = option.group(2);
			current.options().add(new Option(option.group(1), (value != null) ? value.strip() : null, number));
		}
		if (!problems.isEmpty()) {
			throw new FioRefusedException("the job file is malformed", problems);
		}
		if (sections.stream().allMatch(Section::isGlobal)) {
			throw new FioRefusedException("the job file has no job",
					List.of(new FioRefusedException.Problem(Math.max(1, lines.length), null,
							"no job section: add [name] with the job's options")));
		}
		return sections;
	}

}

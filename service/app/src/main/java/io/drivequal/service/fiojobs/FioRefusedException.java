/*
 * A fio job file refused: every problem with its line and, where one is at fault, the option, so
 * the buyer can fix the file; a 400 with them listed (FioPlanController).
 */
package io.drivequal.service.fiojobs;

import java.util.List;

class FioRefusedException extends RuntimeException {

	private final transient List<Problem> problems;

	FioRefusedException(String message, List<Problem> problems) {
		super(message + ": " + problems.get(0).describe()
				+ ((problems.size() > 1) ? " (and " + (problems.size() - 1) + " more)" : ""));
		this.problems = List.copyOf(problems);
	}

	List<Problem> problems() {
		return this.problems;
	}

	/**
	 * @param option the option at fault, or null (a malformed line)
	 */
	record Problem(int line, String option, String message) {

		String describe() {
			return "line " + this.line + ((this.option != null) ? ", " + this.option : "") + ": " + this.message;
		}

	}

}

/*
 * POST /api/v1/plans/fio: a fio job file in, the plan it becomes out (phases to submit as
 * plan.phases), or a 400 listing each refused option with its line.
 */
package io.drivequal.service.fiojobs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.drivequal.service.catalog.PhaseSpec;
import io.swagger.v3.oas.annotations.Operation;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class FioPlanController {

	/** The largest job file read: buyers' files are a few hundred lines. */
	static final int MAX_JOB_FILE_CHARS = 65_536;

	/**
	 * @param phases multi-stream workload phases in the contract's form, ready for
	 * plan.phases
	 * @param notes options read that do not change the IO (engine, target, logs), each
	 * with its line
	 */
	record FioPlanResponse(List<PhaseSpec> phases, List<String> notes) {
	}

	@Operation(summary = "Turn a fio job file into a plan of multi-stream phases",
			description = "Supported options and what each becomes: docs/user-guide.md. Any other option, a value the"
					+ " runner cannot honour and any malformed line is refused (400) with its line and option.")
	@PostMapping(path = "/api/v1/plans/fio", consumes = MediaType.TEXT_PLAIN_VALUE)
	FioPlanResponse plan(@RequestBody String jobFile) {
		if (jobFile.length() > MAX_JOB_FILE_CHARS) {
			throw new FioRefusedException("the job file is too large", List.of(new FioRefusedException.Problem(1, null,
					jobFile.length() + " characters; at most " + MAX_JOB_FILE_CHARS)));
		}
		FioPlans.FioPlan plan = FioPlans.of(jobFile);
		return new FioPlanResponse(plan.phases(), plan.notes());
	}

	/**
	 * Like every 400's errors[]: field and message; here also the line and the option.
	 */
	private static Map<String, Object> error(FioRefusedException.Problem problem) {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("field", "line " + problem.line() + ((problem.option() != null) ? ": " + problem.option() : ""));
		error.put("line", problem.line());
		if (problem.option() != null) {
			error.put("option", problem.option());
		}
		error.put("message", problem.message());
		return error;
	}

	@ExceptionHandler(FioRefusedException.class)
	ProblemDetail refused(FioRefusedException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
		problem.setTitle("Invalid request");
		problem.setProperty("errors", ex.problems().stream().map(FioPlanController::error).toList());
		return problem;
	}

}

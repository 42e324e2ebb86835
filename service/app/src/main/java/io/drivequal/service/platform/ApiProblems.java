/*
 * Every error of the API as RFC 9457 problem details: a missing resource is a 404, bad input a 400
 * that names the field, an illegal state transition a 409, a plan the drive cannot run a 422 naming
 * what it lacks — never a 500 for the caller's mistake.
 */
package io.drivequal.service.platform;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.drivequal.analysis.Criterion;
import jakarta.validation.ConstraintViolationException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

@RestControllerAdvice
class ApiProblems extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ApiProblems.class);

	@ExceptionHandler(NotFoundException.class)
	ProblemDetail notFound(NotFoundException ex) {
		return problem(HttpStatus.NOT_FOUND, "Not found", ex.getMessage());
	}

	@ExceptionHandler(ConflictException.class)
	ProblemDetail conflict(ConflictException ex) {
		return problem(HttpStatus.CONFLICT, "Conflict", ex.getMessage());
	}

	@ExceptionHandler(UnprocessableException.class)
	ProblemDetail unprocessable(UnprocessableException ex) {
		ProblemDetail problem = problem(HttpStatus.UNPROCESSABLE_ENTITY, "The drive cannot run this plan",
				ex.getMessage());
		problem.setProperty("missingCapabilities", ex.missingCapabilities());
		return problem;
	}

	@ExceptionHandler(ForbiddenException.class)
	ProblemDetail forbidden(ForbiddenException ex) {
		return problem(HttpStatus.FORBIDDEN, "Forbidden", ex.getMessage());
	}

	@ExceptionHandler(BadRequestException.class)
	ProblemDetail badRequest(BadRequestException ex) {
		ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request", ex.getMessage());
		problem.setProperty("errors", ex.errors());
		return problem;
	}

	@ExceptionHandler(MethodArgumentTypeMismatchException.class)
	ProblemDetail typeMismatch(MethodArgumentTypeMismatchException ex) {
		String message = "must be a valid "
				+ ((ex.getRequiredType() != null) ? ex.getRequiredType().getSimpleName().toLowerCase() : "value");
		ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request", ex.getName() + ": " + message);
		problem.setProperty("errors", List.of(Map.of("field", ex.getName(), "message", message)));
		return problem;
	}

	/**
	 * A body that claims to be multipart but cannot be parsed is the caller's mistake
	 * (found by the fault suite's fuzzer: it was a 500). Too large an upload keeps its
	 * 413.
	 */
	@ExceptionHandler(MultipartException.class)
	ProblemDetail malformedMultipart(MultipartException ex) {
		return problem(HttpStatus.BAD_REQUEST, "Invalid request",
				"the multipart body cannot be parsed: " + mostSpecific(ex));
	}

	/**
	 * A query string the servlet container cannot parse (e.g. {@code ?=-412}, a value
	 * without a name): Tomcat reports it only when a parameter is read, as an exception
	 * that was a 500 (found by the fault suite's fuzzer).
	 */
	@ExceptionHandler(InvalidParameterException.class)
	ProblemDetail malformedQuery(InvalidParameterException ex) {
		return problem(HttpStatus.BAD_REQUEST, "Invalid request",
				"the query string cannot be parsed: " + mostSpecific(ex));
	}

	@ExceptionHandler(ConstraintViolationException.class)
	ProblemDetail constraintViolation(ConstraintViolationException ex) {
		List<Map<String, String>> errors = ex.getConstraintViolations()
			.stream()
			.map((violation) -> Map.of("field", leaf(violation.getPropertyPath().toString()), "message",
					violation.getMessage()))
			.toList();
		ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request", summary(errors));
		problem.setProperty("errors", errors);
		return problem;
	}

	@Override
	protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		List<Map<String, String>> errors = ex.getBindingResult()
			.getFieldErrors()
			.stream()
			.map((FieldError error) -> Map.of("field", error.getField(), "message",
					String.valueOf(error.getDefaultMessage())))
			.toList();
		ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request", summary(errors));
		problem.setProperty("errors", errors);
		return ResponseEntity.badRequest().body(problem);
	}

	@Override
	protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		List<Map<String, String>> errors = ex.getParameterValidationResults()
			.stream()
			.flatMap((result) -> result.getResolvableErrors()
				.stream()
				.map((error) -> Map.of("field", String.valueOf(result.getMethodParameter().getParameterName()),
						"message", String.valueOf(error.getDefaultMessage()))))
			.toList();
		ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request", summary(errors));
		problem.setProperty("errors", errors);
		return ResponseEntity.badRequest().body(problem);
	}

	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		Criterion.Invalid criterion = criterionProblem(ex);
		if (criterion != null) {
			// read once, at submission: the criterion's member that is wrong, as
			// criteria[i].metric
			String at = criterionPath(ex);
			String field = ((at != null) ? at + "." : "") + criterion.member();
			ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request",
					field + ": " + criterion.getMessage());
			problem.setProperty("errors", List.of(Map.of("field", field, "message", criterion.getMessage())));
			return ResponseEntity.badRequest().body(problem);
		}
		String field = fieldOf(ex);
		String detail = "the body is not valid JSON for this request: " + ((field != null) ? field + ": " : "")
				+ mostSpecific(ex);
		ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, "Invalid request", detail);
		if (field != null) {
			// A value of the wrong type (a string where a number belongs) names its
			// field,
			// as a bean-validation error does.
			problem.setProperty("errors", List.of(Map.of("field", field, "message", mostSpecific(ex))));
		}
		return ResponseEntity.badRequest().body(problem);
	}

	/**
	 * Elasticsearch or Kafka unreachable or overloaded: the caller may retry, it did
	 * nothing wrong.
	 */
	@ExceptionHandler({ UncheckedIOException.class, TransientIndexingException.class })
	ResponseEntity<ProblemDetail> storageUnavailable(RuntimeException ex) {
		log.warn("storage unavailable while answering a request: {}", ex.toString());
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, "5")
			.body(problem(HttpStatus.SERVICE_UNAVAILABLE, "Storage unavailable",
					"Elasticsearch did not answer; retry in a few seconds"));
	}

	@ExceptionHandler(Exception.class)
	ProblemDetail unexpected(Exception ex) {
		log.error("Unexpected error answering a request", ex);
		return problem(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error",
				"the service failed to answer; the error is logged");
	}

	private static ProblemDetail problem(HttpStatus status, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle(title);
		return problem;
	}

	private static String summary(List<Map<String, String>> errors) {
		return String.join("; ", errors.stream().map((e) -> e.get("field") + ": " + e.get("message")).toList());
	}

	private static String leaf(String path) {
		int dot = path.indexOf('.');
		return (dot >= 0) ? path.substring(dot + 1) : path;
	}

	private static Criterion.Invalid criterionProblem(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof Criterion.Invalid invalid) {
				return invalid;
			}
		}
		return null;
	}

	/** Where the criterion is in the body, e.g. "criteria[2]". */
	private static String criterionPath(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof tools.jackson.core.JacksonException jackson && !jackson.getPath().isEmpty()) {
				StringBuilder path = new StringBuilder();
				for (tools.jackson.core.JacksonException.Reference reference : jackson.getPath()) {
					if (reference.getPropertyName() != null) {
						path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
					}
					else {
						path.append('[').append(reference.getIndex()).append(']');
					}
				}
				return path.toString();
			}
		}
		return null;
	}

	/** The JSON path of the value Jackson could not read, e.g. "drive.capacityBytes". */
	private static String fieldOf(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof tools.jackson.core.JacksonException jackson && !jackson.getPath().isEmpty()) {
				List<String> names = new ArrayList<>();
				for (tools.jackson.core.JacksonException.Reference reference : jackson.getPath()) {
					names.add((reference.getPropertyName() != null) ? reference.getPropertyName()
							: String.valueOf(reference.getIndex()));
				}
				return String.join(".", names);
			}
		}
		return null;
	}

	private static String mostSpecific(Throwable ex) {
		Throwable cause = ex;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		String message = String.valueOf(cause.getMessage());
		int newline = message.indexOf('\n');
		return (newline > 0) ? message.substring(0, newline) : message;
	}

}

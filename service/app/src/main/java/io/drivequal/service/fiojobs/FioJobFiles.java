/*
 * fio job files named in a plan (plan.fio): the file's text inline or the name of a shipped one,
 * through the very translation POST /api/v1/plans/fio answers with; a refusal is a 400 under the
 * plan's field path, each problem with its line and option, before anything is queued.
 */
package io.drivequal.service.fiojobs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.platform.BadRequestException;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

public final class FioJobFiles {

	/**
	 * Where the shipped job files are on the classpath: the schemas jar carries the
	 * accepted examples (schemas/examples/fio-jobs/accepted/), the files fio's own parser
	 * is checked against.
	 */
	static final String SHIPPED = "drivequal/schemas/examples/fio-jobs/accepted/";

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

	private FioJobFiles() {
	}

	/** The names a plan may give as plan.fio.name, sorted. */
	public static List<String> shippedNames() {
		try {
			Resource[] files = new PathMatchingResourcePatternResolver(FioJobFiles.class.getClassLoader())
				.getResources("classpath*:" + SHIPPED + "*.fio");
			return Arrays.stream(files)
				.map(Resource::getFilename)
				.filter(Objects::nonNull)
				.map((file) -> file.substring(0, file.length() - ".fio".length()))
				.distinct()
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot list the shipped fio job files", ex);
		}
	}

	/** A shipped job file's text, or empty when no file has that name. */
	public static Optional<String> shipped(String name) {
		if (name == null || !NAME.matcher(name).matches()) {
			return Optional.empty();
		}
		try (InputStream in = FioJobFiles.class.getClassLoader().getResourceAsStream(SHIPPED + name + ".fio")) {
			return (in != null) ? Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8)) : Optional.empty();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read the shipped fio job file " + name, ex);
		}
	}

	/**
	 * The phases a job file becomes, exactly as POST /api/v1/plans/fio answers them.
	 * @param name a shipped job file's name, or null
	 * @param jobFile the file's text, or null; exactly one of name and jobFile
	 * @param field the request's field holding them, e.g. plan.fio
	 * @throws BadRequestException under {@code field}.name or {@code field}.jobFile, each
	 * refused option or malformed line with its line number
	 */
	public static List<PhaseSpec> phases(String name, String jobFile, String field) {
		if ((name == null) == (jobFile == null)) {
			throw new BadRequestException(field, "give either name (a shipped job file: "
					+ String.join(", ", shippedNames()) + ") or jobFile (the file's text), exactly one");
		}
		String source = (name != null) ? field + ".name" : field + ".jobFile";
		String text = (name != null)
				? shipped(name).orElseThrow(() -> new BadRequestException(source,
						"no shipped fio job file named " + name + "; shipped: " + String.join(", ", shippedNames())))
				: jobFile;
		if (text.length() > FioPlanController.MAX_JOB_FILE_CHARS) {
			throw new BadRequestException(source,
					text.length() + " characters; a job file has at most " + FioPlanController.MAX_JOB_FILE_CHARS);
		}
		try {
			return FioPlans.of(text).phases();
		}
		catch (FioRefusedException ex) {
			throw new BadRequestException(source, ex.getMessage(),
					ex.problems().stream().map((problem) -> error(source, problem)).toList());
		}
	}

	private static Map<String, Object> error(String field, FioRefusedException.Problem problem) {
		Map<String, Object> error = new LinkedHashMap<>();
		error.put("field", field);
		error.put("line", problem.line());
		if (problem.option() != null) {
			error.put("option", problem.option());
		}
		error.put("message", problem.describe());
		return error;
	}

}

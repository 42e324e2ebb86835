/*
 * A fio job file named in a plan (plan.fio): a shipped file by name and the same text inline both
 * become the phases POST /api/v1/plans/fio answers; a refused option or a malformed line is a 400
 * under plan.fio.jobFile (or plan.fio.name) with the line and the option; a name that is not
 * shipped, or neither or both of name and jobFile, are 400s naming the field.
 */
package io.drivequal.service.fiojobs;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.platform.BadRequestException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class FioJobFilesTest {

	@Test
	void everyAcceptedExampleIsShippedUnderItsName() throws IOException {
		List<String> examples;
		try (var files = Files.list(FioPlansTest.EXAMPLES.resolve("accepted"))) {
			examples = files.map((file) -> file.getFileName().toString().replaceFirst("\\.fio$", "")).sorted().toList();
		}
		assertThat(examples).isNotEmpty();
		assertThat(FioJobFiles.shippedNames()).isEqualTo(examples);
		for (String name : examples) {
			assertThat(FioJobFiles.shipped(name))
				.contains(Files.readString(FioPlansTest.EXAMPLES.resolve("accepted/" + name + ".fio")));
		}
	}

	@Test
	void aShippedNameAndTheSameTextInlineBecomeThePlanOfPlansFio() throws IOException {
		String text = Files.readString(FioPlansTest.EXAMPLES.resolve("accepted/read-latency-at-load.fio"));
		List<PhaseSpec> expected = new FioPlanController().plan(text).phases();
		assertThat(expected).hasSize(3);
		assertThat(FioJobFiles.phases("read-latency-at-load", null, "plan.fio")).isEqualTo(expected);
		assertThat(FioJobFiles.phases(null, text, "plan.fio")).isEqualTo(expected);
		assertThat(expected.get(1).name()).isEqualTo("fio-2-reads-80k");
		assertThat(expected.get(1).streams()).extracting((stream) -> stream.name())
			.containsExactly("reads-80k", "writer-2");
	}

	@Test
	void anUnsupportedOptionIsRefusedUnderTheFieldWithItsLineAndName() throws IOException {
		BadRequestException refused = refused("refused/zipf-distribution.fio");
		assertThat(refused.field()).isEqualTo("plan.fio.jobFile");
		assertThat(refused.getMessage()).contains("line 11").contains("random_distribution");
		assertThat(refused.errors()).hasSize(1);
		Map<String, Object> error = refused.errors().get(0);
		assertThat(error).containsEntry("field", "plan.fio.jobFile")
			.containsEntry("line", 11)
			.containsEntry("option", "random_distribution");
		assertThat((String) error.get("message")).startsWith("line 11, random_distribution: ");
	}

	@Test
	void aMalformedFileIsRefusedWithTheLine() throws IOException {
		BadRequestException refused = refused("refused/missing-equals.fio");
		assertThat(refused.field()).isEqualTo("plan.fio.jobFile");
		assertThat(refused.errors()).singleElement()
			.satisfies((error) -> assertThat(error).containsEntry("line", 10).doesNotContainKey("option"));
		assertThat(refused.getMessage()).contains("line 10").contains("malformed");
	}

	@Test
	void everyProblemOfAFileIsListed() {
		String text = """
				[global]
				ioengine=psync
				time_based
				runtime=60

				[reads]
				rw=randread
				zonemode=zbd
				""";
		BadRequestException refused = catchThrowableOfType(BadRequestException.class,
				() -> FioJobFiles.phases(null, text, "profiles[1].fio"));
		assertThat(refused.field()).isEqualTo("profiles[1].fio.jobFile");
		assertThat(refused.errors()).extracting((error) -> error.get("option"))
			.contains("ioengine", "zonemode", "direct", "norandommap");
		assertThat(refused.errors()).extracting((error) -> error.get("line")).contains(2, 8);
	}

	@Test
	void aNameThatIsNotShippedIsRefusedListingTheShippedOnes() {
		BadRequestException refused = catchThrowableOfType(BadRequestException.class,
				() -> FioJobFiles.phases("../../application", null, "plan.fio"));
		assertThat(refused.field()).isEqualTo("plan.fio.name");
		assertThat(refused.getMessage()).contains("read-latency-at-load").contains("flash-read-write-trim");
		assertThat(FioJobFiles.shipped("zipf-distribution")).isEmpty();
	}

	@Test
	void neitherOrBothOfNameAndJobFileAreRefused() {
		for (String[] given : new String[][] { { null, null }, { "read-latency-at-load", "[reads]\nrw=read\n" } }) {
			BadRequestException refused = catchThrowableOfType(BadRequestException.class,
					() -> FioJobFiles.phases(given[0], given[1], "plan.fio"));
			assertThat(refused.field()).isEqualTo("plan.fio");
			assertThat(refused.getMessage()).contains("exactly one");
		}
	}

	@Test
	void aFileOverTheLimitIsRefusedBeforeItIsRead() {
		String text = "; " + "x".repeat(FioPlanController.MAX_JOB_FILE_CHARS) + "\n[reads]\n";
		BadRequestException refused = catchThrowableOfType(BadRequestException.class,
				() -> FioJobFiles.phases(null, text, "plan.fio"));
		assertThat(refused.field()).isEqualTo("plan.fio.jobFile");
		assertThat(refused.getMessage()).contains("at most " + FioPlanController.MAX_JOB_FILE_CHARS);
	}

	private static BadRequestException refused(String example) throws IOException {
		String text = Files.readString(FioPlansTest.EXAMPLES.resolve(example));
		return catchThrowableOfType(BadRequestException.class, () -> FioJobFiles.phases(null, text, "plan.fio"));
	}

}

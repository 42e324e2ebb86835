/*
 * fio job files in: every shipped accepted example becomes the plan fio's own parser reads from
 * it (fio --parse-only accepts it; fio --debug=parse gives the numbers each option became, and
 * the plan holds the same; fio --showcmd's re-emission of the file gives the same plan), and every
 * shipped refused example is refused with the line and option its header comment names. The
 * machine's fio (Debian's package) must be on the PATH.
 */
package io.drivequal.service.fiojobs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.StreamSpec;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class FioPlansTest {

	static final Path EXAMPLES = Path.of("../../schemas/examples/fio-jobs");

	private static final Pattern HANDLE = Pattern.compile("handle_option=([a-z_]+), ptr=(.*)");

	private static final Pattern OUT = Pattern.compile("ret=0, out=(\\d+)");

	private static final Pattern PERCENT_SET = Pattern.compile("SET ([a-z_]+) (\\d+)");

	private static final Pattern SECTION = Pattern.compile("Parsing section \\[(.*)\\]");

	@TestFactory
	Stream<DynamicTest> acceptedExamplesBecomeThePlanFiosOwnParserReads() throws IOException {
		return files("accepted").map((file) -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
			String text = Files.readString(file);
			FioPlans.FioPlan plan = FioPlans.of(text);
			System.out.println(file.getFileName() + " ->\n"
					+ JsonMapper.builder().build().writerWithDefaultPrettyPrinter().writeValueAsString(plan));
			assertThat(fio("--parse-only", file.toString()).exitCode()).as("fio --parse-only " + file).isZero();
			Map<String, Map<String, String>> parsed = fioParsed(file);
			for (PhaseSpec phase : plan.phases()) {
				for (StreamSpec stream : phase.streams()) {
					Map<String, String> fio = parsed.get(stream.name());
					assertThat(fio).as("fio parsed job " + stream.name()).isNotNull();
					assertThat(Long.parseLong(fio.get("runtime")) / 1_000_000).as("runtime")
						.isEqualTo(phase.runtimeS());
					expect(fio, "iodepth", stream.queueDepth());
					expect(fio, "bs", stream.blockSizeBytes());
					expect(fio, "rate", stream.rateBytesPerS());
					expect(fio, "rate_iops", stream.rateIops());
					expect(fio, "thinktime", stream.thinkTimeUs());
					expect(fio, "thinktime_blocks", stream.thinkTimeBlocks());
					expect(fio, "offset", stream.offsetBytes(), stream.offsetPercent(), "start_offset_percent");
					expect(fio, "size", stream.rangeBytes(), stream.rangePercent(), "size_percent");
					expect(fio, "percentage_random", stream.randomPercent());
					assertThat(fio.get("rw:ptr")).as("rw").isEqualTo(stream.rw());
				}
			}
			// fio's own re-emission of the file, read back, is the same plan
			String showcmd = fio("--showcmd", file.toString()).out().strip();
			assertThat(FioPlans.of(iniOf(showcmd)).phases()).isEqualTo(plan.phases());
		}));
	}

	@Test
	void theFlashExampleIsFourStreamsAsWritten() {
		FioPlans.FioPlan plan = FioPlans.of(read("accepted/flash-read-write-trim.fio"));
		assertThat(plan.phases()).hasSize(1);
		PhaseSpec phase = plan.phases().get(0);
		assertThat(phase.runtimeS()).isEqualTo(600);
		assertThat(phase.streams()).extracting(StreamSpec::name)
			.containsExactly("reads", "writes", "trims-64m", "trims-2g");
		StreamSpec reads = phase.streams().get(0);
		assertThat(reads.rateBytesPerS()).isEqualTo(400L * 1024 * 1024);
		assertThat(reads.arrivals()).isEqualTo("poisson");
		assertThat(reads.blockSizeSplit()).containsExactly(new StreamSpec.SplitShare(4096, 60),
				new StreamSpec.SplitShare(65536, 30), new StreamSpec.SplitShare(131072, 10));
		assertThat(phase.streams().get(3).blockSizeBytes()).isEqualTo(2L << 30);
		assertThat(phase.streams().get(3).thinkTimeUs()).isEqualTo(4_000_000L);
		assertThat(phase.streams().get(3).offsetPercent()).isEqualTo(50.0);
		assertThat(plan.notes()).anyMatch((note) -> note.startsWith("line 12: filename"));
	}

	@Test
	void stonewallStartsTheNextPhase() {
		FioPlans.FioPlan plan = FioPlans.of(read("accepted/read-latency-at-load.fio"));
		assertThat(plan.phases()).extracting(PhaseSpec::name)
			.containsExactly("fio-1-reads-20k", "fio-2-reads-80k", "fio-3-reads-160k");
		assertThat(plan.phases().get(1).streams()).extracting(StreamSpec::rateIops).containsExactly(80000L, null);
	}

	@Test
	void anUnsupportedOptionIsRefusedWithItsNameAndLine() {
		assertRefused("refused/zipf-distribution.fio", 11, "random_distribution");
	}

	@Test
	void aMalformedLineIsRefusedWithItsLine() {
		assertRefused("refused/missing-equals.fio", 10, null);
		assertRefused("refused/unclosed-section.fio", 9, null);
		// fio agrees on the first, and reads the second as a job named "write"
		assertThat(fio("--parse-only", EXAMPLES.resolve("refused/missing-equals.fio").toString()).exitCode())
			.isNotZero();
		assertThat(fio("--showcmd", EXAMPLES.resolve("refused/unclosed-section.fio").toString()).out())
			.contains("--name=write ");
	}

	@Test
	void fiosDefaultsTheRunnerDoesNotShareAreRefusedNotAssumed() {
		String file = """
				[reads]
				rw=randread
				time_based
				runtime=10
				""";
		assertThatExceptionOfType(FioRefusedException.class).isThrownBy(() -> FioPlans.of(file))
			.satisfies((ex) -> assertThat(ex.problems()).extracting(FioRefusedException.Problem::option)
				.containsExactly("direct", "norandommap"));
		assertThatExceptionOfType(FioRefusedException.class)
			.isThrownBy(() -> FioPlans.of("[w]\ndirect=1\nrw=write\nruntime=10\n"))
			.satisfies((ex) -> assertThat(ex.problems().get(0).option()).isEqualTo("time_based"));
		assertThatExceptionOfType(FioRefusedException.class)
			.isThrownBy(() -> FioPlans.of("[w]\ndirect=1\nrw=write\ntime_based\nruntime=10\nioengine=psync\n"))
			.satisfies((ex) -> assertThat(ex.problems().get(0).describe()).startsWith("line 6, ioengine"));
	}

	@Test
	void mixesNumjobsAndUnitsReadAsFioReadsThem() {
		FioPlans.FioPlan plan = FioPlans.of("""
				[global]
				direct=1
				time_based
				runtime=2m
				norandommap
				[oltp]
				rw=randrw
				rwmixwrite=30
				bs=8k
				iodepth=16
				numjobs=3
				startdelay=2
				size=1g
				""");
		PhaseSpec phase = plan.phases().get(0);
		assertThat(phase.runtimeS()).isEqualTo(120);
		assertThat(phase.streams()).extracting(StreamSpec::name).containsExactly("oltp.0", "oltp.1", "oltp.2");
		StreamSpec stream = phase.streams().get(0);
		assertThat(stream.readPercent()).isEqualTo(70);
		assertThat(stream.blockSizeBytes()).isEqualTo(8192);
		assertThat(stream.rangeBytes()).isEqualTo(1L << 30);
		assertThat(stream.startDelayMs()).isEqualTo(2000);
		assertThat(FioPlans.of("[m]\ndirect=1\ntime_based\nruntime=1\nrw=rw\n")
			.phases()
			.get(0)
			.streams()
			.get(0)
			.readPercent()).as("fio's default rwmixread").isEqualTo(50);
		assertThatExceptionOfType(FioRefusedException.class)
			.isThrownBy(() -> FioPlans.of("[m]\ndirect=1\ntime_based\nruntime=1\nrw=write\nnumjobs=9\n"))
			.satisfies((ex) -> assertThat(ex.problems().get(0).option()).isEqualTo("numjobs"));
	}

	@Test
	void fdpPliIsTheStreamsPlacementHandle() {
		// fio 3.34+ options (Debian's 3.33 lacks them), so checked here rather than
		// against fio
		String job = "[hot]\ndirect=1\ntime_based\nruntime=60\nrw=randwrite\nnorandommap\nfdp=1\nfdp_pli=%s\n";
		assertThat(FioPlans.of(job.formatted("3")).phases().get(0).streams().get(0).placementHandle()).isEqualTo(3);
		assertThatExceptionOfType(FioRefusedException.class)
			.isThrownBy(() -> FioPlans.of(job.replace("fdp=1\n", "").formatted("3")))
			.satisfies((ex) -> assertThat(ex.problems().get(0).message()).contains("needs fdp=1"));
		// a list of placement IDs (fio's round robin) is not run: one handle per stream
		assertThatExceptionOfType(FioRefusedException.class).isThrownBy(() -> FioPlans.of(job.formatted("0,1")))
			.satisfies((ex) -> assertThat(ex.problems().get(0).option()).isEqualTo("fdp_pli"));
		assertThat(
				FioPlans.of(job.replace("fdp=1\nfdp_pli=%s\n", "")).phases().get(0).streams().get(0).placementHandle())
			.isNull();
	}

	private static void assertRefused(String example, int line, String option) {
		assertThatExceptionOfType(FioRefusedException.class).isThrownBy(() -> FioPlans.of(read(example)))
			.satisfies((ex) -> {
				assertThat(ex.problems()).hasSize(1);
				assertThat(ex.problems().get(0).line()).isEqualTo(line);
				assertThat(ex.problems().get(0).option()).isEqualTo(option);
				System.out.println(example + " -> " + ex.getMessage());
			});
	}

	/** A size or offset in bytes, or as a share of the target (fio: SET ..._percent). */
	private static void expect(Map<String, String> fio, String option, Long bytes, Double percent, String percentName) {
		if (percent != null) {
			assertThat(fio.get(percentName)).as(option + " percent as fio parsed it")
				.isEqualTo(String.valueOf(percent.longValue()));
			return;
		}
		expect(fio, option, bytes);
	}

	private static void expect(Map<String, String> fio, String option, Number planned) {
		if (planned == null) {
			assertThat(fio.get(option)).as(option + " absent from the plan, so from the file").isNull();
			return;
		}
		assertThat(fio.get(option)).as(option + " as fio parsed it").isEqualTo(String.valueOf(planned.longValue()));
	}

	/**
	 * fio --debug=parse: each section's options and the numbers fio made of them (out=),
	 * strings as rw:ptr; the global section's options apply to every job.
	 */
	private static Map<String, Map<String, String>> fioParsed(Path file) {
		Map<String, Map<String, String>> sections = new LinkedHashMap<>();
		Map<String, String> global = new HashMap<>();
		Map<String, String> current = null;
		String option = null;
		for (String line : fio("--debug=parse", "--parse-only", file.toString()).out().split("\n")) {
			Matcher section = SECTION.matcher(line);
			Matcher handle = HANDLE.matcher(line);
			Matcher out = OUT.matcher(line);
			if (section.find()) {
				current = "global".equals(section.group(1)) ? global : new HashMap<>(global);
				if (current != global) {
					sections.put(section.group(1), current);
				}
			}
			else if (line.contains("__handle_option")) {
				continue;
			}
			else if (handle.find()) {
				option = handle.group(1);
				current.put(option + ":ptr", handle.group(2));
			}
			else if (PERCENT_SET.matcher(line).find()) {
				Matcher set = PERCENT_SET.matcher(line);
				set.find();
				current.put(set.group(1), set.group(2));
			}
			else if (out.find() && option != null) {
				current.put(option, out.group(1));
			}
		}
		// a job inherits what global set before it
		sections.replaceAll((name, options) -> {
			Map<String, String> merged = new HashMap<>(global);
			merged.putAll(options);
			return merged;
		});
		return sections;
	}

	/** fio --showcmd's one line back into a job file: --name=X opens section X. */
	private static String iniOf(String showcmd) {
		List<String> lines = new ArrayList<>(List.of("[global]"));
		for (String word : showcmd.split("\\s+")) {
			if (!word.startsWith("--")) {
				continue;
			}
			String option = word.substring(2);
			lines.add(option.startsWith("name=") ? "[" + option.substring(5) + "]" : option);
		}
		return String.join("\n", lines) + "\n";
	}

	private record Run(int exitCode, String out) {
	}

	private static Run fio(String... arguments) {
		List<String> command = new ArrayList<>(List.of("fio"));
		command.addAll(List.of(arguments));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
			return new Run(process.exitValue(), out);
		}
		catch (IOException ex) {
			throw new AssertionError("fio (Debian's package) must be on the PATH: " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError(ex);
		}
	}

	private static String read(String example) {
		try {
			return Files.readString(EXAMPLES.resolve(example));
		}
		catch (IOException ex) {
			throw new AssertionError(ex);
		}
	}

	private static Stream<Path> files(String kind) throws IOException {
		try (Stream<Path> list = Files.list(EXAMPLES.resolve(kind))) {
			List<Path> files = list.filter((f) -> f.toString().endsWith(".fio")).sorted().toList();
			assertThat(files).isNotEmpty();
			return files.stream();
		}
	}

}

/*
 * A fio job file's meaning, for the subset of fio the runner implements: each job becomes a stream
 * (numjobs=N, N streams), jobs run side by side in one workload phase, and a job with stonewall
 * or new_group starts the next phase, as fio's groups do. Every value means what fio's own parser
 * makes of it (sizes in powers of 1024, runtime in seconds, thinktime in microseconds; the
 * examples are checked against fio --debug=parse). Anything else is refused with the option and
 * its line: an unknown option, a value the runner cannot honour, or a default of fio's that the
 * runner does not share (buffered IO, the random map), so no file runs as a different workload.
 */
package io.drivequal.service.fiojobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.StreamSpec;

final class FioPlans {

	/** The contract's limit on streams in one phase. */
	static final int MAX_STREAMS = 8;

	/**
	 * Options that only name, seed or report, and do not change the IO the drive sees.
	 */
	private static final Set<String> NOT_WORKLOAD = Set.of("description", "group_reporting", "write_bw_log",
			"write_iops_log", "write_lat_log", "log_avg_msec", "per_job_logs", "percentile_list", "lat_percentiles",
			"clat_percentiles", "randrepeat", "randseed");

	/** The job's target: the drive of the job replaces it. */
	private static final Set<String> TARGET = Set.of("filename", "directory");

	/** Engines whose iodepth is a queue depth, as the runner's engines keep one. */
	private static final Set<String> ASYNC_ENGINES = Set.of("libaio", "io_uring", "io_uring_cmd");

	private static final Set<String> PATTERNS = Set.of("read", "write", "rw", "readwrite", "randread", "randwrite",
			"randrw", "trim", "randtrim");

	private static final Pattern SIZE = Pattern.compile("(\\d+)([kmgtp]?)", Pattern.CASE_INSENSITIVE);

	private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?)%");

	private static final Pattern TIME = Pattern.compile("(\\d+)(us|usec|ms|msec|s|sec|m|min|h)?",
			Pattern.CASE_INSENSITIVE);

	private FioPlans() {
	}

	/** The plan and what was read but has no effect on the runner's IO. */
	record FioPlan(List<PhaseSpec> phases, List<String> notes) {
	}

	/**
	 * @throws FioRefusedException with every option it cannot run as fio would, or the
	 * malformed lines
	 */
	static FioPlan of(String text) {
		List<FioJobFile.Section> sections = FioJobFile.parse(text);
		List<FioRefusedException.Problem> problems = new ArrayList<>();
		List<String> notes = new ArrayList<>();
		List<List<Job>> groups = new ArrayList<>();
		Map<String, FioJobFile.Option> global = new LinkedHashMap<>();
		for (FioJobFile.Section section : sections) {
			if (section.isGlobal()) {
				section.options().forEach((option) -> global.put(option.name(), option));
				continue;
			}
			Map<String, FioJobFile.Option> options = new LinkedHashMap<>(global);
			section.options().forEach((option) -> options.put(option.name(), option));
			Job job = Job.read(section, options, problems, notes);
			if (job == null) {
				continue;
			}
			if (groups.isEmpty() || job.newGroup) {
				groups.add(new ArrayList<>());
			}
			groups.get(groups.size() - 1).add(job);
		}
		List<PhaseSpec> phases = new ArrayList<>();
		for (List<Job> group : groups) {
			phases.add(phase(phases.size(), group, groups.size(), problems));
		}
		if (!problems.isEmpty()) {
			throw new FioRefusedException("the job file asks for what the runner does not do", problems);
		}
		return new FioPlan(phases, notes.stream().distinct().toList());
	}

	private static PhaseSpec phase(int index, List<Job> group, int groupCount,
			List<FioRefusedException.Problem> problems) {
		Job first = group.get(0);
		List<StreamSpec> streams = new ArrayList<>();
		for (Job job : group) {
			if (job.runtimeS != first.runtimeS) {
				problems.add(new FioRefusedException.Problem(job.runtimeLine, "runtime", "job " + job.name + " runs "
						+ job.runtimeS + " s beside " + first.name + "'s " + first.runtimeS
						+ " s: the jobs of a group (one phase) share one runtime; separate them with stonewall"));
			}
			for (int copy = 0; copy < job.numjobs; copy++) {
				streams.add(job.stream((job.numjobs > 1) ? job.name + "." + copy : job.name));
			}
		}
		if (streams.size() > MAX_STREAMS) {
			problems.add(new FioRefusedException.Problem(first.line, "numjobs", streams.size()
					+ " jobs (numjobs included) run side by side in this group; a phase runs at most " + MAX_STREAMS));
		}
		String name = (groupCount == 1) ? "fio" : "fio-" + (index + 1) + "-" + phaseName(first.name);
		return PhaseSpec.ofStreams(index, name.substring(0, Math.min(64, name.length())), first.runtimeS, streams);
	}

	/** The contract's phase name: lower case letters, digits and dashes. */
	private static String phaseName(String jobName) {
		String name = jobName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-+|-+$)", "");
		return name.isEmpty() ? "job" : name;
	}

	/**
	 * One job section with its global options applied, as the runner's stream needs it.
	 */
	private static final class Job {

		String name;

		int line;

		boolean newGroup;

		String rw = "read";

		Integer readPercent;

		Integer randomPercent;

		Long blockSizeBytes = 4096L;

		List<StreamSpec.SplitShare> split;

		int queueDepth = 1;

		Long offsetBytes;

		Double offsetPercent;

		Long rangeBytes;

		Double rangePercent;

		Long rateIops;

		Long rateBytesPerS;

		String arrivals;

		Long thinkTimeUs;

		Long thinkTimeBlocks;

		Long startDelayMs;

		Integer placementHandle;

		int numjobs = 1;

		long runtimeS;

		int runtimeLine;

		StreamSpec stream(String streamName) {
			return new StreamSpec(streamName, this.rw, this.readPercent, null, this.randomPercent,
					(this.split == null) ? this.blockSizeBytes : null, this.split, this.queueDepth, this.offsetBytes,
					this.offsetPercent, this.rangeBytes, this.rangePercent, this.rateIops, this.rateBytesPerS,
					this.arrivals, this.thinkTimeUs, this.thinkTimeBlocks, this.startDelayMs, this.placementHandle);
		}

		/** The job, or null when a problem was found (added to problems). */
		static Job read(FioJobFile.Section section, Map<String, FioJobFile.Option> options,
				List<FioRefusedException.Problem> problems, List<String> notes) {
			int before = problems.size();
			Job job = new Job();
			job.name = streamName(section.name());
			job.line = section.line();
			boolean timeBased = false;
			boolean direct = false;
			boolean randomMap = true;
			FioJobFile.Option runtime = null;
			FioJobFile.Option rwmix = null;
			FioJobFile.Option rate = null;
			FioJobFile.Option percentageRandom = null;
			FioJobFile.Option thinkTimeBlocks = null;
			FioJobFile.Option placement = null;
			boolean fdp = false;
			for (FioJobFile.Option option : options.values()) {
				Value value = new Value(option, problems);
				switch (option.name()) {
					case "name" -> job.name = streamName(value.text());
					case "stonewall", "new_group" -> job.newGroup = value.flag();
					case "ioengine" -> {
						if (ASYNC_ENGINES.contains(option.value())) {
							notes.add("line " + option.line() + ": ioengine=" + option.value()
									+ " — the runner's engine for the drive issues the IOs, at the same queue depth");
						}
						else {
							value.refuse("the runner keeps iodepth IOs in flight as an asynchronous engine does ("
									+ String.join(", ", ASYNC_ENGINES.stream().sorted().toList())
									+ "); a synchronous engine would run at queue depth 1");
						}
					}
					case "direct" -> direct = value.flag();
					case "norandommap" -> randomMap = !value.flag();
					case "time_based" -> timeBased = value.flag();
					case "runtime" -> {
						runtime = option;
						Long us = value.timeUs(1_000_000);
						if (us != null && (us < 1_000_000 || us % 1_000_000 != 0)) {
							value.refuse("the runner's phases run whole seconds, at least one");
						}
						job.runtimeS = (us != null) ? us / 1_000_000 : 0;
						job.runtimeLine = option.line();
					}
					case "rw", "readwrite" -> {
						if (!PATTERNS.contains(option.value())) {
							value.refuse("the runner runs " + String.join(", ", PATTERNS.stream().sorted().toList())
									+ " (no :N offset modifiers, no trimwrite)");
						}
						else {
							job.rw = "readwrite".equals(option.value()) ? "rw" : option.value();
						}
					}
					case "rwmixread" -> {
						rwmix = option;
						job.readPercent = value.percent();
					}
					case "rwmixwrite" -> {
						rwmix = option;
						Integer write = value.percent();
						job.readPercent = (write != null) ? 100 - write : null;
					}
					case "bs", "blocksize" -> job.blockSizeBytes = value.blockSize();
					case "bssplit" -> job.split = value.split();
					case "iodepth" -> job.queueDepth = orElse(value.integer(1, 1024), 1);
					case "rate_iops" -> {
						rate = option;
						job.rateIops = (long) orElse(value.integer(1, 100_000_000), 1);
					}
					case "rate" -> {
						rate = option;
						job.rateBytesPerS = value.size();
					}
					case "rate_process" -> job.arrivals = switch (String.valueOf(option.value())) {
						case "linear" -> "uniform";
						case "poisson" -> "poisson";
						default -> value.refuse("rate_process is linear or poisson");
					};
					case "thinktime" -> job.thinkTimeUs = value.timeUs(1);
					case "thinktime_blocks" -> {
						thinkTimeBlocks = option;
						job.thinkTimeBlocks = (long) orElse(value.integer(1, 1_000_000), 1);
					}
					case "offset" -> {
						if (value.isPercent()) {
							job.offsetPercent = value.percentage();
						}
						else {
							job.offsetBytes = value.sectors();
						}
					}
					case "size" -> {
						if (value.isPercent()) {
							job.rangePercent = value.percentage();
						}
						else {
							job.rangeBytes = value.sectors();
						}
					}
					case "percentage_random" -> {
						percentageRandom = option;
						job.randomPercent = value.percent();
					}
					case "numjobs" -> job.numjobs = orElse(value.integer(1, MAX_STREAMS), 1);
					case "startdelay" -> {
						Long us = value.timeUs(1_000_000);
						job.startDelayMs = (us != null) ? us / 1000 : null;
					}
					case "fdp" -> fdp = value.flag();
					case "fdp_pli" -> {
						// one placement ID index: fio's list (round robin over several)
						// is not run
						placement = option;
						job.placementHandle = value.integer(0, 65535);
					}
					default -> {
						if (NOT_WORKLOAD.contains(option.name())) {
							notes.add("line " + option.line() + ": " + option.name()
									+ " — names, seeds or reports only; the runner reports every job itself");
						}
						else if (TARGET.contains(option.name())) {
							notes.add("line " + option.line() + ": " + option.name()
									+ " — the qualification's drive is the target");
						}
						else {
							value.refuse("not supported by the runner (docs/user-guide.md lists the options it runs)");
						}
					}
				}
			}
			boolean mix = "rw".equals(job.rw) || "randrw".equals(job.rw);
			boolean random = job.rw.startsWith("rand");
			if (!direct) {
				problems.add(new FioRefusedException.Problem(job.line, "direct", "job " + section.name()
						+ " would do buffered IO (fio's default, direct=0); the runner's IO is direct: add direct=1"));
			}
			if (!timeBased || runtime == null) {
				problems.add(new FioRefusedException.Problem(job.line, (runtime == null) ? "runtime" : "time_based",
						"job " + section.name() + ": the runner's streams run for a time; give time_based and"
								+ " runtime (without time_based fio would stop at the end of size)"));
			}
			if (random && randomMap) {
				problems.add(new FioRefusedException.Problem(job.line, "norandommap",
						"job " + section.name()
								+ " is random with fio's random map (every block once per pass); the runner draws each"
								+ " offset uniformly, repeats allowed: add norandommap to run that"));
			}
			if (mix && job.readPercent == null) {
				job.readPercent = 50; // fio's default rwmixread
			}
			if (!mix && rwmix != null) {
				problems.add(new FioRefusedException.Problem(rwmix.line(), rwmix.name(),
						"applies to rw and randrw only, not rw=" + job.rw));
			}
			if (!random && percentageRandom != null) {
				problems.add(new FioRefusedException.Problem(percentageRandom.line(), "percentage_random",
						"applies to random patterns only, not rw=" + job.rw));
			}
			if (job.rateIops != null && job.rateBytesPerS != null) {
				problems
					.add(new FioRefusedException.Problem(rate.line(), rate.name(), "give rate or rate_iops, not both"));
			}
			if (job.arrivals != null && job.rateIops == null && job.rateBytesPerS == null) {
				problems.add(new FioRefusedException.Problem(job.line, "rate_process",
						"job " + section.name() + ": rate_process needs a rate (rate or rate_iops)"));
			}
			if (placement != null && !fdp) {
				problems.add(new FioRefusedException.Problem(placement.line(), "fdp_pli", "needs fdp=1, as in fio"));
			}
			if (thinkTimeBlocks != null && job.thinkTimeUs == null) {
				problems.add(
						new FioRefusedException.Problem(thinkTimeBlocks.line(), "thinktime_blocks", "needs thinktime"));
			}
			if (job.split != null && options.containsKey("bs")) {
				FioJobFile.Option bs = options.get("bs");
				problems.add(new FioRefusedException.Problem(bs.line(), "bs", "give bs or bssplit, not both"));
			}
			return (problems.size() == before) ? job : null;
		}

		/** A refused value is in problems already; the fallback only keeps reading. */
		private static int orElse(Integer value, int fallback) {
			return (value != null) ? value : fallback;
		}

		private static String streamName(String name) {
			String cleaned = name.replaceAll("[^A-Za-z0-9._-]+", "-").replaceAll("^[^A-Za-z0-9]+", "");
			return cleaned.isEmpty() ? "job" : cleaned.substring(0, Math.min(28, cleaned.length()));
		}

	}

	/** One option's value read as fio reads it; a value it cannot read is refused. */
	private static final class Value {

		private final FioJobFile.Option option;

		private final List<FioRefusedException.Problem> problems;

		Value(FioJobFile.Option option, List<FioRefusedException.Problem> problems) {
			this.option = option;
			this.problems = problems;
		}

		<T> T refuse(String why) {
			this.problems.add(new FioRefusedException.Problem(this.option.line(), this.option.name(), this.option.name()
					+ ((this.option.value() != null) ? "=" + this.option.value() : "") + ": " + why));
			return null;
		}

		String text() {
			return (this.option.value() != null) ? this.option.value() : refuse("needs a value");
		}

		/** A bare option, or =1 / =0. */
		boolean flag() {
			String value = this.option.value();
			if (value == null || "1".equals(value)) {
				return true;
			}
			if ("0".equals(value)) {
				return false;
			}
			refuse("is 0 or 1");
			return false;
		}

		Integer integer(int min, int max) {
			String value = this.option.value();
			if (value == null || !value.matches("\\d{1,10}")) {
				return refuse("must be a whole number " + min + ".." + max);
			}
			long number = Long.parseLong(value);
			return (number >= min && number <= max) ? (int) number : refuse("must be " + min + ".." + max);
		}

		Integer percent() {
			return integer(0, 100);
		}

		boolean isPercent() {
			return this.option.value() != null && PERCENT.matcher(this.option.value()).matches();
		}

		Double percentage() {
			Matcher matcher = PERCENT.matcher(this.option.value());
			matcher.matches();
			return Double.parseDouble(matcher.group(1));
		}

		/** fio's sizes: a number with an optional k, m, g, t or p (powers of 1024). */
		Long size() {
			String value = this.option.value();
			Matcher matcher = (value != null) ? SIZE.matcher(value) : null;
			if (matcher == null || !matcher.matches() || matcher.group(1).length() > 15) {
				return refuse("a size is a whole number with an optional k, m, g, t or p (powers of 1024);"
						+ " ranges and per-direction lists are not supported");
			}
			int power = "kmgtp".indexOf(matcher.group(2).toLowerCase(Locale.ROOT)) + 1;
			return Math.multiplyExact(Long.parseLong(matcher.group(1)), 1L << (10 * power));
		}

		/** A size in whole 512-byte sectors, as the runner addresses the drive. */
		Long sectors() {
			Long bytes = size();
			if (bytes != null && bytes % 512 != 0) {
				return refuse("must be a multiple of 512 bytes");
			}
			return bytes;
		}

		Long blockSize() {
			Long bytes = sectors();
			if (bytes != null && (bytes < 512 || bytes > 2L * 1024 * 1024 * 1024)) {
				return refuse("must be 512 bytes .. 2 GiB");
			}
			return bytes;
		}

		/**
		 * fio's bssplit: size/percent pairs separated by colons, one list for all
		 * directions.
		 */
		List<StreamSpec.SplitShare> split() {
			String value = this.option.value();
			if (value == null || value.contains(",")) {
				return refuse(
						"one list of size/percent pairs for all directions (per-direction lists are not supported)");
			}
			List<StreamSpec.SplitShare> shares = new ArrayList<>();
			int sum = 0;
			for (String pair : value.split(":")) {
				String[] parts = pair.split("/");
				if (parts.length != 2 || !parts[1].matches("\\d{1,3}")) {
					return refuse("every entry is size/percent with the percent given");
				}
				Long bytes = new Value(new FioJobFile.Option(this.option.name(), parts[0], this.option.line()),
						this.problems)
					.blockSize();
				int percent = Integer.parseInt(parts[1]);
				if (bytes == null) {
					return null;
				}
				if (percent < 1 || percent > 100) {
					return refuse("each percent is 1..100");
				}
				sum += percent;
				shares.add(new StreamSpec.SplitShare(bytes, percent));
			}
			return (sum == 100) ? shares : refuse("the percents add up to " + sum + ", not 100");
		}

		/** fio's times: a number in the option's default unit, or with a unit suffix. */
		Long timeUs(long defaultUnitUs) {
			String value = this.option.value();
			Matcher matcher = (value != null) ? TIME.matcher(value) : null;
			if (matcher == null || !matcher.matches() || matcher.group(1).length() > 12) {
				return refuse("a time is a whole number with an optional unit (us, ms, s, m, h)");
			}
			long number = Long.parseLong(matcher.group(1));
			String unit = (matcher.group(2) != null) ? matcher.group(2).toLowerCase(Locale.ROOT) : "";
			long unitUs = switch (unit) {
				case "us", "usec" -> 1;
				case "ms", "msec" -> 1000;
				case "s", "sec" -> 1_000_000;
				case "m", "min" -> 60_000_000;
				case "h" -> 3_600_000_000L;
				default -> defaultUnitUs;
			};
			return Math.multiplyExact(number, unitUs);
		}

	}

}

/*
 * A job's progress and ETA from what has been measured (docs/api.md, "Progress and ETA"): the
 * running phase by its own measured rate (a timed phase by its clock, a sized one by its throughput
 * so far, adaptive rounds by their convergence, a purge by its method and capacity less the time it
 * has run), each phase ahead by the same phase on earlier jobs of the drive model (their wall-clock
 * durations, scaled by how fast this job runs against them), else by the plan (a timed phase on a
 * real drive is exact; on a simulated one at this job's measured clock), else by nominal constants
 * (catalog.Durations). Each part says what it rests on; the whole says its least sure part that
 * matters. How fast a simulated drive's clock runs, for the running phase and those ahead, is
 * EtaClock's. Pure: everything measured comes in through Inputs, the clock too.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import io.drivequal.service.catalog.Durations;
import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.catalog.RoundSpec;
import io.drivequal.service.ingest.PhaseMeasurement;

final class EtaEstimator {

	/** A constant's interval: drives run this much faster or slower than nominal. */
	static final double CONSTANT_SPREAD = 3.0;

	/**
	 * @param now the wall clock
	 * @param job the job
	 * @param current what the samples of its running phase measured so far, or null
	 * @param history COMPLETED jobs of the same drive model (with their phase times)
	 * @param driveClockRate a simulated drive's clock rate (its seconds per wall second)
	 * measured by the job running on it now, for a job that has not started; or null
	 * @param earlier an earlier reading of the running phase, or null
	 */
	record Inputs(Instant now, Job job, PhaseMeasurement current, List<Job> history, Double driveClockRate,
			PhaseReadings.Reading earlier) {

		Inputs(Instant now, Job job, PhaseMeasurement current, List<Job> history, Double driveClockRate) {
			this(now, job, current, history, driveClockRate, null);
		}

	}

	/**
	 * One part of an ETA, in wall seconds.
	 *
	 * @param historyJobs for a HISTORY part, how many earlier runs it rests on
	 */
	record Part(double remainingS, Double lowS, Double highS, EtaView.Basis basis, Integer historyJobs, String detail) {

		String label() {
			return switch (this.basis) {
				case PLAN -> "plan (timed phase)";
				case MEASURED -> "measured";
				case HISTORY -> "from history (" + this.historyJobs + ((this.historyJobs == 1) ? " job)" : " jobs)");
				case CONSTANT -> "estimate: constant";
			};
		}

	}

	private final Inputs inputs;

	private final Job job;

	private final long capacityBytes;

	private final boolean simulated;

	private final Map<PhaseSpec, List<Job.PhaseTime>> history;

	private final EtaClock clock;

	/** The running phase's share done, once measured: the phases ahead read it. */
	private double currentShareDone;

	/** How far the running phase's clock rate has spread (EtaInterval.swing). */
	private double swing = 1.0;

	private EtaEstimator(Inputs inputs) {
		this.inputs = inputs;
		this.job = inputs.job();
		this.capacityBytes = (this.job.capacityBytes() != null) ? this.job.capacityBytes() : 0;
		this.simulated = isSimulated(this.job);
		this.history = pastRuns(this.job, inputs.history(), EtaEstimator::shape);
		this.clock = new EtaClock(inputs, this.simulated, this.history);
	}

	static Progress estimate(Inputs inputs) {
		return new EtaEstimator(inputs).estimate();
	}

	/**
	 * A simulated drive's clock rate as the job measured it (its seconds per wall
	 * second); null on a real drive or before it measured one.
	 */
	static Double clockRate(Inputs inputs) {
		EtaEstimator estimator = new EtaEstimator(inputs);
		return estimator.simulated ? estimator.clock.future() : null;
	}

	/**
	 * The job's ETA with the wait before it starts in front of it.
	 * @param wait the jobs ahead on its drive, combined; null for none
	 */
	static Progress withWait(Progress own, Part wait, long startWindowS) {
		if (own.eta() == null || (wait == null && startWindowS <= 0)) {
			return own;
		}
		Part waited = (wait != null) ? wait : new Part(0, 0.0, 0.0, EtaView.Basis.PLAN, null, null);
		if (startWindowS > waited.remainingS()) {
			waited = new Part(startWindowS, (double) startWindowS,
					(waited.highS() != null) ? Math.max(waited.highS(), startWindowS) : null, waited.basis(),
					waited.historyJobs(), "its start window");
		}
		Part total = EtaInterval.combine(List.of(waited, asPart(own)));
		return new Progress(own.percent(), view(total, Math.round(waited.remainingS()), own.eta().phases()));
	}

	/** The job as a part of a later job's wait: its own ETA. */
	static Part asPart(Progress progress) {
		EtaView eta = progress.eta();
		if (eta == null) {
			return new Part(0, 0.0, 0.0, EtaView.Basis.PLAN, null, null);
		}
		return new Part(eta.remainingS(), toDouble(eta.lowS()), toDouble(eta.highS()), eta.basis(), eta.historyJobs(),
				null);
	}

	private static EtaView view(Part total, Long waitS, List<EtaView.PhaseEta> phases) {
		return new EtaView(Math.round(total.remainingS()), round(total.lowS()), round(total.highS()), waitS,
				total.basis(), total.historyJobs(), total.label(), phases);
	}

	private Progress estimate() {
		JobState state = this.job.state();
		if (state == JobState.COMPLETED) {
			return new Progress(100.0, null);
		}
		if (state.isFinal()) {
			return new Progress(0.0, null);
		}
		List<PhaseSpec> plan = new ArrayList<>((this.job.plan() != null) ? this.job.plan() : List.of());
		plan.sort(Comparator.comparingInt(PhaseSpec::index));
		Integer current = (state == JobState.RUNNING) ? this.job.currentPhaseIndex() : null;
		Job.PhaseTime currentTime = (current != null) ? this.job.phaseTime(current) : null;
		// A job that started before phase times were kept has none: its phase is running.
		boolean currentRunning = current != null && (currentTime == null || currentTime.endedAt() == null);
		double doneS = 0;
		double totalS = 0;
		List<Part> parts = new ArrayList<>();
		List<EtaView.PhaseEta> phases = new ArrayList<>();
		for (PhaseSpec phase : plan) {
			boolean finished = current != null
					&& (phase.index() < current || (phase.index() == current && !currentRunning));
			if (finished) {
				Job.PhaseTime time = this.job.phaseTime(phase.index());
				double wallS = (time != null && time.wallS() != null) ? time.wallS() : ahead(phase).remainingS();
				doneS += wallS;
				totalS += wallS;
				continue;
			}
			Part part;
			double fraction = 0;
			double elapsedS = 0;
			if (current != null && phase.index() == current) {
				elapsedS = (currentTime != null) ? EtaClock.secondsBetween(currentTime.startedAt(), this.inputs.now())
						: 0;
				Running running = running(phase, elapsedS);
				part = running.part();
				fraction = running.fraction();
			}
			else {
				part = EtaInterval.ahead(ahead(phase), this.swing);
			}
			doneS += fraction * (elapsedS + part.remainingS());
			totalS += elapsedS + part.remainingS();
			parts.add(part);
			phases.add(new EtaView.PhaseEta(phase.index(), phase.name(), current != null && phase.index() == current,
					Math.round(part.remainingS()), round(part.lowS()), round(part.highS()), part.basis(),
					part.historyJobs(), part.label(), part.detail()));
		}
		Part total = EtaInterval.floor(EtaInterval.combine(parts));
		double percent = (totalS > 0) ? Math.min(99.9, 100.0 * doneS / totalS) : 0.0;
		if (state != JobState.RUNNING) {
			percent = 0.0;
		}
		return new Progress(Math.round(percent * 10) / 10.0, view(total, null, phases));
	}

	private record Running(Part part, double fraction) {
	}

	/**
	 * The running phase: what it measured so far, else its estimate less the time it ran.
	 */
	private Running running(PhaseSpec phase, double elapsedS) {
		PhaseMeasurement measured = this.inputs.current();
		if (measured != null && measured.phaseIndex() != phase.index()) {
			measured = null;
		}
		Long timeLimitS = timeLimitS(phase);
		long sizeBytes = sizeBytes(phase);
		EtaClock.Rate rates = this.clock.current(measured, elapsedS);
		if (rates != null) {
			this.swing = EtaInterval.swing(rates);
			Double shareDone = (measured != null && phase.rounds() == null) ? workDone(measured, timeLimitS, sizeBytes)
					: null;
			rates = EtaInterval.forRest(rates, (shareDone != null) ? shareDone : 0);
		}
		Double clockRate = (rates != null) ? rates.rate() : null;
		boolean timed = sizeBytes <= 0 && timeLimitS != null;
		boolean sizedAndMoving = sizeBytes > 0 && measured != null && measured.bytes() > 0 && measured.latestT() > 0;
		if ("purge".equals(phase.kind()) || measured == null || clockRate == null
				|| !(phase.rounds() != null || timed || sizedAndMoving)) {
			Part full = EtaInterval.ahead(ahead(phase), this.swing);
			double remaining = Math.max(0, full.remainingS() - elapsedS);
			String detail = full.detail();
			if ("purge".equals(phase.kind())) {
				detail += "; running for " + Math.round(elapsedS) + " s (the runner does not report a Sanitize's "
						+ "progress log, 81h: the time it ran is all that is measured)";
			}
			Part part = new Part(remaining, (full.lowS() != null) ? Math.max(0, full.lowS() - elapsedS) : null,
					(full.highS() != null) ? Math.max(remaining, full.highS() - elapsedS) : null, full.basis(),
					full.historyJobs(), detail);
			// Its share done: by its own clock or bytes where they say it, else by the
			// time.
			Double work = (measured != null && phase.rounds() == null) ? workDone(measured, timeLimitS, sizeBytes)
					: null;
			double byTime = (elapsedS + remaining > 0) ? elapsedS / (elapsedS + remaining) : 0;
			return new Running(part, (work != null) ? work : byTime);
		}
		int t = measured.latestT();
		if (phase.rounds() != null) {
			return rounds(phase, measured, rates, elapsedS);
		}
		String clock = EtaClock.detail(clockRate);
		Part part;
		if (timed) {
			part = measuredPart(timeLimitS, timeLimitS, timeLimitS, t, elapsedS, rates,
					this.simulated ? EtaView.Basis.MEASURED : EtaView.Basis.PLAN, null,
					t + " of " + timeLimitS + " s" + clock);
		}
		else {
			double bytesPerClockS = measured.bytes() / (double) t;
			double totalClock = t + Math.max(0, sizeBytes - measured.bytes()) / bytesPerClockS;
			if (timeLimitS != null) {
				totalClock = Math.min(totalClock, Math.max(t, timeLimitS));
			}
			Part exact = measuredPart(totalClock, totalClock, totalClock, t, elapsedS, rates, EtaView.Basis.MEASURED,
					null, String.format(Locale.ROOT, "%.1f of %.1f GB at %.0f MB/s so far%s", measured.bytes() / 1e9,
							sizeBytes / 1e9, bytesPerClockS / 1e6, clock));
			// A real drive's throughput so far gives no interval.
			part = this.simulated ? exact
					: new Part(exact.remainingS(), null, null, exact.basis(), null, exact.detail());
		}
		double done = workDone(measured, timeLimitS, sizeBytes);
		Part weighed = withHistory(phase, part, done, elapsedS, timed && !this.simulated);
		this.currentShareDone = done;
		return new Running(weighed, done);
	}

	/**
	 * A running phase's measured time left, weighed against the same phase's history by
	 * how much of it is done: early on a rate measured over a few seconds says less than
	 * the earlier runs did (a simulated drive's clock speeds up as its IOPS fall after
	 * the cliff). An exact time (a timed phase on a real drive) stands alone.
	 */
	private Part withHistory(PhaseSpec phase, Part measured, double done, double elapsedS, boolean exact) {
		List<Job.PhaseTime> past = this.history.getOrDefault(shape(phase), List.of());
		if (exact || past.isEmpty() || done >= 1) {
			return measured;
		}
		Part history = EtaInterval.ahead(ahead(phase), this.swing);
		double fromHistory = Math.max(0, history.remainingS() - elapsedS);
		double remaining = (1 - done) * fromHistory + done * measured.remainingS();
		Double low = null;
		Double high = null;
		if (history.lowS() != null && measured.lowS() != null) {
			low = Math.min(Math.min(Math.max(0, history.lowS() - elapsedS), measured.lowS()), remaining);
			high = Math.max(Math.max(Math.max(0, history.highS() - elapsedS), measured.highS()), remaining);
		}
		boolean mostlyHistory = done < 0.5;
		return new Part(remaining, low, high, mostlyHistory ? EtaView.Basis.HISTORY : EtaView.Basis.MEASURED,
				mostlyHistory ? history.historyJobs() : null, measured.detail() + String.format(Locale.ROOT,
						"; weighed %.0f %% against %s", 100 * (1 - done), history.detail()));
	}

	/**
	 * The share of a phase without rounds done by its own measure: seconds of a time
	 * limit, bytes of a size (the larger where it has both); never all of it before the
	 * phase's completion event. Null when neither says.
	 */
	private static Double workDone(PhaseMeasurement measured, Long timeLimitS, long sizeBytes) {
		Double done = null;
		if (timeLimitS != null && timeLimitS > 0) {
			done = Math.min(measured.latestT(), Math.max(0, timeLimitS - 1)) / (double) timeLimitS;
		}
		if (sizeBytes > 0) {
			double bytes = Math.min(0.999, measured.bytes() / (double) sizeBytes);
			done = (done != null) ? Math.max(done, bytes) : bytes;
		}
		return done;
	}

	/** An adaptive phase by its rounds' convergence (RoundsConvergence). */
	private Running rounds(PhaseSpec phase, PhaseMeasurement measured, EtaClock.Rate rates, double elapsedS) {
		double clockRate = rates.rate();
		RoundSpec rounds = phase.rounds();
		long roundS = roundS(rounds);
		Map<Integer, List<PhaseMeasurement.StepFigures>> byRound = new TreeMap<>();
		for (PhaseMeasurement.StepFigures step : measured.rounds()) {
			byRound.computeIfAbsent(step.round(), (r) -> new ArrayList<>()).add(step);
		}
		int running = byRound.isEmpty() ? 0 : ((TreeMap<Integer, ?>) byRound).lastKey();
		List<Double> levels = new ArrayList<>();
		List<Long> writeBytes = new ArrayList<>();
		Integer trackingStep = (rounds.tracking() != null) ? rounds.tracking().step() : null;
		String metric = (rounds.tracking() != null) ? rounds.tracking().metric() : "iops";
		for (int r = 0; r < running; r++) {
			List<PhaseMeasurement.StepFigures> steps = byRound.getOrDefault(r, List.of());
			long written = steps.stream().mapToLong(PhaseMeasurement.StepFigures::writeBytes).sum();
			PhaseMeasurement.StepFigures tracked = steps.stream()
				.filter((step) -> trackingStep != null && step.step() == trackingStep)
				.findFirst()
				.orElse(null);
			if (tracked == null || tracked.seconds() == 0) {
				break;
			}
			levels.add("bytesPerS".equals(metric) ? tracked.bytes() / (double) tracked.seconds() : tracked.meanIops());
			writeBytes.add(written);
		}
		List<Job.PhaseTime> past = this.history.getOrDefault(shape(phase), List.of());
		Integer prior = null;
		if (!past.isEmpty() && roundS > 0) {
			List<Double> pastRounds = past.stream()
				.filter((time) -> time.clockMs() != null)
				.map((time) -> (double) Math.round(time.clockMs() / 1000.0 / roundS))
				.toList();
			prior = pastRounds.isEmpty() ? null : (int) Math.round(median(pastRounds));
		}
		long testedRangeBytes = (long) (this.capacityBytes * range(phase) / 100.0);
		int t = measured.latestT();
		long writtenSoFar = measured.rounds().stream().mapToLong(PhaseMeasurement.StepFigures::writeBytes).sum();
		RoundsConvergence.Estimate estimate = RoundsConvergence.estimate(rounds, levels, writeBytes, writtenSoFar,
				(roundS > 0) ? t / (double) roundS : 0, testedRangeBytes, prior);
		EtaView.Basis basis;
		if (estimate.measured()) {
			basis = EtaView.Basis.MEASURED;
		}
		else {
			basis = (prior != null) ? EtaView.Basis.HISTORY : EtaView.Basis.CONSTANT;
		}
		// The rounds' bounds are certain; on a simulated clock its rate's two measures
		// widen them.
		Part part = measuredPart(estimate.expectedRounds() * (double) roundS, estimate.minRounds() * (double) roundS,
				estimate.maxRounds() * (double) roundS, t, elapsedS, rates, basis, (prior != null) ? past.size() : null,
				estimate.detail() + EtaClock.detail(clockRate));
		double phaseClockS = Math.max(t, estimate.expectedRounds() * (double) roundS);
		return new Running(part, (phaseClockS > 0) ? t / phaseClockS : 0);
	}

	/** A phase ahead, all of it: its history, else the plan, else constants. */
	Part ahead(PhaseSpec phase) {
		List<Job.PhaseTime> past = this.history.getOrDefault(shape(phase), List.of());
		if (!past.isEmpty()) {
			double factor = this.clock.speedFactor(this.currentShareDone);
			List<Double> walls = past.stream().map(Job.PhaseTime::wallS).sorted().toList();
			boolean interval = walls.size() >= 2;
			return new Part(median(walls) * factor, interval ? walls.get(0) * factor : null,
					interval ? walls.get(walls.size() - 1) * factor : null, EtaView.Basis.HISTORY, walls.size(),
					String.format(Locale.ROOT, "median of %d earlier run%s of the model%s", walls.size(),
							(walls.size() == 1) ? "" : "s", (factor != 1.0)
									? String.format(Locale.ROOT, ", x %.2f for this job's speed", factor) : ""));
		}
		EtaClock.KindRate kindRate = this.simulated ? this.clock.forPhase(phase) : null;
		Double clockRate = this.simulated ? ((kindRate != null) ? Double.valueOf(kindRate.rate()) : null)
				: Double.valueOf(1.0);
		double divisor = (clockRate != null) ? clockRate : 1.0;
		double fastest = (kindRate != null) ? kindRate.high() : divisor;
		double slowest = (kindRate != null) ? kindRate.low() : divisor;
		String clock = (clockRate != null) ? EtaClock.detail(clockRate) : "";
		if ("purge".equals(phase.kind())) {
			Durations.Span span = Durations.purgeS(phase.purgeMethod(), this.capacityBytes);
			String method = (phase.purgeMethod() != null) ? phase.purgeMethod() : "auto";
			return new Part(span.nominalS() / divisor, span.lowS() / divisor, span.highS() / divisor,
					EtaView.Basis.CONSTANT, null, String.format(Locale.ROOT, "purge %s of %.0f GB at a nominal rate%s",
							method, this.capacityBytes / 1e9, clock));
		}
		if (phase.rounds() != null) {
			RoundsConvergence.Estimate estimate = RoundsConvergence.estimate(phase.rounds(), List.of(), List.of(), 0, 0,
					(long) (this.capacityBytes * range(phase) / 100.0), null);
			long roundS = roundS(phase.rounds());
			if (estimate.minRounds() == estimate.maxRounds()) {
				return timed(estimate.maxRounds() * roundS, kindRate,
						estimate.maxRounds() + " rounds of " + roundS + " s");
			}
			double nominalRounds = Math.ceil((estimate.minRounds() + estimate.maxRounds()) / 2.0);
			return new Part(nominalRounds * roundS / divisor, estimate.minRounds() * roundS / fastest,
					estimate.maxRounds() * roundS / slowest, EtaView.Basis.CONSTANT, null,
					String.format(Locale.ROOT, "%d to %d rounds of %d s (steady state decides)%s", estimate.minRounds(),
							estimate.maxRounds(), roundS, clock));
		}
		Long timeLimitS = timeLimitS(phase);
		if (sizeBytes(phase) <= 0 && timeLimitS != null) {
			return timed(timeLimitS, kindRate, timeLimitS + " s");
		}
		double nominal = Durations.expectedS(phase, this.capacityBytes);
		boolean sized = sizeBytes(phase) > 0;
		Double high = sized ? nominal * CONSTANT_SPREAD : null;
		if (high != null && timeLimitS != null) {
			high = Math.min(high, timeLimitS);
		}
		return new Part(nominal / divisor, sized ? nominal / CONSTANT_SPREAD / fastest : null,
				(high != null) ? high / slowest : null, EtaView.Basis.CONSTANT, null,
				(sized ? String.format(Locale.ROOT, "%.1f GB at a nominal speed", sizeBytes(phase) / 1e9) : "nominal")
						+ clock);
	}

	/**
	 * A phase of a fixed length on its own clock: exact on a real drive; on a simulated
	 * one at the rate of its kind (EtaClock.forPhase), its bounds that rate's.
	 */
	private Part timed(long clockS, EtaClock.KindRate rate, String what) {
		if (!this.simulated) {
			return new Part(clockS, (double) clockS, (double) clockS, EtaView.Basis.PLAN, null, what);
		}
		if (rate == null) {
			return new Part(clockS, null, null, EtaView.Basis.CONSTANT, null,
					what + " of simulated time, its speed not measured yet");
		}
		return new Part(clockS / rate.rate(), clockS / rate.high(), clockS / rate.low(),
				(rate.historyJobs() != null) ? EtaView.Basis.HISTORY : EtaView.Basis.MEASURED, rate.historyJobs(),
				what + EtaClock.detail(rate.rate()) + " (the rate of " + rate.source() + ")");
	}

	/**
	 * A measured part: the phase's length on its own clock (and its bounds), less what
	 * has run. On a real drive that is its clock's seconds left. On a simulated one the
	 * length at the clock's rate less the wall time since the phase started, which leaves
	 * out the samples' delay to the index (the last indexed second is that far behind);
	 * its two measures of the rate give the interval where they differ.
	 */
	private Part measuredPart(double totalClockS, double lowClockS, double highClockS, int t, double elapsedS,
			EtaClock.Rate rates, EtaView.Basis basis, Integer historyJobs, String detail) {
		if (!this.simulated) {
			return new Part(Math.max(0, totalClockS - t), Math.max(0, lowClockS - t), Math.max(0, highClockS - t),
					basis, historyJobs, detail);
		}
		if (rates.positionS() != null) {
			double position = rates.positionS();
			double remaining = Math.max(0, (totalClockS - position) / rates.rate());
			return new Part(remaining, Math.min(remaining, Math.max(0, (lowClockS - position) / rates.high())),
					Math.max(remaining, (highClockS - position) / rates.low()), basis, historyJobs, detail);
		}
		double remaining = Math.max(0, totalClockS / rates.rate() - elapsedS);
		boolean interval = rates.low() < rates.high() || lowClockS < highClockS;
		return new Part(remaining,
				interval ? Math.min(remaining, Math.max(0, lowClockS / rates.high() - elapsedS)) : null,
				interval ? Math.max(remaining, highClockS / rates.low() - elapsedS) : null, basis, historyJobs, detail);
	}

	/**
	 * The phase without what does not change how long it runs (its place and name, the
	 * SMART snapshots), so the same phase matches across profiles.
	 */
	static PhaseSpec shape(PhaseSpec phase) {
		return new PhaseSpec(null, null, phase.kind(), phase.rw(), phase.readPercent(), phase.blockSizeBytes(),
				phase.queueDepth(), phase.rangePercent(), phase.runtimeS(), phase.sizeBytes(), phase.passes(),
				phase.dataPattern(), phase.idleS(), phase.purgeMethod(), null, phase.capacityMultiple(),
				phase.rounds());
	}

	/**
	 * The finished phases of earlier jobs of the model, by a key of the phase (its shape,
	 * its kind): those of a drive of the same capacity, on the same kind of clock; a
	 * simulated drive's on the same runner, whose options set its clock's pace.
	 */
	static <K> Map<K, List<Job.PhaseTime>> pastRuns(Job job, List<Job> history, Function<PhaseSpec, K> key) {
		Map<K, List<Job.PhaseTime>> runs = new HashMap<>();
		boolean simulated = isSimulated(job);
		for (Job past : (history != null) ? history : List.<Job>of()) {
			if (past.jobId().equals(job.jobId()) || past.state() != JobState.COMPLETED || past.plan() == null
					|| past.phaseTimes() == null || !java.util.Objects.equals(past.capacityBytes(), job.capacityBytes())
					|| isSimulated(past) != simulated
					|| (simulated && !java.util.Objects.equals(past.runnerId(), job.runnerId()))) {
				continue;
			}
			for (PhaseSpec phase : past.plan()) {
				Job.PhaseTime time = past.phaseTime(phase.index());
				if (time != null && time.wallS() != null) {
					runs.computeIfAbsent(key.apply(phase), (k) -> new ArrayList<>()).add(time);
				}
			}
		}
		return runs;
	}

	private static boolean isSimulated(Job job) {
		if (job.phaseTimes() != null && !job.phaseTimes().isEmpty()) {
			return job.phaseTimes().stream().anyMatch(Job.PhaseTime::simulatedClock);
		}
		return "sim".equals(job.engine());
	}

	private static Long timeLimitS(PhaseSpec phase) {
		if ("idle".equals(phase.kind())) {
			return (phase.idleS() != null) ? phase.idleS() : 0L;
		}
		return phase.isWorkload() ? phase.runtimeS() : null;
	}

	/** What a sized phase moves in all: a fill's passes over its range, a size limit. */
	private long sizeBytes(PhaseSpec phase) {
		long range = (long) (this.capacityBytes * range(phase) / 100.0);
		return switch (String.valueOf(phase.kind())) {
			case "precondition" -> range * ((phase.passes() != null) ? phase.passes() : 1);
			case "verify" -> range;
			case "workload" -> (phase.sizeBytes() != null) ? phase.sizeBytes()
					: (phase.capacityMultiple() != null) ? phase.capacityMultiple() * this.capacityBytes : 0;
			default -> 0;
		};
	}

	private static long roundS(RoundSpec rounds) {
		long roundS = 0;
		for (RoundSpec.Step step : (rounds.steps() != null) ? rounds.steps() : List.<RoundSpec.Step>of()) {
			roundS += rounds.stepSeconds(step);
		}
		return roundS;
	}

	private static double range(PhaseSpec phase) {
		return (phase.rangePercent() != null) ? phase.rangePercent() : 100.0;
	}

	static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int n = sorted.size();
		return (n % 2 == 1) ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
	}

	private static Long round(Double seconds) {
		return (seconds != null) ? Math.round(seconds) : null;
	}

	private static Double toDouble(Long seconds) {
		return (seconds != null) ? seconds.doubleValue() : null;
	}

}

/*
 * How fast a job's phases run on the wall, for its ETA (EtaEstimator): 1 on a real drive, whose
 * clock is the wall's; on a simulated one, seconds of the drive's clock per wall second, which an
 * unpaced simulator sets by how fast the CPU gets through the phase's work. The running phase's
 * rate as the runner measured it over its last wall second (samples' clockRateMilli and wallMs),
 * else between two of the service's readings, else since the phase started; a phase ahead at the
 * rate of the same kind of phase (kind(): the same work at the same block size) on earlier jobs
 * of the drive model on this runner, else on this job, else at this job's clock rate of another
 * kind, with a wide interval. Pure, as the estimator.
 */
package io.drivequal.service.qualification;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.drivequal.service.catalog.PhaseSpec;
import io.drivequal.service.ingest.PhaseMeasurement;

final class EtaClock {

	/**
	 * The least a phase must have run (or run between two readings) before its own clock
	 * rate, as the service reads it, is trusted: over a shorter time the samples' delay
	 * to the index (a second or two) halves a fast clock's rate. A rate the runner
	 * measured has no such delay.
	 */
	static final double MIN_MEASURED_WALL_S = 5.0;

	static final int MIN_MEASURED_T = 5;

	/** How far a job's speed against its history is believed to differ. */
	static final double MAX_SPEED_FACTOR = 5.0;

	/**
	 * How much of the running phase must be done before its clock rate is compared with
	 * its history's (early on, a simulated drive's clock is still speeding up).
	 */
	static final double MIN_SHARE_FOR_SPEED = 0.2;

	/**
	 * How much faster or slower another kind of phase runs a simulated clock than the one
	 * it was measured on (the demo's unpaced model: random writes after the cliff about
	 * twice as fast as its fill, before the cliff slower).
	 */
	static final double OTHER_KIND_SPREAD = 3.0;

	/**
	 * The running phase's clock rate, the lower and the higher of its measures, and,
	 * where the runner said when it sent the last indexed second, where the phase's clock
	 * is now (that second plus the rate times the wall time since); else null. Its
	 * average is the phase's since it started (its clock over the wall time).
	 */
	record Rate(double rate, double low, double high, Double positionS, double average) {
	}

	/**
	 * A rate for a phase ahead, and what it rests on.
	 *
	 * @param spread how far the phase may run faster or slower than at this rate (1 when
	 * the low and the high rate say it)
	 * @param historyJobs earlier jobs it rests on; null when this job measured it
	 * @param source the phase it was measured on, in words
	 */
	record KindRate(double rate, double low, double high, Integer historyJobs, String source) {
	}

	private final EtaEstimator.Inputs inputs;

	private final Job job;

	private final boolean simulated;

	private final Map<PhaseSpec, List<Job.PhaseTime>> history;

	private final Map<String, List<Job.PhaseTime>> kindHistory;

	EtaClock(EtaEstimator.Inputs inputs, boolean simulated, Map<PhaseSpec, List<Job.PhaseTime>> history) {
		this.inputs = inputs;
		this.job = inputs.job();
		this.simulated = simulated;
		this.history = history;
		this.kindHistory = EtaEstimator.pastRuns(this.job, inputs.history(), EtaClock::kind);
	}

	/**
	 * The kind of work a phase does, whatever its length and range: its kind, its pattern
	 * and its block size ("precondition write 131072"). A simulator's clock runs at about
	 * the same rate through the same kind of work on the same model.
	 */
	static String kind(PhaseSpec phase) {
		return phase.kind() + " " + phase.rw() + " " + phase.blockSizeBytes()
				+ ((phase.rounds() != null) ? " rounds" : "");
	}

	/**
	 * The running phase's clock rate (1 on a real drive); null before enough has run to
	 * say.
	 */
	Rate current(PhaseMeasurement measured, double elapsedS) {
		if (!this.simulated) {
			return new Rate(1.0, 1.0, 1.0, null, 1.0);
		}
		if (measured == null) {
			return null;
		}
		if (measured.clock() != null) {
			return withFinishedPhases(runnerMeasured(measured, elapsedS));
		}
		if (elapsedS < MIN_MEASURED_WALL_S || measured.latestT() < MIN_MEASURED_T) {
			return null;
		}
		double sinceStart = measured.latestT() / elapsedS;
		PhaseReadings.Reading earlier = this.inputs.earlier();
		if (earlier != null && earlier.phaseIndex() == measured.phaseIndex()) {
			double wallS = secondsBetween(earlier.at(), this.inputs.now());
			int clockS = measured.latestT() - earlier.t();
			if (wallS >= MIN_MEASURED_WALL_S && clockS >= MIN_MEASURED_T) {
				double between = clockS / wallS;
				return withFinishedPhases(new Rate(between, Math.min(between, sinceStart),
						Math.max(between, sinceStart), null, sinceStart));
			}
		}
		return withFinishedPhases(new Rate(sinceStart, sinceStart, sinceStart, null, sinceStart));
	}

	/**
	 * The running phase's bounds reaching to the rates this job's finished phases ran the
	 * same clock at: the rest of a phase may run at them (an unpaced simulator's random
	 * writes start well below its fill's rate and, after the cliff, reach it or more),
	 * which its first seconds cannot show. A paced clock runs every phase at its pace,
	 * and this changes nothing.
	 */
	private Rate withFinishedPhases(Rate rate) {
		double low = rate.low();
		double high = rate.high();
		for (double finished : rates(phaseTimes(this.job).stream()
			.filter((time) -> time.endedAt() != null && time.wallS() != null && time.wallS() >= 1)
			.toList())) {
			low = Math.min(low, finished);
			high = Math.max(high, finished);
		}
		return new Rate(rate.rate(), low, high, rate.positionS(), rate.average());
	}

	/**
	 * The phase's clock moved on by the runner's rate over its last wall second for the
	 * time since that second was sent (the samples' delay to the index). The rate the
	 * rest is timed at is the phase's average since it started (its clock over the wall
	 * time) once it has run MIN_MEASURED_WALL_S, before that the last second's: one wall
	 * second of a loaded machine runs a paced clock anywhere from 0.6 to 1.8 times its
	 * pace, and timing the rest at it missed the end by up to 20 % (135 % in a fill's
	 * first seconds), where the average holds the pace. Its bounds: the lowest and
	 * highest of the last second's rate, the average and the 5th and 95th percentiles of
	 * its seconds' rates so far (EtaInterval widens by them).
	 */
	private Rate runnerMeasured(PhaseMeasurement measured, double elapsedS) {
		double last = measured.clock().rate();
		double sinceSentS = Math.max(0, this.inputs.now().toEpochMilli() - measured.clock().wallMs()) / 1000.0;
		double position = measured.latestT() + last * sinceSentS;
		double sinceStart = (elapsedS > 0) ? position / elapsedS : last;
		double rate = (elapsedS >= MIN_MEASURED_WALL_S) ? sinceStart : last;
		double low = Math.min(last, sinceStart);
		double high = Math.max(last, sinceStart);
		PhaseMeasurement.ClockSpread spread = measured.clockSpread();
		if (spread != null && spread.p5() > 0 && spread.p95() >= spread.p5()) {
			low = Math.min(low, spread.p5());
			high = Math.max(high, spread.p95());
		}
		return new Rate(rate, low, high, position, sinceStart);
	}

	Double currentRate(PhaseMeasurement measured, double elapsedS) {
		Rate rate = current(measured, elapsedS);
		return (rate == null) ? null : rate.rate();
	}

	/**
	 * A simulated drive's clock rate for the phases ahead: the running phase's, else the
	 * finished phases', else the drive's as its running job measured it.
	 */
	Double future() {
		Integer current = this.job.currentPhaseIndex();
		Job.PhaseTime time = (current != null && this.job.state() == JobState.RUNNING) ? this.job.phaseTime(current)
				: null;
		if (time != null && time.endedAt() == null) {
			Double rate = currentRate(this.inputs.current(), secondsBetween(time.startedAt(), this.inputs.now()));
			if (rate != null) {
				return rate;
			}
		}
		double clockS = 0;
		double wallS = 0;
		for (Job.PhaseTime done : phaseTimes(this.job)) {
			if (done.wallS() != null && done.clockMs() != null && done.clockMs() > 0) {
				clockS += done.clockMs() / 1000.0;
				wallS += done.wallS();
			}
		}
		if (wallS >= MIN_MEASURED_WALL_S) {
			return clockS / wallS;
		}
		return this.inputs.driveClockRate();
	}

	/**
	 * The clock rate of a simulated phase ahead: the same kind of phase on earlier jobs
	 * of the model (their median, their range), else on this job (a finished phase of
	 * that kind, or the running one), else this job's rate on another kind of phase,
	 * OTHER_KIND_SPREAD either way; null when nothing is measured.
	 */
	KindRate forPhase(PhaseSpec phase) {
		String kind = kind(phase);
		List<Double> pastRates = rates(this.kindHistory.getOrDefault(kind, List.of()));
		if (!pastRates.isEmpty()) {
			List<Double> sorted = pastRates.stream().sorted().toList();
			return new KindRate(EtaEstimator.median(sorted), sorted.get(0), sorted.get(sorted.size() - 1),
					sorted.size(), "the same kind of phase on earlier jobs of the model");
		}
		Integer current = (this.job.state() == JobState.RUNNING) ? this.job.currentPhaseIndex() : null;
		List<Job.PhaseTime> sameKind = new ArrayList<>();
		for (Job.PhaseTime done : phaseTimes(this.job)) {
			PhaseSpec donePhase = phase(done.index());
			if (donePhase != null && kind.equals(kind(donePhase)) && done.wallS() != null) {
				sameKind.add(done);
			}
		}
		List<Double> jobRates = rates(sameKind);
		if (!jobRates.isEmpty()) {
			double rate = EtaEstimator.median(jobRates);
			return new KindRate(rate, rate, rate, null, "this job's phase of the same kind");
		}
		PhaseSpec running = (current != null) ? phase(current) : null;
		Job.PhaseTime runningTime = (current != null) ? this.job.phaseTime(current) : null;
		if (running != null && kind.equals(kind(running)) && runningTime != null) {
			Double rate = currentRate(this.inputs.current(),
					secondsBetween(runningTime.startedAt(), this.inputs.now()));
			if (rate != null) {
				return new KindRate(rate, rate, rate, null, "this job's running phase, of the same kind");
			}
		}
		Double rate = future();
		if (rate == null) {
			return null;
		}
		return new KindRate(rate, rate / OTHER_KIND_SPREAD, rate * OTHER_KIND_SPREAD, null,
				"this job's clock on another kind of phase");
	}

	/**
	 * Seconds of a phase's clock per wall second, of each that ran long enough to say.
	 */
	private static List<Double> rates(List<Job.PhaseTime> times) {
		return times.stream()
			.filter((time) -> time.clockMs() != null && time.clockMs() > 0 && time.wallS() != null && time.wallS() > 0)
			.map((time) -> time.clockMs() / 1000.0 / time.wallS())
			.toList();
	}

	/**
	 * How much longer this job takes than the history it is compared with (1 on a real
	 * drive, whose clock is the wall's): the running phase's clock rate against its past
	 * runs', else its finished phases' wall time against theirs.
	 * @param currentShareDone how much of the running phase is done
	 */
	double speedFactor(double currentShareDone) {
		if (!this.simulated || this.job.state() != JobState.RUNNING) {
			return 1.0;
		}
		Integer current = this.job.currentPhaseIndex();
		PhaseSpec currentPhase = (current != null) ? phase(current) : null;
		Job.PhaseTime time = (current != null) ? this.job.phaseTime(current) : null;
		if (currentPhase != null && time != null && time.endedAt() == null && currentShareDone >= MIN_SHARE_FOR_SPEED) {
			Double rate = currentRate(this.inputs.current(), secondsBetween(time.startedAt(), this.inputs.now()));
			List<Double> pastRates = this.history.getOrDefault(EtaEstimator.shape(currentPhase), List.of())
				.stream()
				.filter((past) -> past.clockMs() != null && past.wallS() >= MIN_MEASURED_WALL_S)
				.map((past) -> past.clockMs() / 1000.0 / past.wallS())
				.toList();
			if (rate != null && rate > 0 && !pastRates.isEmpty()) {
				return clamp(EtaEstimator.median(pastRates) / rate);
			}
		}
		double thisWallS = 0;
		double pastWallS = 0;
		for (Job.PhaseTime done : phaseTimes(this.job)) {
			PhaseSpec phase = phase(done.index());
			List<Job.PhaseTime> past = (phase != null) ? this.history.getOrDefault(EtaEstimator.shape(phase), List.of())
					: List.of();
			if (done.wallS() != null && !past.isEmpty()) {
				thisWallS += done.wallS();
				pastWallS += EtaEstimator.median(past.stream().map(Job.PhaseTime::wallS).toList());
			}
		}
		return (pastWallS >= MIN_MEASURED_WALL_S && thisWallS > 0) ? clamp(thisWallS / pastWallS) : 1.0;
	}

	private PhaseSpec phase(int index) {
		return (this.job.plan() == null) ? null
				: this.job.plan().stream().filter((phase) -> phase.index() == index).findFirst().orElse(null);
	}

	private static List<Job.PhaseTime> phaseTimes(Job job) {
		return (job.phaseTimes() != null) ? job.phaseTimes() : List.of();
	}

	static String detail(double clockRate) {
		return (clockRate == 1.0) ? "" : String.format(Locale.ROOT, ", simulated clock at %.1f x real time", clockRate);
	}

	private static double clamp(double factor) {
		return Math.max(1 / MAX_SPEED_FACTOR, Math.min(MAX_SPEED_FACTOR, factor));
	}

	static double secondsBetween(Instant from, Instant to) {
		return (from == null) ? 0 : Math.max(0, to.toEpochMilli() - from.toEpochMilli()) / 1000.0;
	}

}

/*
 * What the indexed per-second samples say of a running phase so far, for its ETA: how far its clock
 * has run, how many bytes it moved, and, for a phase with adaptive rounds, each round's step figures
 * (the tracking step's level is what the runner's steady-state rule watches). On a simulated clock,
 * the rate the runner measured its clock at when it sent the last indexed second, and when that was,
 * and how far that rate has spread over the phase's seconds so far (the ETA's interval widens by it).
 */
package io.drivequal.service.ingest;

import java.util.List;

/**
 * @param phaseIndex the phase
 * @param latestT the last indexed second (the phase's own clock)
 * @param samples indexed seconds
 * @param bytes bytes read and written over them
 * @param rounds by round, then step; empty for a phase without rounds
 * @param clock the last indexed second's simulated clock, as the runner measured it; null
 * on a wall clock, or from a runner that does not measure it
 * @param clockSpread the spread of the runner's clock rate over the phase's indexed
 * seconds; null where clock is null
 */
public record PhaseMeasurement(int phaseIndex, int latestT, long samples, long bytes, List<StepFigures> rounds,
		SimulatedClock clock, ClockSpread clockSpread) {

	public PhaseMeasurement {
		rounds = List.copyOf(rounds);
	}

	public PhaseMeasurement(int phaseIndex, int latestT, long samples, long bytes, List<StepFigures> rounds,
			SimulatedClock clock) {
		this(phaseIndex, latestT, samples, bytes, rounds, clock, null);
	}

	public PhaseMeasurement(int phaseIndex, int latestT, long samples, long bytes, List<StepFigures> rounds) {
		this(phaseIndex, latestT, samples, bytes, rounds, null);
	}

	/**
	 * @param wallMs when the runner sent the last indexed second (epoch ms, its wall
	 * clock)
	 * @param rate the phase clock's seconds per wall second then, over the last wall
	 * second
	 */
	public record SimulatedClock(long wallMs, double rate) {
	}

	/**
	 * The runner's clock rate over the phase's indexed seconds: its 5th and 95th
	 * percentiles (each simulated second one value, as the runner measured it over the
	 * wall second before it was sent; a slow wall second stamps fewer simulated seconds
	 * than a fast one, hence percentiles this far out).
	 */
	public record ClockSpread(double p5, double p95) {
	}

	/**
	 * One step of one round.
	 *
	 * @param seconds indexed seconds of the step
	 * @param meanIops mean of their IOPS
	 * @param bytes bytes read and written over them
	 * @param writeBytes bytes written
	 */
	public record StepFigures(int round, int step, long seconds, double meanIops, long bytes, long writeBytes) {
	}

}

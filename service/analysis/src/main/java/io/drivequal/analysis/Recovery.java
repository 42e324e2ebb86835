// TRIM and idle recovery ratios (docs/methodology.md): how much of the lost performance a drive gets back.
package io.drivequal.analysis;

/** TRIM recovery and idle recovery. */
public final class Recovery {

	/**
	 * Seconds after idle whose mean IOPS is compared with the steady state before idle.
	 */
	public static final int IDLE_RECOVERY_WINDOW_S = 60;

	private Recovery() {
	}

	/**
	 * TRIM recovery = (after - dirty) / (clean - dirty) on 128KiB sequential write MB/s:
	 * 1 means TRIM restored the clean-drive throughput, 0 that it helped nothing.
	 * @param cleanMBps throughput on the purged drive
	 * @param dirtyMBps throughput after the random-write torture
	 * @param afterTrimMBps throughput after deallocating the range
	 * @return the ratio; unknown when clean == dirty (nothing to recover)
	 */
	public static Measure trimRecovery(double cleanMBps, double dirtyMBps, double afterTrimMBps) {
		if (cleanMBps == dirtyMBps) {
			return Measure.unknown("clean and dirty throughput are equal (" + cleanMBps
					+ " MB/s): there was no degradation to recover from");
		}
		return Measure.known((afterTrimMBps - dirtyMBps) / (cleanMBps - dirtyMBps));
	}

	/**
	 * TRIM recovery from measures that may be unknown (a phase missing or failed).
	 * @param cleanMBps throughput on the purged drive
	 * @param dirtyMBps throughput after the random-write torture
	 * @param afterTrimMBps throughput after deallocating the range
	 * @return the ratio, or unknown with the first reason
	 */
	public static Measure trimRecovery(Measure cleanMBps, Measure dirtyMBps, Measure afterTrimMBps) {
		for (Measure input : new Measure[] { cleanMBps, dirtyMBps, afterTrimMBps }) {
			if (input instanceof Measure.Unknown unknown) {
				return Measure.unknown("a throughput is unknown: " + unknown.reason());
			}
		}
		return trimRecovery(cleanMBps.value().getAsDouble(), dirtyMBps.value().getAsDouble(),
				afterTrimMBps.value().getAsDouble());
	}

	/**
	 * Idle recovery = mean IOPS of the first 60 s after idle / steady-state IOPS before
	 * idle. The first 60 s are the seconds with t &lt;= 60 of the phase after idle; like
	 * a round, they count only with at least 54 of them present.
	 * @param afterIdleIops per-second IOPS of the phase after idle
	 * @param steadyStateBefore steady state of the phase before idle: its last five
	 * rounds, the state the drive was in when the idle period began
	 * @return the ratio, or unknown with the reason
	 */
	public static Measure idleRecovery(PerSecondSeries afterIdleIops, SteadyStateResult steadyStateBefore) {
		if (steadyStateBefore.steadyStateIops().isEmpty()) {
			return Measure.unknown("the phase before idle is " + steadyStateBefore.notSteadyReason().orElseThrow());
		}
		return idleRecovery(afterIdleIops, steadyStateBefore.steadyStateIops().getAsDouble());
	}

	/**
	 * Idle recovery against a given steady-state IOPS.
	 * @param afterIdleIops per-second IOPS of the phase after idle
	 * @param steadyStateIopsBefore steady-state IOPS before idle
	 * @return the ratio, or unknown with the reason
	 */
	public static Measure idleRecovery(PerSecondSeries afterIdleIops, double steadyStateIopsBefore) {
		if (!(steadyStateIopsBefore > 0)) {
			return Measure.unknown("the steady-state IOPS before idle is " + steadyStateIopsBefore);
		}
		long[] first = afterIdleIops.valuesIn(0, IDLE_RECOVERY_WINDOW_S);
		if (10L * first.length < 9L * IDLE_RECOVERY_WINDOW_S) {
			return Measure.unknown("only " + first.length + " of the first " + IDLE_RECOVERY_WINDOW_S
					+ " seconds after idle are present (at least 90% are needed)");
		}
		long sum = 0;
		for (long iops : first) {
			sum = Math.addExact(sum, iops);
		}
		return Measure.known((double) sum / first.length / steadyStateIopsBefore);
	}

}

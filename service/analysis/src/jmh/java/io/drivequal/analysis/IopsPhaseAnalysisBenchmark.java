// JMH benchmark of the per-phase analysis on a 2-hour phase (budget: 5 ms); run with -Pbenchmarks, never in verify.
package io.drivequal.analysis;

import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Rounds + SNIA steady state (on rounds out of the fresh state: eligible once 4 KiB random
 * writes reached 1 TB, about a third into the phase) + consistency over the steady-state
 * window + the fixed window (t &gt;= 1400) of a 7200-second phase.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class IopsPhaseAnalysisBenchmark {

	/**
	 * reachedLate: FOB decay (10 min time constant) reaching steady state at round 24;
	 * neverReached: IOPS keep falling (15 min time constant), all 116 windows are
	 * checked.
	 */
	@Param({ "reachedLate", "neverReached" })
	public String scenario;

	private static final long TESTED_RANGE_BYTES = 1_000_000_000_000L;

	private PerSecondSeries iops;

	private PerSecondSeries randomWriteBytes;

	private Eligibility eligibility;

	private IopsPhaseOptions options;

	@Setup
	public void setUp() {
		Random random = new Random(7200);
		long[] values = new long[7200];
		long[] bytes = new long[values.length];
		for (int i = 0; i < values.length; i++) {
			double level = "reachedLate".equals(this.scenario) ? 100_000 + 300_000 * Math.exp(-i / 600.0)
					: 400_000 * Math.exp(-i / 900.0);
			values[i] = Math.max(0, Math.round(level * (1 + random.nextGaussian() * 0.03)));
			bytes[i] = values[i] * 4096;
		}
		this.iops = PerSecondSeries.consecutive(values);
		this.randomWriteBytes = PerSecondSeries.consecutive(bytes);
		this.eligibility = Eligibility.afterRandomWrites(Eligibility.DEFAULT_RANGE_WRITES_REQUIRED,
				TESTED_RANGE_BYTES, 0, "purged and filled just before the phase");
		this.options = IopsPhaseOptions.defaults().withFixedWindowFirstT(Consistency.FIXED_WINDOW_FIRST_T_2000S);
	}

	@Benchmark
	public IopsPhaseAnalysis analyze7200Seconds() {
		return IopsPhaseAnalyzer.analyze(this.iops, this.randomWriteBytes, this.eligibility, this.options);
	}

}

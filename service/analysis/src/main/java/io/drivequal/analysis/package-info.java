// Where the service starts: the analysis entry points and the order it calls them in for a finished job.
/**
 * The numbers a buyer signs, from a phase's per-second samples, histograms and SMART
 * snapshots, exactly as docs/methodology.md defines them. Plain Java, no Spring: every
 * entry point is a static, side-effect-free function of immutable inputs.
 *
 * <ul>
 * <li>Random-IO phase: build a {@link io.drivequal.analysis.PerSecondSeries} of the
 * phase's per-second IOPS (t = sample.t, value = read.ios + write.ios, or one direction)
 * and one of its per-second write bytes, decide the
 * {@link io.drivequal.analysis.Eligibility} of its rounds (W, the tested range, random
 * writes of earlier phases since the last purge or fill), then
 * {@link io.drivequal.analysis.IopsPhaseAnalyzer#analyze} with
 * {@link io.drivequal.analysis.IopsPhaseOptions} ({@code consistency2000s()},
 * {@code defaults()}, {@code sniaPts()}).</li>
 * <li>Latency: {@link io.drivequal.analysis.LatencyQosAnalyzer#of} over the
 * phase-completed event's {@code latencyHistogram}s
 * ({@link io.drivequal.analysis.PhaseLatencyHistogram#fromPairs}).</li>
 * <li>Sequential phase: {@link io.drivequal.analysis.Throughput#meanMBps} of per-second
 * bytes.</li>
 * <li>Endurance: {@link io.drivequal.analysis.WriteAmplification#between} two
 * {@link io.drivequal.analysis.SmartCounters}, then
 * {@link io.drivequal.analysis.Endurance#project}.</li>
 * <li>{@link io.drivequal.analysis.Recovery} for TRIM and idle recovery.</li>
 * <li>Verdict: put every figure into {@link io.drivequal.analysis.MetricValues}, then
 * {@link io.drivequal.analysis.VerdictJudge#judge} the buyer's
 * {@link io.drivequal.analysis.Criterion} list.</li>
 * </ul>
 */
package io.drivequal.analysis;

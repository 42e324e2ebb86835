// Finds the seconds a drive throttled: its IOPS dropped while it was at its throttle temperature.
package io.drivequal.analysis.health;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import io.drivequal.analysis.PerSecondSeries;

/**
 * Thermal throttling, seen from outside the drive (docs/methodology.md "Thermal
 * throttling"):
 * <ol>
 * <li>The limit: the drive's throttle temperature (TMT1) when it reports one, else its
 * warning composite temperature (WCTEMP). Neither: unknown.</li>
 * <li>Each second t of the phase has the temperature of the latest reading taken by its
 * end (elapsedMs &lt;= 1000 t); a second is <em>hot</em> when that is at least the limit
 * minus the tolerance (1 K: temperatures are whole kelvins, and a throttling drive holds
 * itself just below its trigger), <em>cool</em> otherwise.</li>
 * <li>Its reference is the median IOPS of the last {@code referenceWindowS} cool seconds
 * before it (the phase's cool median while fewer than {@code minReferenceSeconds} precede
 * it).</li>
 * <li>A hot second whose IOPS are below (1 - dropFraction) x its reference is
 * <em>throttled</em>.</li>
 * </ol>
 * Without enough cool seconds to compare with (a drive hot all phase) the result is
 * unknown. The drive's own count (log 02h thermal management time) is reported beside it,
 * when the drive keeps one.
 */
public final class ThermalThrottleDetector {

	private ThermalThrottleDetector() {
	}

	/**
	 * @param toleranceK kelvins below the limit that still count as at the limit
	 * @param dropFraction how far below its reference a second's IOPS must be
	 * @param referenceWindowS cool seconds the reference is the median of
	 * @param minReferenceSeconds cool seconds needed for a reference at all
	 */
	public record Options(int toleranceK, double dropFraction, int referenceWindowS, int minReferenceSeconds) {

		public Options {
			if (toleranceK < 0 || !(dropFraction > 0 && dropFraction < 1) || referenceWindowS < 1
					|| minReferenceSeconds < 1) {
				throw new IllegalArgumentException("toleranceK >= 0, 0 < dropFraction < 1 and windows >= 1");
			}
		}

		public static Options defaults() {
			return new Options(1, 0.2, 60, 5);
		}

	}

	/** Seconds firstT..lastT (interval ends), all throttled. */
	public record Interval(long firstT, long lastT) {

		public long seconds() {
			return this.lastT - this.firstT + 1;
		}

	}

	/**
	 * @param unknownReason why there is no answer; empty when the phase was judged
	 * @param thresholdK the limit used
	 * @param thresholdSource "TMT1" or "WCTEMP"
	 * @param secondsJudged seconds with a temperature
	 * @param hotSeconds of those, at the limit
	 * @param throttledSeconds hot seconds with their IOPS dropped
	 * @param intervals the throttled seconds as runs of consecutive t
	 * @param coolMedianIops median IOPS of the phase's cool seconds
	 * @param driveThrottledS what the drive counted in thermal management over the phase
	 */
	public record Result(Optional<String> unknownReason, OptionalInt thresholdK, Optional<String> thresholdSource,
			int toleranceK, double dropFraction, long secondsJudged, long hotSeconds, long throttledSeconds,
			List<Interval> intervals, OptionalDouble coolMedianIops, OptionalLong driveThrottledS) {

		public boolean known() {
			return this.unknownReason.isEmpty();
		}

		/** Whether second t was found throttled. */
		public boolean throttled(long t) {
			return this.intervals.stream().anyMatch((interval) -> t >= interval.firstT() && t <= interval.lastT());
		}

	}

	/**
	 * @param iops the phase's per-second IOPS
	 * @param readings the phase's health readings, any order
	 */
	public static Result detect(PerSecondSeries iops, List<HealthReading> readings, Options options) {
		List<HealthReading> hot = readings.stream()
			.filter((reading) -> reading.available() && reading.temperatureK().isPresent())
			.sorted(Comparator.comparingLong(HealthReading::elapsedMs))
			.toList();
		OptionalLong driveThrottled = driveThrottled(readings);
		Optional<String> source = Optional.empty();
		OptionalInt threshold = OptionalInt.empty();
		for (HealthReading reading : hot) {
			if (reading.throttleThresholdK().isPresent()) {
				threshold = reading.throttleThresholdK();
				source = Optional.of("TMT1");
				break;
			}
			if (threshold.isEmpty() && reading.warningThresholdK().isPresent()) {
				threshold = reading.warningThresholdK();
				source = Optional.of("WCTEMP");
			}
		}
		if (iops.isEmpty()) {
			return unknown("the phase has no per-second sample", threshold, source, options, driveThrottled);
		}
		if (hot.isEmpty()) {
			return unknown("no health reading of the phase reported a temperature", threshold, source, options,
					driveThrottled);
		}
		if (threshold.isEmpty()) {
			return unknown("the drive reports neither a throttle (TMT1) nor a warning (WCTEMP) temperature", threshold,
					source, options, driveThrottled);
		}
		int limitK = threshold.getAsInt() - options.toleranceK();
		int n = iops.size();
		int[] state = new int[n]; // 0 no temperature, 1 cool, 2 hot
		int next = 0;
		HealthReading current = null;
		List<Long> cool = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			long endMs = iops.t(i) * 1000;
			while (next < hot.size() && hot.get(next).elapsedMs() <= endMs) {
				current = hot.get(next++);
			}
			if (current != null) {
				state[i] = (current.temperatureK().getAsInt() >= limitK) ? 2 : 1;
				if (state[i] == 1) {
					cool.add(iops.value(i));
				}
			}
		}
		if (cool.size() < options.minReferenceSeconds()) {
			return unknown("only " + cool.size() + " second(s) of the phase were below the drive's " + source.get()
					+ " limit: nothing to compare its IOPS with", threshold, source, options, driveThrottled);
		}
		double coolMedian = median(cool.stream().mapToLong(Long::longValue).toArray());
		long judged = 0;
		long hotSeconds = 0;
		long throttled = 0;
		List<Interval> intervals = new ArrayList<>();
		long[] window = new long[options.referenceWindowS()];
		int windowFill = 0;
		int windowNext = 0;
		long runStart = -1;
		long runEnd = -1;
		for (int i = 0; i < n; i++) {
			if (state[i] == 0) {
				continue;
			}
			judged++;
			if (state[i] == 1) {
				window[windowNext] = iops.value(i);
				windowNext = (windowNext + 1) % window.length;
				windowFill = Math.min(windowFill + 1, window.length);
				continue;
			}
			hotSeconds++;
			double reference = (windowFill >= options.minReferenceSeconds()) ? median(Arrays.copyOf(window, windowFill))
					: coolMedian;
			if (iops.value(i) < (1 - options.dropFraction()) * reference) {
				throttled++;
				long t = iops.t(i);
				if (runStart >= 0 && t == runEnd + 1) {
					runEnd = t;
				}
				else {
					if (runStart >= 0) {
						intervals.add(new Interval(runStart, runEnd));
					}
					runStart = t;
					runEnd = t;
				}
			}
		}
		if (runStart >= 0) {
			intervals.add(new Interval(runStart, runEnd));
		}
		return new Result(Optional.empty(), threshold, source, options.toleranceK(), options.dropFraction(), judged,
				hotSeconds, throttled, List.copyOf(intervals), OptionalDouble.of(coolMedian), driveThrottled);
	}

	private static Result unknown(String reason, OptionalInt threshold, Optional<String> source, Options options,
			OptionalLong driveThrottled) {
		return new Result(Optional.of(reason), threshold, source, options.toleranceK(), options.dropFraction(), 0, 0, 0,
				List.of(), OptionalDouble.empty(), driveThrottled);
	}

	private static OptionalLong driveThrottled(List<HealthReading> readings) {
		List<HealthReading> counted = readings.stream()
			.filter((reading) -> reading.available() && reading.throttledTimeS().isPresent())
			.sorted(Comparator.comparingLong(HealthReading::elapsedMs))
			.toList();
		return counted.isEmpty() ? OptionalLong.empty()
				: OptionalLong.of(counted.get(counted.size() - 1).throttledTimeS().getAsLong()
						- counted.get(0).throttledTimeS().getAsLong());
	}

	private static double median(long[] values) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		int mid = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
	}

}

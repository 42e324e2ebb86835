// One imported fio job (= one phase): the vendor's totals, per-second samples and latency histograms.
package io.drivequal.analysis.fio;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import io.drivequal.analysis.PerSecondSeries;
import io.drivequal.analysis.PhaseLatencyHistogram;

/**
 * A fio job mapped onto drivequal's phase model.
 *
 * @param jobNumber 1-based, as in the log file names
 * @param jobName fio's job name
 * @param totals per direction the job did IO in, from the JSON
 * @param seconds per-second samples from the logs, ascending by t; empty without logs
 * @param clatHistograms per direction, the completion-latency histogram merged from the
 * histogram log (bins at fio's midpoints, recorded into HdrHistogram with 2 significant
 * digits); empty without a histogram log
 * @param notes what the import dropped or could not cover, for the report
 * @param sizeOption fio's {@code size} option of the job (job or global), if it had one
 */
public record FioJob(int jobNumber, String jobName, Map<FioDirection, FioJobTotals> totals, List<FioSecond> seconds,
		Map<FioDirection, PhaseLatencyHistogram> clatHistograms, List<String> notes, Optional<String> sizeOption) {

	public FioJob {
		totals = immutable(totals);
		seconds = List.copyOf(seconds);
		clatHistograms = immutable(clatHistograms);
		notes = List.copyOf(notes);
	}

	/**
	 * The share of the drive the job addressed, from its {@code size} option: the whole
	 * drive without one (fio's default), the percentage as given, or an absolute size
	 * over the capacity (at most 100).
	 * @param capacityBytes the drive's user capacity
	 * @return the range percent; empty when fio's size text is not understood
	 */
	public OptionalDouble rangePercent(long capacityBytes) {
		if (this.sizeOption.isEmpty()) {
			return OptionalDouble.of(100);
		}
		FioSize size = FioSize.parse(this.sizeOption.get());
		if (size == null) {
			return OptionalDouble.empty();
		}
		if (size.percent().isPresent()) {
			return size.percent();
		}
		return OptionalDouble.of(Math.min(100.0, 100.0 * size.bytes().getAsLong() / capacityBytes));
	}

	/**
	 * The bytes of one direction in one second: fio's bandwidth log when it has the
	 * entry, else the second's IOPS times the job's mean IO size in that direction (its
	 * JSON's io_bytes / total_ios, exact for a fixed block size).
	 * @param second the second
	 * @param direction read, write or trim
	 * @return bytes; 0 when the second has no entry for the direction
	 */
	public long bytesAt(FioSecond second, FioDirection direction) {
		Optional<FioDirectionSecond> value = second.direction(direction);
		if (value.isEmpty()) {
			return 0;
		}
		if (value.get().bytes().isPresent()) {
			return value.get().bytes().getAsLong();
		}
		FioJobTotals total = this.totals.get(direction);
		return (total == null || total.totalIos() == 0) ? 0
				: Math.round((double) value.get().iops() * total.ioBytes() / total.totalIos());
	}

	/**
	 * Whether {@link #bytesAt} comes from a bandwidth log for this direction.
	 * @param direction read, write or trim
	 * @return false when bytes are derived from IOPS
	 */
	public boolean bytesLogged(FioDirection direction) {
		return this.seconds.stream()
			.anyMatch((second) -> second.direction(direction).map((d) -> d.bytes().isPresent()).orElse(false));
	}

	/**
	 * Per-second IOPS of one direction, the input of the steady-state and consistency
	 * analyses.
	 * @param direction read, write or trim
	 * @return the seconds with an entry for that direction
	 */
	public PerSecondSeries iopsSeries(FioDirection direction) {
		PerSecondSeries.Builder builder = PerSecondSeries.builder();
		for (FioSecond second : this.seconds) {
			second.direction(direction).ifPresent((value) -> builder.add(second.t(), value.iops()));
		}
		return builder.build();
	}

	/**
	 * Per-second IOPS of all directions together, over the seconds where every direction
	 * the job did IO in has an entry (a second missing for one direction is missing, not
	 * partial).
	 * @return the series
	 */
	public PerSecondSeries totalIopsSeries() {
		PerSecondSeries.Builder builder = PerSecondSeries.builder();
		for (FioSecond second : this.seconds) {
			long sum = 0;
			boolean complete = true;
			for (FioDirection direction : this.totals.keySet()) {
				Optional<FioDirectionSecond> value = second.direction(direction);
				complete &= value.isPresent();
				sum += value.map(FioDirectionSecond::iops).orElse(0L);
			}
			if (complete) {
				builder.add(second.t(), sum);
			}
		}
		return builder.build();
	}

	/**
	 * Per-second bytes of one direction, for throughput.
	 * @param direction read, write or trim
	 * @return the series; empty without a bandwidth log
	 */
	public Optional<PerSecondSeries> bytesSeries(FioDirection direction) {
		PerSecondSeries.Builder builder = PerSecondSeries.builder();
		boolean any = false;
		for (FioSecond second : this.seconds) {
			Optional<FioDirectionSecond> value = second.direction(direction);
			if (value.isPresent() && value.get().bytes().isPresent()) {
				builder.add(second.t(), value.get().bytes().getAsLong());
				any = true;
			}
		}
		return any ? Optional.of(builder.build()) : Optional.empty();
	}

	private static <V> Map<FioDirection, V> immutable(Map<FioDirection, V> map) {
		Map<FioDirection, V> copy = new EnumMap<>(FioDirection.class);
		copy.putAll(map);
		return Collections.unmodifiableMap(copy);
	}

}

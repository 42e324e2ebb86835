// fio import against real fio 3.33 output from this machine, and every refusal with its message.
package io.drivequal.analysis.fio;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import io.drivequal.analysis.Eligibility;
import io.drivequal.analysis.LatencyQos;
import io.drivequal.analysis.LatencyQosAnalyzer;
import io.drivequal.analysis.PerSecondSeries;
import io.drivequal.analysis.SteadyStateDetector;
import io.drivequal.analysis.SteadyStateResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;

class FioImportTest {

	private static final String TWO_JOBS = "two-jobs";

	@Test
	void importsARealTwoJobRun() {
		FioImportResult result = FioImport.readFiles(FioFixtures.directory(TWO_JOBS).resolve("vendor.json"),
				FioFixtures.logs(TWO_JOBS));
		assertThat(result.fioVersion()).isEqualTo("fio-3.33");
		assertThat(result.jobs()).extracting(FioJob::jobName).containsExactly("randwrite-4k-qd32", "oltp-8k-qd32");

		FioJob randwrite = result.jobs().get(0);
		assertThat(randwrite.totals()).containsOnlyKeys(FioDirection.WRITE);
		assertThat(randwrite.totals().get(FioDirection.WRITE).totalIos()).isEqualTo(2_725_283);
		// vendor_iops.1.log: 19 windows ending 1146, 2146, ..., 19148 ms -> t = 1..19.
		assertThat(randwrite.seconds()).extracting(FioSecond::t)
			.containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 19).boxed().toList());
		FioDirectionSecond first = randwrite.seconds().get(0).write().orElseThrow();
		assertThat(first.iops()).isEqualTo(148_516);
		assertThat(first.bytes()).hasValue(594_066L * 1024);
		// vendor_clat.1.log "1000, 213660" and the lat log's mean for the same window.
		assertThat(first.clatMeanNs()).hasValue(213_660);
		assertThat(first.latMeanNs()).isPresent();
		// From the first vendor_clat_hist.1.log line (coarseness 1, 928 bins), computed
		// independently in Python:
		// 148271 IOs, P50 202752, P99 421888, P99.9 598016, top bin 1851392 ns.
		assertThat(first.clatPercentilesNs()).contains(new FioSecondLatencyNs(202_752, 421_888, 598_016, 1_851_392));
		assertThat(randwrite.seconds().get(18).write().orElseThrow().iops()).isEqualTo(139_906);
		assertThat(randwrite.seconds().get(0).read()).isEmpty();

		PerSecondSeries writeIops = randwrite.iopsSeries(FioDirection.WRITE);
		assertThat(Arrays.stream(writeIops.values()).sum()).isEqualTo(2_564_085);
		assertThat(randwrite.totalIopsSeries().values()).containsExactly(writeIops.values());
		assertThat(randwrite.bytesSeries(FioDirection.WRITE)).isPresent();
		assertThat(randwrite.bytesSeries(FioDirection.READ)).isEmpty();

		// The histogram log misses fio's last second: 2,560,466 of 2,725,283 IOs. Its P50
		// is within fio's
		// bin width (coarseness 1: 1/32) plus HdrHistogram's 1/128 of the JSON's P50
		// (193536 ns).
		LatencyQos qos = LatencyQosAnalyzer.of(randwrite.clatHistograms().get(FioDirection.WRITE)).orElseThrow();
		assertThat(qos.count()).isEqualTo(2_560_466);
		assertThat((double) qos.p50Ns()).isCloseTo(193_536, within(193_536 * 0.04));
		// fio's exact minimum (498 ns) is in a coarse bin whose midpoint lands in another
		// HdrHistogram bucket,
		// so the histogram's own lowest value is reported.
		assertThat(qos.minNs()).isEqualTo(500);
		assertThat(randwrite.notes()).anySatisfy((note) -> assertThat(note).contains("holds 2560466 of the 2725283"));

		FioJob oltp = result.jobs().get(1);
		assertThat(oltp.totals()).containsOnlyKeys(FioDirection.READ, FioDirection.WRITE);
		assertThat(oltp.seconds()).hasSize(9);
		assertThat(Arrays.stream(oltp.iopsSeries(FioDirection.READ).values()).sum()).isEqualTo(518_363);
		assertThat(Arrays.stream(oltp.totalIopsSeries().values()).sum()).isEqualTo(518_363 + 255_253);
		assertThat(oltp.clatHistograms()).isEmpty();
		assertThat(oltp.notes()).anySatisfy((note) -> assertThat(note).contains("submission latency log ignored"));

		// The tested range: both jobs ran with size=256m (global) on what the vendor says
		// is a 3.84 TB drive. Bytes: the bw log where there is one, else IOPS x the
		// JSON's
		// mean IO size (8 KiB writes for the OLTP job: 2346229760 / 286405).
		assertThat(randwrite.sizeOption()).contains("256m");
		assertThat(randwrite.rangePercent(3_840_755_982_336L).getAsDouble())
			.isCloseTo(100.0 * 268_435_456 / 3_840_755_982_336L, within(1e-12));
		assertThat(randwrite.bytesLogged(FioDirection.WRITE)).isTrue();
		assertThat(randwrite.bytesAt(randwrite.seconds().get(0), FioDirection.WRITE)).isEqualTo(594_066L * 1024);
		assertThat(oltp.bytesLogged(FioDirection.WRITE)).isFalse();
		FioSecond oltpFirst = oltp.seconds().get(0);
		assertThat(oltp.bytesAt(oltpFirst, FioDirection.WRITE)).isEqualTo(oltpFirst.write().orElseThrow().iops()
				* oltp.totals().get(FioDirection.WRITE).ioBytes() / oltp.totals().get(FioDirection.WRITE).totalIos());
		assertThat(oltp.totals().get(FioDirection.WRITE).ioBytes() / oltp.totals().get(FioDirection.WRITE).totalIos())
			.isEqualTo(8192);
		assertThat(oltp.notes()).anySatisfy((note) -> assertThat(note).contains("no bw log"));

		// The imported phase goes straight into the analysis.
		SteadyStateResult steadyState = SteadyStateDetector.detect(writeIops, PerSecondSeries.empty(),
				Eligibility.notApplicable("rounds only"), 3, OptionalInt.empty());
		assertThat(steadyState.rounds()).hasSize(7);
	}

	@Test
	void sizesAreReadAsFioReadsThem() {
		assertThat(FioSize.parse("256m").bytes()).hasValue(256L << 20);
		assertThat(FioSize.parse("4KiB").bytes()).hasValue(4096);
		assertThat(FioSize.parse("2T").bytes()).hasValue(2L << 40);
		assertThat(FioSize.parse("1000").bytes()).hasValue(1000);
		assertThat(FioSize.parse("75%").percent()).hasValue(75.0);
		assertThat(FioSize.parse("1g-2g")).isNull();
		assertThat(FioSize.parse("0")).isNull();
		assertThat(FioSize.parse("150%")).isNull();
		FioJob noSize = new FioJob(1, "j", Map.of(), List.of(), Map.of(), List.of(), Optional.empty());
		assertThat(noSize.rangePercent(1000)).hasValue(100.0);
		FioJob odd = new FioJob(1, "j", Map.of(), List.of(), Map.of(), List.of(), Optional.of("1g-2g"));
		assertThat(odd.rangePercent(1000)).isEmpty();
	}

	@Test
	void refusesPerIoLogs() {
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(FioFixtures.text("per-io-logging", "perio.json"),
					FioFixtures.logFiles("per-io-logging")))
			.withMessageContaining("line 1: block size 4096 in the entry: fio logged every IO")
			.withMessageContaining("log_avg_msec=1000");
	}

	@Test
	void refusesOtherAveragingIntervals() {
		String json = FioFixtures.text("avg-500ms", "avg500.json");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(json, FioFixtures.logFiles("avg-500ms")))
			.withMessage(
					"job 1 ('randwrite-4k-qd32') ran with log_avg_msec=500: per-second logs need log_avg_msec=1000");
		// Without the option in the JSON, the log's own timing gives it away.
		String withoutOption = json.replace("\"log_avg_msec\" : \"500\"", "\"log_avg_msec_removed\" : \"500\"");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(withoutOption, FioFixtures.logFiles("avg-500ms")))
			.withMessageContaining("entries 500 ms apart, not 1000 ms");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(withoutOption,
					List.of(new FioLogFile("x_iops.1.log", "2000, 5, 1, 0, 0\n4000, 5, 1, 0, 0\n6000, 5, 1, 0, 0\n"))))
			.withMessageContaining("entries are mostly 2000 ms apart");
	}

	@Test
	void refusesWhatIsNotFioJson() {
		assertThatExceptionOfType(FioImportException.class).isThrownBy(() -> FioImport.read("hello", List.of()))
			.withMessageContaining("not fio JSON output");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read("{\"jobs\": []}", List.of()))
			.withMessage("not fio JSON output: no \"fio version\" field");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read("{\"fio version\": ", List.of()))
			.withMessageStartingWith("not fio JSON output: ");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read("{\"fio version\": \"fio-3.33\", \"jobs\": []}", List.of()))
			.withMessage("fio JSON has no jobs");
	}

	@Test
	void skipsWarningsBeforeTheJson() {
		FioImportResult result = FioImport.read("note: both iodepth >= 1 and synchronous I/O engine\n" + twoJobsJson(),
				List.of());
		assertThat(result.jobs()).hasSize(2);
		assertThat(result.notes()).containsExactly("skipped 1 line(s) of text before the JSON");
		assertThat(result.jobs().get(0).seconds()).isEmpty();
	}

	@Test
	void refusesEmptyLogs() {
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(twoJobsJson(), List.of(new FioLogFile("vendor_iops.1.log", "\n"))))
			.withMessage("vendor_iops.1.log is empty: fio wrote no entry (did the job do IO?)");
	}

	@Test
	void refusesMismatchedDirections() {
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(twoJobsJson(),
					List.of(new FioLogFile("vendor_iops.1.log", "1000, 5, 0, 0, 0\n2000, 5, 0, 0, 0\n"))))
			.withMessage("mismatched directions: vendor_iops.1.log has read entries but job 1 ('randwrite-4k-qd32')"
					+ " did no read IO (JSON read.total_ios = 0)");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(twoJobsJson(),
					List.of(new FioLogFile("vendor_iops.2.log", "1000, 5, 1, 0, 0\n2000, 5, 1, 0, 0\n"))))
			.withMessage("mismatched directions: vendor_iops.2.log has no read entries but job 2 ('oltp-8k-qd32')"
					+ " did 581361 read IOs");
		assertThatExceptionOfType(FioImportException.class).isThrownBy(
				() -> FioImport.read(twoJobsJson(), List.of(new FioLogFile("vendor_iops.1.log", "1000, 5, 7, 0, 0\n"))))
			.withMessageContaining("line 1: data direction 7 is not 0 (read), 1 (write) or 2 (trim)");
	}

	@Test
	void refusesLogsThatDoNotBelongToAJob() {
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(twoJobsJson(), List.of(new FioLogFile("results.txt", "1000, 5, 1, 0, 0"))))
			.withMessageContaining("results.txt is not a fio log name");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(
					() -> FioImport.read(twoJobsJson(), List.of(new FioLogFile("x_iops.3.log", "1000, 5, 1, 0, 0"))))
			.withMessageContaining("belongs to job 3 but the JSON has 2 job(s)");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(twoJobsJson(), List.of(new FioLogFile("x_iops.log", "1000, 5, 1, 0, 0"))))
			.withMessageContaining("per_job_logs=0");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(twoJobsJson(),
					List.of(new FioLogFile("a_iops.1.log", "1000, 5, 1, 0, 0"),
							new FioLogFile("dir/b_iops.1.log", "1000, 5, 1, 0, 0"))))
			.withMessage("two iops logs for job 1: a_iops.1.log and b_iops.1.log");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(twoJobsJson(),
					List.of(new FioLogFile("x_clat.1.log", "1000, 5, 1, 0, 0\n2000, 5, 1, 0, 0\n"))))
			.withMessageContaining("has clat logs but no iops log");
	}

	@Test
	void refusesEpochTimesAndGarbage() {
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(twoJobsJson(),
					List.of(new FioLogFile("x_iops.1.log", "1795381201000, 5, 1, 0, 0\n"))))
			.withMessageContaining("log_unix_epoch=1");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(
					() -> FioImport.read(twoJobsJson(), List.of(new FioLogFile("x_iops.1.log", "1000, abc, 1, 0\n"))))
			.withMessageContaining("line 1: field 2 \"abc\" is not an integer");
		assertThatExceptionOfType(FioImportException.class)
			.isThrownBy(() -> FioImport.read(twoJobsJson(), List.of(new FioLogFile("x_iops.1.log", "1000, 5\n"))))
			.withMessageContaining("line 1: 2 fields");
	}

	@Test
	void dropsTheFinalPartialWindowAndKeepsGapsMissing() {
		// 1000, 2000, 4000 (t = 3 missing), then fio's end-of-job flush at 4000 again.
		String iops = "1000, 10, 1, 0, 0\n2000, 20, 1, 0, 0\n4000, 40, 1, 0, 0\n4000, 7, 1, 0, 0\n";
		FioJob job = FioImport.read(twoJobsJson(), List.of(new FioLogFile("x_iops.1.log", iops))).jobs().get(0);
		assertThat(job.iopsSeries(FioDirection.WRITE).t()).containsExactly(1, 2, 4);
		assertThat(job.iopsSeries(FioDirection.WRITE).values()).containsExactly(10, 20, 40);
		assertThat(job.notes()).contains("x_iops.1.log: dropped fio's final partial window for write",
				"x_iops.1.log: 1 second(s) missing for write (kept missing, not interpolated)");
		// A flush 600 ms after the last full window is partial too.
		FioJob partial = FioImport
			.read(twoJobsJson(),
					List.of(new FioLogFile("x_iops.1.log", "1145, 10, 1, 0, 0\n2145, 20, 1, 0, 0\n2745, 9, 1, 0, 0\n")))
			.jobs()
			.get(0);
		assertThat(partial.iopsSeries(FioDirection.WRITE).values()).containsExactly(10, 20);
	}

	@Test
	void readsHistogramLogsAtFullResolution() {
		// One window of coarseness 0 (1856 bins): 3 IOs in bin 100 (exactly 100 ns), 1 in
		// bin 128 ([128, 130): 129).
		long[] bins = new long[FioBins.PLAT_NR];
		bins[100] = 3;
		bins[128] = 1;
		StringBuilder line = new StringBuilder("1001, 1, 4096");
		for (long count : bins) {
			line.append(", ").append(count);
		}
		List<FioLogFile> logs = new ArrayList<>(List.of(new FioLogFile("x_iops.1.log", "1000, 4, 1, 0, 0\n"),
				new FioLogFile("x_clat_hist.1.log", line + "\n")));
		FioJob job = FioImport.read(twoJobsJson(), logs).jobs().get(0);
		// P50 rank 2 -> 100; P99 rank 4 -> 129; P99.9 rank 4 -> 129; top bin 129.
		assertThat(job.seconds().get(0).write().orElseThrow().clatPercentilesNs())
			.contains(new FioSecondLatencyNs(100, 129, 129, 129));
		assertThat(job.clatHistograms().get(FioDirection.WRITE).totalCount()).isEqualTo(4);

		logs.set(1, new FioLogFile("x_clat_hist.1.log", "1001, 1, 4096, 1, 2, 3\n"));
		assertThatExceptionOfType(FioImportException.class).isThrownBy(() -> FioImport.read(twoJobsJson(), logs))
			.withMessageContaining("3 histogram bins; fio 3.x writes 1856 >> log_hist_coarseness");
	}

	@Test
	void binValuesMatchFiosPlatIdxToVal() {
		// fio stat.c plat_idx_to_val: idx < 128 -> idx; else base + (k + 0.5) *
		// 2^error_bits.
		assertThat(FioBins.valueNs(0, 0)).isZero();
		assertThat(FioBins.valueNs(127, 0)).isEqualTo(127);
		assertThat(FioBins.valueNs(128, 0)).isEqualTo(129);
		assertThat(FioBins.valueNs(191, 0)).isEqualTo(128 + 63 * 2 + 1);
		// The last bin: idx 1855 -> error_bits (1855 >> 6) - 1 = 27, base 2^33, k = 63.
		assertThat(FioBins.valueNs(1855, 0)).isEqualTo((1L << 33) + (long) (63.5 * (1L << 27)));
		// The JSON's P50 193536 is a bin value: 2^17 + 30.5 * 2^11.
		assertThat(FioBins.valueNs(11 * 64 + 64 + 30, 0)).isEqualTo(193_536);
		// Coarseness 1 merges bins 2j and 2j+1: [128, 132) -> 130.
		assertThat(FioBins.valueNs(64, 1)).isEqualTo(130);
		assertThat(FioBins.coarsenessOf(928)).isEqualTo(1);
		assertThat(FioBins.coarsenessOf(1216)).isEqualTo(-1);
	}

	private static String twoJobsJson() {
		return FioFixtures.text(TWO_JOBS, "vendor.json");
	}

}

#!/usr/bin/env bash
# Multi-stream workloads on real IO and on the simulated drive: a rate-limited read stream beside
# a saturating write stream (offered vs achieved each second, per-direction tails), FDP placement
# lowering the simulated drive's WAF, the stall
# demonstration (a drive stall of known length shows in the response-time tail of an open loop
# and not in its service-time tail), trims as a stream on a file and on a loop device, and a
# latency-at-load sweep to saturation on the simulated drive.
# Usage: streams.sh CASE (see the case list at the bottom).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/lib.sh"
REPORT="$HERE/streams_report.py"

# The sim drive stalls for 200 ms at 10 s of its clock while a 10k IOPS open-loop read stream
# (QD8) runs for 30 s (seed 1): 2,000 arrivals are due during the stall. Response time (from each IO's
# intended issue time) shows the stall from P99.9 up; service time (fio's lat) keeps the drive's
# 10 us at P99.99 and shows the stall only in the 8 IOs that were in flight (max).
case_stall_sim() {
	start_case stall-sim
	run_json "$CASE_DIR/run.jsonl" --engine sim --filename sim:enterprise-eager \
		--sim_stall 10000+200 --runtime 30 --seed 1 \
		--stream 'name=reads,rw=randread,bs=4k,iodepth=8,rate_iops=10000'
	[ "$STATUS" -eq 0 ] || fail "the run failed ($STATUS)"
	"$CHECK" stream "$CASE_DIR/run.jsonl" || fail "invalid output"
	python3 "$REPORT" "$CASE_DIR/run.jsonl" --check offered=reads:300000 \
		ios-above=reads:read:299999 rate-within-pct=1 \
		service-p9999-below-ns=reads:read:1000000 \
		response-p9999-above-ns=reads:read:150000000 \
		service-max-above-ns=reads:read:190000000 || fail "the stall did not show as it should"
	# the same drive without the stall: both tails stay at the drive's own latency
	run_json "$CASE_DIR/calm.jsonl" --engine sim --filename sim:enterprise-eager --runtime 30 --seed 1 \
		--stream 'name=reads,rw=randread,bs=4k,iodepth=8,rate_iops=10000'
	[ "$STATUS" -eq 0 ] || fail "the calm run failed ($STATUS)"
	python3 "$REPORT" "$CASE_DIR/calm.jsonl" --check offered=reads:300000 \
		service-p9999-below-ns=reads:read:1000000 || fail "the calm run's tail moved"
	if python3 "$REPORT" "$CASE_DIR/calm.jsonl" --check \
		response-p9999-above-ns=reads:read:1000000 >/dev/null; then
		fail "the calm run's response tail is above 1 ms without a stall"
	fi
	echo "ok stall-sim"
}

# A 20k IOPS Poisson read stream (QD64: the rate times the 2 ms reads take behind the writes
# needs ~40 slots) beside a saturating 128 KiB write stream on the simulated
# drive: every second achieves its offer within 1 %.
case_mixed_sim() {
	start_case mixed-sim
	run_json "$CASE_DIR/run.jsonl" --engine sim --filename sim:enterprise-eager --runtime 20 \
		--seed 1 --stream 'name=reads,rw=randread,bs=4k,iodepth=64,rate_iops=20000,rate_process=poisson' \
		--stream 'name=writes,rw=randwrite,bs=128k,iodepth=32'
	[ "$STATUS" -eq 0 ] || fail "the run failed ($STATUS)"
	"$CHECK" stream "$CASE_DIR/run.jsonl" || fail "invalid output"
	python3 "$REPORT" "$CASE_DIR/run.jsonl" --check rate-within-pct=1 \
		ios-above=writes:write:10000 || fail "the read stream missed its rate"
	echo "ok mixed-sim"
}

# FDP through the runner (docs/simulator.md, "Flexible Data Placement"): the same hot/cold streams
# (hot: 10 % of the LBAs at QD27, cold: the other 90 % at QD3) on sim:test-fdp-enterprise, placed
# (hot on handle 1, cold on 0) and not, each a job of fill, 900 s warm-up and 600 s measured with
# SMART snapshots. The drive's own WAF over the measured phase must fall with placement (measured
# 2.67 placed, 3.15-3.17 not: 0.84-0.85) and both must show GC (> 1.5).
case_fdp_sim() {
	start_case fdp-sim
	local serial mode
	serial="$(serial_of sim:test-fdp-enterprise --engine sim)"
	for mode in placed plain; do
		python3 - "$mode" "$serial" >"$CASE_DIR/$mode.json" <<'PY'
import json, sys
mode, serial = sys.argv[1], sys.argv[2]
def streams():
    hot = {"name": "hot", "rw": "randwrite", "blockSizeBytes": 4096, "queueDepth": 27, "rangePercent": 10}
    cold = {"name": "cold", "rw": "randwrite", "blockSizeBytes": 4096, "queueDepth": 3,
            "offsetPercent": 10, "rangePercent": 90}
    if mode == "placed":
        hot["placementHandle"], cold["placementHandle"] = 1, 0
    return [hot, cold]
print(json.dumps({"schemaVersion": 1, "type": "start", "commandId": "cmd-fdp-" + mode,
    "jobId": "job-fdp-" + mode, "runnerId": "local", "issuedAt": "2026-11-29T06:00:00.000Z",
    "device": {"serial": serial}, "engine": "sim", "phases": [
        {"index": 0, "name": "fill", "kind": "precondition", "rw": "write", "blockSizeBytes": 131072,
         "queueDepth": 32, "rangePercent": 100, "passes": 1},
        {"index": 1, "name": "warm-up", "kind": "workload", "runtimeS": 900, "streams": streams()},
        {"index": 2, "name": "measure", "kind": "workload", "runtimeS": 600, "smartSnapshot": True,
         "streams": streams()}]}))
PY
		run_json "$CASE_DIR/$mode.jsonl" --engine sim --filename sim:test-fdp-enterprise \
			--job "$CASE_DIR/$mode.json"
		[ "$STATUS" -eq 0 ] || fail "the $mode job failed ($STATUS)"
	done
	python3 - "$CASE_DIR/placed.jsonl" "$CASE_DIR/plain.jsonl" <<'PY' || fail "placement did not lower the drive's WAF"
import json, sys
def waf(path):
    snaps = {}
    for line in open(path):
        event = json.loads(line)
        if event.get("type") == "smart-snapshot" and event["phaseIndex"] == 2:
            snaps[event["when"]] = event["smart"]
    before, after = snaps["before"], snaps["after"]
    media = after["ocp"]["physicalMediaUnitsWrittenBytes"] - before["ocp"]["physicalMediaUnitsWrittenBytes"]
    return media / ((after["dataUnitsWritten"] - before["dataUnitsWritten"]) * 512000)
placed, plain = waf(sys.argv[1]), waf(sys.argv[2])
print(f"device WAF placed {placed:.3f}, not placed {plain:.3f}, ratio {placed / plain:.3f}")
sys.exit(0 if placed > 1.5 and plain > 1.5 and placed < 0.9 * plain else 1)
PY
	echo "ok fdp-sim"
}

# The same on a loop device with the uring engine, its backing file on tmpfs (a device that keeps
# up, as the rate check needs; an ext4 file behind a loop device stalls reads for 100 ms under
# writeback): a 5,000 IOPS read stream at QD32 beside a saturating 128 KiB QD8 write stream.
case_mixed_loop() {
	need_root_loop
	start_case mixed-loop
	local file serial
	mkdir -p "$CASE_DIR/tmpfs"
	mount -t tmpfs -o size=600m drivequal-streams "$CASE_DIR/tmpfs"
	MOUNTS+=("$CASE_DIR/tmpfs")
	file="$CASE_DIR/tmpfs/backing.img"
	truncate -s 512M "$file"
	new_loop "$file"
	serial=$(serial_of "$LOOP_DEV")
	allow_serial "$CASE_DIR/allow.json" "$serial"
	run_json "$CASE_DIR/run.jsonl" --engine uring --filename "$LOOP_DEV" --runtime 10 \
		--allowlist "$CASE_DIR/allow.json" --serial "$serial" \
		--stream 'name=reads,rw=randread,bs=4k,iodepth=32,rate_iops=5000' \
		--stream 'name=writes,rw=randwrite,bs=128k,iodepth=8'
	[ "$STATUS" -eq 0 ] || fail "the run failed ($STATUS)"
	"$CHECK" stream "$CASE_DIR/run.jsonl" || fail "invalid output"
	# Per second within 1 % is the simulator's check (its clock is virtual); here the wall clock
	# of a shared CI machine can hold the runner off the CPU across a second boundary, which moves
	# completions between seconds without losing any: the phase's total is held to 1 %, each
	# second to 20 % (the per-second figures are printed for the record).
	python3 "$REPORT" "$CASE_DIR/run.jsonl" --check total-rate-within-pct=1 rate-within-pct=20 \
		offered=reads:50000 ios-above=writes:write:1000 || fail "the read stream missed its rate"
	echo "ok mixed-loop"
}

# Trims as a stream on a file (punched holes) and a loop device (the block layer's discard):
# the blocks come back to the file system.
case_trim_file() {
	start_case trim-file
	local file before after serial
	file=$(new_file data.img 64M)
	before=$(stat -c %b "$file")
	serial=$(serial_of "$file")
	allow_serial "$CASE_DIR/allow.json" "$serial"
	run_json "$CASE_DIR/run.jsonl" --engine uring --filename "$file" --runtime 2 \
		--allowlist "$CASE_DIR/allow.json" --serial "$serial" \
		--stream 'name=trims,rw=trim,bs=1m,iodepth=4,size=32m' \
		--stream 'name=reads,rw=randread,bs=4k,iodepth=2,offset=32m,rate_iops=500'
	[ "$STATUS" -eq 0 ] || fail "the run failed ($STATUS)"
	"$CHECK" stream "$CASE_DIR/run.jsonl" || fail "invalid output"
	after=$(stat -c %b "$file")
	python3 "$REPORT" "$CASE_DIR/run.jsonl" --check ios-above=trims:trim:31 \
		rate-within-pct=1 || fail "trims or reads missing"
	[ "$after" -lt "$before" ] || fail "no blocks punched ($before -> $after)"
	echo "ok trim-file: $before -> $after blocks"
}

case_trim_loop() {
	need_root_loop
	start_case trim-loop
	local file serial before after
	file=$(new_file backing.img 128M)
	new_loop "$file"
	before=$(stat -c %b "$file")
	serial=$(serial_of "$LOOP_DEV")
	allow_serial "$CASE_DIR/allow.json" "$serial"
	run_json "$CASE_DIR/run.jsonl" --engine uring --filename "$LOOP_DEV" --runtime 2 \
		--allowlist "$CASE_DIR/allow.json" --serial "$serial" \
		--stream 'name=trims,rw=randtrim,bssplit=1m/50:4m/50,iodepth=4'
	[ "$STATUS" -eq 0 ] || fail "the run failed ($STATUS)"
	"$CHECK" stream "$CASE_DIR/run.jsonl" || fail "invalid output"
	after=$(stat -c %b "$file")
	python3 "$REPORT" "$CASE_DIR/run.jsonl" --check ios-above=trims:trim:10 || fail "no trims"
	[ "$after" -lt "$before" ] || fail "no blocks discarded ($before -> $after)"
	echo "ok trim-loop: $before -> $after blocks"
}

# Latency at load on the simulated drive in its virtual time: after one sequential pass, 4 KiB
# random reads offered open loop (Poisson, QD256) at 10k, 20k, 50k, 100k, 200k, 500k and 1M IOPS,
# 10 s a step, one sweepGroup, as the latency-at-load profile runs them (its steps are 60 s). Its 8
# dies at 70 us a read top out near 114k IOPS: every step up to 100k achieves its offer within 1 %,
# 200k falls short (saturated), and the response P99.99 rises past 3x its low-load value at 100k
# (the knee) and stays there. The runner stops the sweep there: 500k and 1M are skipped (reported,
# no IO), and the job's clock holds only the steps that ran (20 s less than all seven).
case_sweep_sim() {
	start_case sweep-sim
	local target=sim:test-enterprise-eager serial
	serial=$(serial_of "$target" --engine sim)
	allow_serial "$CASE_DIR/allow.json" "$serial"
	python3 - "$serial" >"$CASE_DIR/job.json" <<'PY'
import json, sys
phases = [{"index": 0, "name": "precondition", "kind": "precondition", "rw": "write",
           "blockSizeBytes": 131072, "queueDepth": 32, "rangePercent": 100, "passes": 1,
           "dataPattern": "random"}]
for rate in (10000, 20000, 50000, 100000, 200000, 500000, 1000000):
    phases.append({"index": len(phases), "name": f"randread-4k-{rate // 1000}k", "kind": "workload",
                   "runtimeS": 10, "streams": [{"name": "reads", "rw": "randread",
                   "blockSizeBytes": 4096, "queueDepth": 256, "rateIops": rate,
                   "arrivals": "poisson"}], "sweepGroup": "randread-4k"})
print(json.dumps({"schemaVersion": 1, "type": "start", "commandId": "cmd-sweep", "jobId": "job-sweep",
                  "runnerId": "local", "issuedAt": "2026-11-29T06:00:00.000Z",
                  "device": {"serial": sys.argv[1]}, "phases": phases}))
PY
	run_json "$CASE_DIR/run.jsonl" --engine sim --filename "$target" --job "$CASE_DIR/job.json" \
		--allowlist "$CASE_DIR/allow.json" --seed 1
	[ "$STATUS" -eq 0 ] || fail "the run failed ($STATUS)"
	"$CHECK" stream "$CASE_DIR/run.jsonl" || fail "invalid output"
	python3 "$HERE/sweep_report.py" "$CASE_DIR/run.jsonl" --check kept-up-pct=1 saturated-from=5 \
		knee-at=4 tail-rises-past-knee skipped-after-saturation=2 job-time-is-ran-steps ||
		fail "the sweep did not show its knee, or stop at saturation, as it should"
	echo "ok sweep-sim"
}

case "${1:-}" in
stall-sim) case_stall_sim ;;
mixed-sim) case_mixed_sim ;;
fdp-sim) case_fdp_sim ;;
mixed-loop) case_mixed_loop ;;
trim-file) case_trim_file ;;
trim-loop) case_trim_loop ;;
sweep-sim) case_sweep_sim ;;
*)
	echo "usage: $0 stall-sim|mixed-sim|fdp-sim|mixed-loop|trim-file|trim-loop|sweep-sim" >&2
	exit 2
	;;
esac

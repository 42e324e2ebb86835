#!/usr/bin/env bash
# Data verify on a real NVMe controller: a verify of what the job never wrote refused; then fill,
# 4 KiB random writes at QD32 (each IO timed from its own submission: Little's law within 2%; the
# effective queue depth is a figure, not a bound: under TCG the guest's emulated CPU makes the
# core's gap between reaping and resubmitting cost 2-3% of the depth, 31.19 at 2,022 IOPS on a
# loaded host), then every block read back and checked. While the job settles between the writes
# and the read-back, the namespace is corrupted behind its back (bytes of one block overwritten,
# one block copied over another); the verify must name exactly those two blocks.
source "$(dirname "$0")/lib.sh"

allow="$SCRATCH/allow.json"
allow_serial "$allow" "$NVME_SERIAL"
units=$((NVME_BYTES / NVME_LBA_BYTES))

# Bad input first: a verify of a range this job never wrote is refused before any IO, saying why
# (never a pass over data someone else wrote); the namespace is unchanged (sha256).
job_file "$SCRATCH/unwritten.json" uring '[{"name": "verify", "kind": "verify", "rangePercent": 100}]'
expect_refusal "$SCRATCH/unwritten.json" "$allow" \
	"nothing there was written by this job: nothing to verify" unwrittenVerifyRefusal
job_file "$SCRATCH/verify.json" uring \
	'[{"name": "fill", "kind": "precondition", "blockSizeBytes": 131072, "queueDepth": 32, "rangePercent": 100, "passes": 1},
	  {"name": "randwrite", "kind": "workload", "rw": "randwrite", "blockSizeBytes": 4096, "queueDepth": 32, "rangePercent": 100, "sizeBytes": 16777216},
	  {"name": "settle", "kind": "idle", "idleS": 30},
	  {"name": "verify", "kind": "verify", "rangePercent": 100}]'
out="$SCRATCH/verify.jsonl"
"$RUNNER" run --output-format json --filename "$DEV" --job "$SCRATCH/verify.json" \
	--allowlist "$allow" >"$out" 2>"$out.err" &
pid=$!
for _ in $(seq 1200); do
	grep -q '"type":"phase-started"[^}]*"phaseName":"settle"' "$out" && break
	sleep 0.1
done
grep -q '"phaseName":"settle"' "$out" || { kill "$pid"; fail "the job never reached settle: $(cat "$out.err")"; }
# LBA 256: nine bytes inside the block; LBA 300: a copy of LBA 100 (a misdirected write).
printf 'CORRUPTED' | dd of="$DEV" bs=1 seek=$((256 * NVME_LBA_BYTES + 1000)) conv=notrunc,fsync status=none
dd if="$DEV" of="$DEV" bs="$NVME_LBA_BYTES" skip=100 seek=300 count=1 iflag=direct oflag=direct \
	conv=notrunc status=none
set +e
wait "$pid"
STATUS=$?
set -e
[ "$STATUS" -eq 0 ] || fail "verify job: exit $STATUS: $(cat "$out.err")"
"$CHECK" stream "$out" --final completed --little 1 0.02 --mismatches 3 2 ||
	fail "the stream breaks a promise"
result=$(event "$out" phase-completed 3 | jq -c .verify)
written=$(event "$out" phase-completed 1)
echo "verify: $result"
[ "$(jq -r '"\(.blocksChecked) \(.mismatches) \(.firstMismatches[0].lba) \(.firstMismatches[1].lba)"' <<<"$result")" = "$units 2 256 300" ] ||
	fail "expected all $units blocks checked and mismatches at LBA 256 and 300: $result"
jq -e '.firstMismatches[0].found | test("but the data.s crc is")' <<<"$result" >/dev/null ||
	fail "LBA 256's mismatch must be its checksum"
jq -e '.firstMismatches[1].found | test(" lba 100 ")' <<<"$result" >/dev/null ||
	fail "LBA 300's mismatch must name the block that landed there (LBA 100)"
figure verifyBlocksChecked "$units"
figure verifyMismatches 2
figure randwriteEffectiveQueueDepth "$(jq -r '.effectiveQueueDepthMilli / 1000' <<<"$written")"
figure randwriteMeanLatencyTimesIops "$(jq -r '(.write.meanLatencyNs * .write.ios / .durationNs * 1000 | round) / 1000' <<<"$written")"
echo "ok verify read back all $units blocks and named the two corrupted ones (LBA 256: checksum; LBA 300: LBA 100's data)"

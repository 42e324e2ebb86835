#!/usr/bin/env bash
# Runs inside the guest for the service's end-to-end test (EmulatedNvmeIT): the agent's half of
# the conversation, carried by files in the read-write folder instead of Kafka (the guest has no
# network). Writes the drive inventory (heartbeat.json, allowlisting the emulated drive as an
# operator would), waits for the service's start command (command.json, which the test takes
# from the commands topic), runs it on the drive and leaves the job's samples and events in
# job.jsonl and its exit status in job.status; the test replays them to Kafka.
# Usage (via guest.sh exec DIR --): mailbox.sh DIR RUNNER_ID [WAIT_S]
set -uo pipefail

OUT=${1:?results directory}
runner_id=${2:?runner id}
wait_s=${3:-900}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
source "$OUT/guest.env"
# shellcheck source=drive.sh
source "$here/drive.sh"

say() { echo "mailbox: $*"; }

wait_for_drive || exit 1
# One 4 KiB IO is one NVMe write command only if the block layer merges no neighbours (on the
# namespace and its multipath path): the test counts the IOs the drive took by its Host Write
# Commands.
for queue in /sys/class/block/nvme*/queue/nomerges; do
	echo 2 >"$queue"
done
echo "{\"devices\": [{\"serial\": \"$NVME_SERIAL\", \"comment\": \"the guest tier's emulated drive\"}]}" \
	>"$OUT/allowlist.json"
"$RUNNER" devices --output-format json --runner-id "$runner_id" --allowlist "$OUT/allowlist.json" \
	>"$OUT/heartbeat.json.part" || exit 1
mv "$OUT/heartbeat.json.part" "$OUT/heartbeat.json"
say "inventory written; waiting up to $wait_s s for command.json"
for _ in $(seq 1 "$wait_s"); do
	[ -f "$OUT/command.json" ] && break
	sleep 1
done
[ -f "$OUT/command.json" ] || { say "no command within $wait_s s"; exit 1; }
say "running job $(jq -r .jobId "$OUT/command.json")"
"$RUNNER" run --filename /dev/nvme0n1 --job "$OUT/command.json" --allowlist "$OUT/allowlist.json" \
	--output-format json >"$OUT/job.jsonl.part" 2>"$OUT/job.err"
status=$?
mv "$OUT/job.jsonl.part" "$OUT/job.jsonl"
echo "$status" >"$OUT/job.status"
say "job exit $status; $(wc -l <"$OUT/job.jsonl") lines"
sync

#!/usr/bin/env bash
# Runs inside the guest for the service's end-to-end test (EmulatedNvmeIT): the agent's half of
# the conversation, carried by files in the read-write folder instead of Kafka (the guest has no
# network). Writes the drive inventory (heartbeat.json, allowlisting the emulated drive as an
# operator would), then for each job N = 1..JOBS waits for the service's start command
# (command-N.json, which the test takes from the commands topic), runs it on the drive and leaves
# the job's samples and events in job-N.jsonl and its exit status in job-N.status; the test
# replays them to Kafka. Between jobs the test may change the drive through QEMU's monitor.
# Usage (via guest.sh exec DIR --): mailbox.sh DIR RUNNER_ID [JOBS] [WAIT_S]
set -uo pipefail

OUT=${1:?results directory}
runner_id=${2:?runner id}
jobs=${3:-1}
wait_s=${4:-900}
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
say "inventory written"
for job in $(seq 1 "$jobs"); do
	command="$OUT/command-$job.json"
	say "waiting up to $wait_s s for $(basename "$command")"
	for _ in $(seq 1 "$wait_s"); do
		[ -f "$command" ] && break
		sleep 1
	done
	[ -f "$command" ] || { say "no command within $wait_s s"; exit 1; }
	say "running job $(jq -r .jobId "$command")"
	"$RUNNER" run --filename /dev/nvme0n1 --job "$command" --allowlist "$OUT/allowlist.json" \
		--output-format json >"$OUT/job-$job.jsonl.part" 2>"$OUT/job-$job.err"
	status=$?
	mv "$OUT/job-$job.jsonl.part" "$OUT/job-$job.jsonl"
	echo "$status" >"$OUT/job-$job.status.part"
	mv "$OUT/job-$job.status.part" "$OUT/job-$job.status"
	say "job $job exit $status; $(wc -l <"$OUT/job-$job.jsonl") lines"
	sync
done

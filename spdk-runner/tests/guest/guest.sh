#!/usr/bin/env bash
# The guest tier's launcher: the runner's device paths against a real NVMe controller, QEMU's
# emulated one. Boots one guest (TCG; the host's root filesystem shared read-only, a results folder
# read-write, no network) with an NVMe drive on a sparse file, runs the built runner inside it
# through inguest.sh and reads the results back. In CI (CI=true) it always runs: a missing tool is
# a failure. Elsewhere, without root or without the tools of .ci/install-guest-tools, it skips
# (exit 77) saying why.
#
#   guest.sh check                      are the tools there? 0 yes, 77 skip (why), 1 CI lacks them
#   guest.sh cases [CASE...]            one boot running the cases (all by default); exit 0 when all
#                                       pass or skip, 1 otherwise; results in $WORK/out
#   guest.sh exec DIR -- CMD [ARG...]   one boot running CMD (an absolute path) with DIR as the
#                                       read-write folder (DIR/guest.env describes the drive)
#
# While a guest runs, DIR/qmp.sock (for cases, $WORK/out/qmp.sock) is QEMU's monitor (QMP) on the
# host: a test changes the emulated controller there, QOM path /machine/peripheral/dqctrl (its
# smart_critical_warning bits, as a failing drive would raise them). The guest cannot reach it.
#
# Environment: RUNNER and CHECK (built binaries, absolute), WORK (scratch directory, for cases),
# DRIVEQUAL_GUEST_TOOLS (default ~/.cache/drivequal/guest), DRIVEQUAL_SPDK_RUNNER (a runner built
# against an SPDK install, which a build tree finds by its RUNPATH: adds an IOMMU to the guest
# and runs the spdk-pcie case), GUEST_RANDWRITE_S (the randwrite phase, default 20),
# GUEST_TIMEOUT_S (a hung guest is killed after this, default 1800).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tools=${DRIVEQUAL_GUEST_TOOLS:-$HOME/.cache/drivequal/guest}
SKIP_CODE=77

# The emulated drive: what QEMU is told, and so what the cases expect the runner to read back.
NVME_SERIAL=DRIVEQUAL-QEMU-0001
NVME_BYTES=$((64 * 1024 * 1024))
NVME_LBA_BYTES=4096
# A second controller, only in a boot that runs the fdp case: Flexible Data Placement (NVMe TP4146)
# in its own subsystem (2 reclaim groups, 8 reclaim unit handles of 96 MiB), found by its serial.
FDP_SERIAL=DRIVEQUAL-QEMU-FDP1
FDP_BYTES=$((64 * 1024 * 1024))

say() { echo "guest: $*"; }

# Why the tier cannot run here, or nothing when it can.
missing_reason() {
	[ "$(id -u)" -eq 0 ] || { echo "needs root (the guest's cases format and partition its drive; CI runs as root)"; return; }
	[ -f "$tools/guest-tools.env" ] || { echo "no $tools/guest-tools.env: run .ci/install-guest-tools"; return; }
	# shellcheck source=/dev/null
	source "$tools/guest-tools.env"
	[ -x "$GUEST_QEMU" ] || { echo "$GUEST_QEMU is missing: run .ci/install-guest-tools"; return; }
	local version
	version=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null || true)
	[ "$version" = "$GUEST_QEMU_VERSION" ] ||
		{ echo "qemu-system-x86 is '$version', not $GUEST_QEMU_VERSION: run .ci/install-guest-tools"; return; }
	[ -f "$GUEST_KERNEL" ] || { echo "the guest kernel $GUEST_KERNEL is missing: run .ci/install-guest-tools"; return; }
	[ -x "$GUEST_VNG_BIN/vng" ] || { echo "virtme-ng is missing: run .ci/install-guest-tools"; return; }
	local tool
	for tool in busybox jq mkfs.ext4 sfdisk wipefs modprobe sha256sum nvme; do
		command -v "$tool" >/dev/null || { echo "$tool is not installed: run .ci/install-guest-tools"; return; }
	done
	# virtme-ng's init names the guest command's virtio-serial ports through udev; without it
	# the command's output and exit status never reach the host.
	[ -x /lib/systemd/systemd-udevd ] || [ -x /usr/lib/systemd/systemd-udevd ] ||
		{ echo "systemd-udevd is not installed (package udev): run .ci/install-guest-tools"; return; }
}

# 0 ready; otherwise skips (77) or, in CI, fails (1), saying why.
check_or_leave() {
	local reason
	reason=$(missing_reason)
	[ -z "$reason" ] && return 0
	if [ "${CI:-}" = "true" ]; then
		say "FAIL: CI must run the guest tier, but $reason"
		exit 1
	fi
	echo "************************************************************************"
	say "SKIP: $reason"
	echo "************************************************************************"
	exit "$SKIP_CODE"
}

# props_json DRIVER,KEY=VALUE,...: a -device option as device_add's typed JSON arguments.
props_json() {
	local IFS=, part args
	args=$(jq -c -n --arg d "${1%%,*}" '{driver: $d}')
	for part in ${1#*,}; do
		args=$(jq -c --arg k "${part%%=*}" --arg v "${part#*=}" \
			'. + {($k): (if $v == "on" then true elif $v == "off" then false
				elif ($v | test("^[0-9]+$")) then ($v | tonumber) else $v end)}' <<<"$args")
	done
	echo "$args"
}

# boot DIR IMAGE WITH_IOMMU CMD...: one guest; its console goes to DIR/console.log and stdout.
# GUEST_FDP=yes adds the FDP controller (its namespace on IMAGE-fdp).
boot() {
	local dir=$1 image=$2 iommu=$3
	shift 3
	# shellcheck source=/dev/null
	source "$tools/guest-tools.env"
	rm -f "$image"
	truncate -s "$NVME_BYTES" "$image"
	local qemu_opts="-drive file=$image,if=none,id=dqnvme,format=raw,discard=unmap"
	# The controller sits in a hot-plug PCIe root port's slot, with native hotplug (pciehp, not
	# ACPI's), so the guest can cut its power: /sys/bus/pci/slots/1/power (the power-cycle case).
	qemu_opts+=" -global ICH9-LPC.acpi-pci-hotplug-with-bridge-support=off"
	qemu_opts+=" -device pcie-root-port,id=dqport,chassis=1,slot=1"
	local nvme_props="id=dqctrl,bus=dqport,serial=$NVME_SERIAL,drive=dqnvme,ocp=on"
	nvme_props+=",logical_block_size=$NVME_LBA_BYTES,physical_block_size=$NVME_LBA_BYTES"
	qemu_opts+=" -device nvme,$nvme_props"
	if [ "${GUEST_FDP:-no}" = yes ]; then
		rm -f "$image-fdp"
		truncate -s "$FDP_BYTES" "$image-fdp"
		qemu_opts+=" -drive file=$image-fdp,if=none,id=dqfdpnvme,format=raw,discard=unmap"
		qemu_opts+=" -device nvme-subsys,id=dqfdpsubsys,nqn=drivequal-fdp,fdp=on,fdp.nruh=8,fdp.nrg=2,fdp.runs=96M"
		qemu_opts+=" -device nvme,id=dqfdpctrl,serial=$FDP_SERIAL,subsys=dqfdpsubsys"
		qemu_opts+=" -device nvme-ns,drive=dqfdpnvme,bus=dqfdpctrl,nsid=1,fdp.ruhs=0-7"
		qemu_opts+=",logical_block_size=$NVME_LBA_BYTES,physical_block_size=$NVME_LBA_BYTES"
	fi
	# A socket's path must fit in 108 bytes, which a deep checkout would not: the socket lives in
	# a short temporary directory, DIR/qmp.sock links to it.
	local qmp_dir
	qmp_dir=$(mktemp -d /tmp/drivequal-qmp-XXXXXX)
	ln -sfn "$qmp_dir/qmp.sock" "$dir/qmp.sock"
	qemu_opts+=" -qmp unix:$qmp_dir/qmp.sock,server=on,wait=off"
	# QEMU destroys a controller whose slot the guest powers off; replug.py, on a monitor of its
	# own, puts the same one back (a real slot keeps its drive), logging to DIR/replug.log.
	qemu_opts+=" -qmp unix:$qmp_dir/replug.sock,server=on,wait=off"
	python3 "$here/replug.py" "$qmp_dir/replug.sock" "$dir/replug.log" \
		"$(props_json "nvme,$nvme_props")" &
	local replug_pid=$!
	local extra=() described=""
	if [ "$iommu" = yes ]; then
		qemu_opts="-device intel-iommu $qemu_opts"
		extra=(--append "intel_iommu=on")
		described=", behind an emulated IOMMU"
	fi
	say "booting $GUEST_KERNEL_VERSION on QEMU $GUEST_QEMU_VERSION (TCG), virtme-ng $GUEST_VNG_VERSION;" \
		"NVMe $NVME_SERIAL, $NVME_BYTES bytes, $NVME_LBA_BYTES-byte LBAs$described"
	# virtme-ng runs the guest's command where it is started from: a directory the guest sees.
	(cd "$dir" && PATH="$GUEST_VNG_BIN:$PATH" timeout --kill-after=30 "${GUEST_TIMEOUT_S:-1800}" \
		vng --run "$GUEST_KERNEL" --qemu "$GUEST_QEMU" --disable-kvm --disable-microvm \
		-m 2G -p 2 "${extra[@]}" --rwdir="$dir" --qemu-opts="$qemu_opts" -- "$@" </dev/null 2>&1) |
		tee "$dir/console.log"
	local status=${PIPESTATUS[0]}
	kill "$replug_pid" 2>/dev/null || true
	wait "$replug_pid" 2>/dev/null || true
	rm -rf "$qmp_dir" "$dir/qmp.sock"
	rm -f "$image-fdp"
	return "$status"
}

# The guest's settings, read by inguest.sh and the cases.
write_env() {
	local dir=$1
	{
		printf 'OUT=%q\n' "$dir"
		printf 'RUNNER=%q\n' "${RUNNER:-}"
		printf 'CHECK=%q\n' "${CHECK:-}"
		printf 'NVME_SERIAL=%q\nNVME_BYTES=%q\nNVME_LBA_BYTES=%q\n' "$NVME_SERIAL" "$NVME_BYTES" "$NVME_LBA_BYTES"
		printf 'GUEST_RANDWRITE_S=%q\n' "${GUEST_RANDWRITE_S:-20}"
		printf 'SPDK_RUNNER=%q\n' "${DRIVEQUAL_SPDK_RUNNER:-}"
		printf 'FDP_SERIAL=%q\nFDP_BYTES=%q\nFDP_ATTACHED=%q\n' "$FDP_SERIAL" "$FDP_BYTES" "${GUEST_FDP:-no}"
	} >"$dir/guest.env"
}

cmd_cases() {
	: "${RUNNER:?RUNNER=path of drivequal-runner}"
	: "${CHECK:?CHECK=path of check_output}"
	: "${WORK:?WORK=scratch directory}"
	check_or_leave
	local out="$WORK/out" wanted=("$@") iommu=no started status all=() name
	rm -rf "$WORK"
	mkdir -p "$out"
	for name in "$here"/cases/[0-9][0-9]-*.sh; do
		name=$(basename "$name" .sh)
		all+=("${name#[0-9][0-9]-}")
	done
	[ ${#wanted[@]} -gt 0 ] || wanted=("${all[@]}")
	for name in "${wanted[@]}"; do
		[[ " ${all[*]} " == *" $name "* ]] || { say "no case '$name' (cases: ${all[*]})"; exit 2; }
	done
	if [[ " ${wanted[*]} " == *" spdk-pcie "* ]] && [ -n "${DRIVEQUAL_SPDK_RUNNER:-}" ]; then
		iommu=yes
	fi
	GUEST_FDP=no
	[[ " ${wanted[*]} " == *" fdp "* ]] && GUEST_FDP=yes
	write_env "$out"
	printf '%s\n' "${wanted[@]}" >"$out/cases.txt"
	started=$(date +%s.%N)
	set +e
	boot "$out" "$WORK/nvme.img" "$iommu" "$here/inguest.sh" "$out"
	status=$?
	set -e
	rm -f "$WORK/nvme.img"
	report "$out" "$started" "$status" "${wanted[@]}"
}

# Prints one line per case from results.jsonl and the totals; exit 0 only when every wanted case
# reported pass or skip and the guest's command exited 0.
report() {
	local out=$1 started=$2 status=$3 name line passed=0 failed=0 skipped=0 total_s cases_s
	shift 3
	total_s=$(awk -v now="$(date +%s.%N)" -v then="$started" 'BEGIN { printf "%.0f", now - then }')
	echo
	say "results (each case's log: $out/CASE.log; all figures: $out/results.jsonl)"
	for name in "$@"; do
		line=$(jq -c --arg c "$name" 'select(.case == $c)' "$out/results.jsonl" 2>/dev/null | tail -1 || true)
		if [ -z "$line" ]; then
			say "  $name: FAIL (no result: the guest stopped before it; exit $status)"
			failed=$((failed + 1))
			continue
		fi
		echo "$line" | jq -r '"guest:   \(.case): \(.status | ascii_upcase) in \(.seconds) s: \(.message)\n" +
			(.figures | to_entries | map("guest:       \(.key) = \(.value)") | join("\n"))'
		case $(echo "$line" | jq -r .status) in
		pass) passed=$((passed + 1)) ;;
		skip) skipped=$((skipped + 1)) ;;
		*) failed=$((failed + 1)) ;;
		esac
	done
	cases_s=$(jq -s 'map(.seconds) | add // 0 | round' "$out/results.jsonl" 2>/dev/null || echo 0)
	say "whole tier $total_s s (cases $cases_s s; boot, setup and shutdown the rest)"
	say "$passed passed, $failed failed, $skipped skipped"
	# inguest.sh ends with status 0 once it has run every case: anything else means the guest's
	# command or its way back to the host broke, even when every result reached the folder.
	if [ "$status" -ne 0 ]; then
		say "FAIL: the guest's command exited $status (see $out/console.log)"
		return 1
	fi
	[ "$failed" -eq 0 ]
}

cmd_exec() {
	local dir=$1
	shift
	[ "${1:-}" = "--" ] && shift
	[ $# -gt 0 ] || { say "exec needs a command"; exit 2; }
	check_or_leave
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	write_env "$dir"
	local image status
	image=$(mktemp "$(dirname "$dir")/nvme-XXXXXX.img")
	set +e
	boot "$dir" "$image" no "$@"
	status=$?
	set -e
	rm -f "$image"
	return "$status"
}

case "${1:-}" in
check)
	check_or_leave
	say "ready: $(source "$tools/guest-tools.env" && echo "QEMU $GUEST_QEMU_VERSION, $GUEST_KERNEL_VERSION, virtme-ng $GUEST_VNG_VERSION")"
	;;
cases) shift && cmd_cases "$@" ;;
exec) shift && cmd_exec "$@" ;;
*)
	sed -n '/^#   guest.sh/p' "$0" | sed 's/^#   /usage: /'
	exit 2
	;;
esac

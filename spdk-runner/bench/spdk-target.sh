#!/usr/bin/env bash
# Starts (or stops) an already-installed SPDK nvmf_tgt exporting a malloc bdev over NVMe/TCP on
# loopback, without hugepages: the target the spdk engine's verification and benchmark run
# against when no NVMe drive can be given to SPDK. It builds nothing and installs nothing.
# Usage: SPDK_NVMF_TGT=/path/bin/nvmf_tgt SPDK_RPC=/path/scripts/rpc.py bench/spdk-target.sh start|stop|status
#   env: PORT=4420, SUBNQN=nqn.2016-06.io.drivequal:bench, SERIAL=DRIVEQUAL-SPDK-0001,
#        BDEV_MB=512 (malloc bdev size), BLOCK=4096, MEM_MB=2048 (target memory), CORE_MASK=0x1,
#        RUN_DIR=/tmp/drivequal-spdk-target (pid, log, RPC socket)
set -euo pipefail

PORT="${PORT:-4420}"
SUBNQN="${SUBNQN:-nqn.2016-06.io.drivequal:bench}"
SERIAL="${SERIAL:-DRIVEQUAL-SPDK-0001}"
BDEV_MB="${BDEV_MB:-512}"
BLOCK="${BLOCK:-4096}"
MEM_MB="${MEM_MB:-2048}"
CORE_MASK="${CORE_MASK:-0x1}"
RUN_DIR="${RUN_DIR:-/tmp/drivequal-spdk-target}"
sock="$RUN_DIR/rpc.sock"
pidfile="$RUN_DIR/nvmf_tgt.pid"

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }
rpc() { python3 "${SPDK_RPC:?set SPDK_RPC to scripts/rpc.py of the SPDK install}" -s "$sock" "$@" >/dev/null; }

case "${1:-}" in
start)
	running && { echo "already running (pid $(cat "$pidfile"))" >&2; exit 1; }
	[ -x "${SPDK_NVMF_TGT:-}" ] || { echo "set SPDK_NVMF_TGT to an installed nvmf_tgt" >&2; exit 2; }
	mkdir -p "$RUN_DIR"
	rm -f "$sock"
	# -u: no PCI scan (the target needs none); DPDK 22.11 wants --legacy-mem with --no-huge.
	"$SPDK_NVMF_TGT" -m "$CORE_MASK" -s "$MEM_MB" -u -r "$sock" \
		--env-context="--no-huge --legacy-mem" >"$RUN_DIR/nvmf_tgt.log" 2>&1 &
	echo $! >"$pidfile"
	for _ in $(seq 100); do
		[ -S "$sock" ] && break
		running || { cat "$RUN_DIR/nvmf_tgt.log" >&2; exit 1; }
		sleep 0.2
	done
	rpc nvmf_create_transport -t TCP
	rpc bdev_malloc_create -b Malloc0 "$BDEV_MB" "$BLOCK"
	rpc nvmf_create_subsystem "$SUBNQN" -a -s "$SERIAL" -d "drivequal SPDK test target"
	rpc nvmf_subsystem_add_ns "$SUBNQN" Malloc0
	rpc nvmf_subsystem_add_listener "$SUBNQN" -t tcp -f ipv4 -a 127.0.0.1 -s "$PORT"
	echo "trtype:TCP adrfam:IPv4 traddr:127.0.0.1 trsvcid:$PORT subnqn:$SUBNQN"
	;;
stop)
	if running; then
		kill "$(cat "$pidfile")"
		for _ in $(seq 50); do running || break; sleep 0.2; done
	fi
	rm -f "$pidfile" "$sock"
	;;
status)
	running && echo "running (pid $(cat "$pidfile")), log $RUN_DIR/nvmf_tgt.log" || { echo "stopped"; exit 1; }
	;;
*)
	echo "usage: $0 start|stop|status" >&2
	exit 2
	;;
esac

# Sourced inside the guest by inguest.sh and mailbox.sh: the emulated NVMe namespace, ready.
# Debian's kernel has the nvme driver as a module; the namespace appears once it has probed.
wait_for_drive() {
	modprobe nvme 2>/dev/null || true
	for _ in $(seq 1 60); do
		[ -b /dev/nvme0n1 ] && return 0
		sleep 1
	done
	echo "no /dev/nvme0n1 60 s after loading the nvme driver"
	return 1
}

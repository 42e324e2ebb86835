# Sourced inside the guest by inguest.sh and mailbox.sh: the emulated NVMe namespace, ready.
# Debian's kernel has the nvme driver as a module; the namespace appears once it has probed.
wait_for_drive() {
	modprobe nvme 2>/dev/null || true
	for _ in $(seq 1 60); do
		[ -b /dev/nvme0n1 ] && main_drive_first && return 0
		sleep 1
	done
	echo "no /dev/nvme0n1 60 s after loading the nvme driver"
	return 1
}

# With the FDP controller beside the main one (the fdp case's boot), the driver probes both at
# once and either may become nvme0; the cases name the main drive nvme0n1, so when it is not, both
# are unbound and bound again, the main one first (instances are numbered lowest free first).
main_drive_first() {
	local main="" fdp="" ctrl
	[ "${FDP_ATTACHED:-no}" = yes ] || return 0
	for _ in $(seq 1 60); do
		main="" fdp=""
		for ctrl in /sys/class/nvme/nvme*; do
			case $(xargs <"$ctrl/serial") in
			"$NVME_SERIAL") main=$ctrl ;;
			"$FDP_SERIAL") fdp=$ctrl ;;
			esac
		done
		[ -n "$main" ] && [ -n "$fdp" ] && [ -b "/dev/$(basename "$fdp")n1" ] && break
		sleep 1
	done
	[ -n "$main" ] && [ -n "$fdp" ] || { echo "the FDP controller $FDP_SERIAL did not appear"; return 1; }
	[ "$(basename "$main")" = nvme0 ] && return 0
	main=$(basename "$(readlink -f "$main/device")")
	fdp=$(basename "$(readlink -f "$fdp/device")")
	echo "the FDP controller probed first: rebinding $main before $fdp"
	echo "$main" >/sys/bus/pci/drivers/nvme/unbind
	echo "$fdp" >/sys/bus/pci/drivers/nvme/unbind
	echo "$main" >/sys/bus/pci/drivers/nvme/bind
	for _ in $(seq 1 60); do
		[ -b /dev/nvme0n1 ] && break
		sleep 1
	done
	echo "$fdp" >/sys/bus/pci/drivers/nvme/bind
	for _ in $(seq 1 60); do
		[ -b /dev/nvme1n1 ] && return 0
		sleep 1
	done
	return 1
}

#!/bin/sh
# The power of the chassis ipmi_sim (OpenIPMI's IPMI LAN BMC) simulates for test_power_ipmi:
# ipmi_sim runs "chassis_control.sh DIR 0x20 set power 0|1" for Chassis Control and
# "... get power" for Get Chassis Status. Every set is one line "power off|on" in DIR/chassis.log;
# the power state is DIR/power. A file DIR/refuse-off (refuse-on) makes that set fail, which the
# BMC answers with an error completion code.
dir=$1
case "$3 $4" in
set*)
	[ "$4" = power ] || exit 0
	state=off
	[ "$5" = 1 ] && state=on
	if [ -e "$dir/refuse-$state" ]; then
		echo "power $state refused" >>"$dir/chassis.log"
		exit 1
	fi
	echo "power $state" >>"$dir/chassis.log"
	echo "$5" >"$dir/power"
	;;
get*)
	echo "power:$(cat "$dir/power" 2>/dev/null || echo 1)"
	;;
esac
exit 0

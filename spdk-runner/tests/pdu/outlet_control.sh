#!/bin/sh
# The outlets of the switched PDU snmpd (net-snmp's agent) plays for test_power_pdu, as a "pass"
# handler: snmpd runs "outlet_control.sh DIR -s OID TYPE VALUE" for a SET and "... -g OID" for a
# GET. Every SET is one line "OID VALUE" in DIR/outlet.log; a file DIR/refuse-VALUE makes that SET
# fail with notWritable, as a PDU refusing a locked outlet would.
dir=$1
case "$2" in
-s)
	if [ -e "$dir/refuse-$5" ]; then
		echo "$3 $5 refused" >>"$dir/outlet.log"
		echo not-writable
		exit 0
	fi
	echo "$3 $5" >>"$dir/outlet.log"
	echo "$5" >"$dir/state"
	;;
-g)
	echo "$3"
	echo integer
	cat "$dir/state" 2>/dev/null || echo 1
	;;
esac
exit 0

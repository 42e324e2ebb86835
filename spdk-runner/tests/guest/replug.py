#!/usr/bin/env python3
"""The emulated drive's way back after a power cut in the guest (guest.sh starts it on the host).

When the guest turns its PCIe slot's power off (pciehp: power controller off, then the power
indicator off), QEMU's root port unplugs the device behind it (hw/pci/pcie.c,
pcie_cap_slot_write_config): the controller object is destroyed, the backing file stays. A real
slot keeps its drive, so this helper puts an identical controller back on QEMU's monitor (QMP)
as soon as QEMU reports it deleted (DEVICE_DELETED): same id, port, serial, drive and options.
The guest then sees a card present in a powered-off slot, as after a real power cut, and powers
it on. Every replug is logged (one line each) to the file named by --log.

Usage: replug.py SOCKET LOG DEVICE_JSON
"""
import json
import socket
import sys
import time


def main():
    sock_path, log_path, device = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    for _ in range(600):
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(sock_path)
            break
        except OSError:
            time.sleep(0.1)
    else:
        print(f"replug: cannot connect to {sock_path}", file=sys.stderr)
        return 1
    stream = sock.makefile("rw")

    def send(command, arguments=None):
        message = {"execute": command}
        if arguments is not None:
            message["arguments"] = arguments
        stream.write(json.dumps(message) + "\n")
        stream.flush()

    json.loads(stream.readline())  # the greeting
    send("qmp_capabilities")
    with open(log_path, "a", buffering=1) as log:
        for line in stream:
            message = json.loads(line)
            event = message.get("event")
            if event == "DEVICE_DELETED" and message["data"].get("device") == device["id"]:
                send("device_add", device)
                log.write(json.dumps({"t": time.time(), "replugged": device["id"]}) + "\n")
            elif "error" in message:
                log.write(json.dumps({"t": time.time(), "error": message["error"]}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

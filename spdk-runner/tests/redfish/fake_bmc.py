#!/usr/bin/env python3
"""A BMC's Redfish reset actions on loopback, for test_power_redfish: records every request.

POST /redfish/v1/Chassis/<id>/Actions/Chassis.Reset with {"ResetType": ...}:
  chassis "enclosure": 204 for ForceOff and On;
  chassis "locked": 400 with a Redfish error body (@Message.ExtendedInfo) for every reset;
  chassis "flaky": 204 for ForceOff, 503 with error.message for On.
Each request is one JSON line in LOG: method, path, body, the Authorization header.
Usage: fake_bmc.py PORT_FILE LOG   (writes the port it listens on, 127.0.0.1, to PORT_FILE)
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


class Bmc(BaseHTTPRequestHandler):
    log_path = None

    def log_message(self, *args):
        pass

    def answer(self, status, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        if data:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode()
        with open(Bmc.log_path, "a") as log:
            log.write(json.dumps({"method": "POST", "path": self.path, "body": body,
                                  "authorization": self.headers.get("Authorization")}) + "\n")
        parts = self.path.split("/")
        if len(parts) != 7 or parts[1:4] != ["redfish", "v1", "Chassis"] or \
                parts[5:] != ["Actions", "Chassis.Reset"]:
            self.answer(404, {"error": {"code": "Base.1.8.ResourceNotFound",
                                        "message": f"no resource {self.path}"}})
            return
        reset = json.loads(body).get("ResetType")
        chassis = parts[4]
        if chassis == "enclosure" or (chassis == "flaky" and reset == "ForceOff"):
            self.answer(204)
        elif chassis == "locked":
            self.answer(400, {"error": {"code": "Base.1.8.GeneralError",
                                        "message": "A general error has occurred.",
                                        "@Message.ExtendedInfo": [{
                                            "MessageId": "Base.1.8.ActionNotSupported",
                                            "Message": f"The action Chassis.Reset with ResetType "
                                                       f"{reset} is not supported by the chassis "
                                                       f"locked while its service lock is held."}]}})
        else:
            self.answer(503, {"error": {"code": "Base.1.8.ServiceTemporarilyUnavailable",
                                        "message": "The BMC is busy; retry later."}})


def main():
    Bmc.log_path = sys.argv[2]
    server = HTTPServer(("127.0.0.1", 0), Bmc)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A webhook subscriber for trying Hookfan out: prints every POST it receives (headers, body) and answers 204.

    python3 scripts/subscriber.py 9999      # then subscribe http://127.0.0.1:9999/hooks
"""
import http.server
import sys


class Subscriber(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        print(f"POST {self.path}")
        for name in ("webhook-id", "webhook-timestamp", "webhook-signature", "hookfan-event-type", "hookfan-message-id"):
            print(f"  {name}: {self.headers.get(name)}")
        print(f"  {body.decode('utf-8', 'replace')}\n", flush=True)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


port = int(sys.argv[1]) if len(sys.argv) > 1 else 9999
print(f"subscriber: listening on http://127.0.0.1:{port}/", flush=True)
http.server.HTTPServer(("127.0.0.1", port), Subscriber).serve_forever()

#!/usr/bin/env python3
"""Loopback fixture server for planner's provider tests and benches.

Python 3 standard library only. Binds 127.0.0.1 on an ephemeral port,
prints "PORT <n>" on stdout, and serves recorded payloads in each
provider's real shape from --root. Requests look like

    /<scenario>/<the provider's real path and query>

so a test points PLANNER_<NAME>_URL at http://127.0.0.1:<port>/<scenario>.
The scenario segment is "<kind>" or "<kind>-<tag>"; the tag only keeps the
per-scenario counters of different tests apart. Kinds:

  ok        the recorded payload
  <variant> <name>.<variant>.<ext> when that file exists (v2, empty, error)
  429once   429 with Retry-After: 1 the first time, then the payload
  500once   500 the first time, then the payload
  500       500 every time
  drop      full Content-Length, half the body, connection closed
  html      an HTML error page with status 200
  badjson   200, application/json, a body cut to half (complete transfer)
  slow      the payload after --slow seconds (longer than the client timeout)
  echokey   200 with an error body that repeats the Authorization header

GET /_log/<segment> returns the requests seen for that segment as JSON
(method, path, and the headers that matter: no values but the user agent
and accept-encoding, and whether an auth header came).
"""
import argparse
import gzip
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROUTES = [
    (re.compile(r"^/api/v1/instance-types$"), "lambda", "json"),
    (re.compile(r"^/api/v0/bundles/?$"), "vast", "json"),
    (re.compile(r"^/graphql$"), "runpod", "json"),
    (re.compile(r"^/api/retail/prices$"), "azure", "json"),
    (re.compile(r"^/offers/v1\.0/aws/AmazonEC2/current/([a-z0-9-]+)/index\.csv$"), "aws", "csv"),
    (re.compile(r"^/v1/services/6F81-5844-456A/skus$"), "gcp", "json"),
    (re.compile(r"^/api/v1/models$"), "openrouter", "json"),
    (re.compile(r"^/BerriAI/litellm/main/model_prices_and_context_window\.json$"), "litellm", "json"),
]

HTML_PAGE = (b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>"
             b"<body><h1>502 Bad Gateway</h1><p>cloudflare</p></body></html>\n")


class State:
    def __init__(self, root, slow):
        self.root = root
        self.slow = slow
        self.lock = threading.Lock()
        self.hits = {}
        self.log = {}


class Handler(BaseHTTPRequestHandler):
    server_version = "fixture/1"
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *args):  # quiet
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.handle_any()

    def do_GET(self):
        self.handle_any()

    # --- helpers -------------------------------------------------------
    def reply(self, status, body, ctype="application/json", extra=None, length=None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def payload_file(self, name, ext, kind, region, query):
        """The recorded file for this request, or None."""
        st = self.server.state
        stem = name
        if name == "azure":
            skip = query.get("$skip", ["0"])[0]
            if skip != "0":
                stem = "azure.skip" + re.sub(r"[^0-9]", "", skip)
        elif name == "gcp":
            token = query.get("pageToken", [""])[0]
            if token:
                stem = "gcp." + re.sub(r"[^A-Za-z0-9_-]", "", token)
        elif name == "aws" and os.path.exists(os.path.join(st.root, "aws-%s.csv" % region)):
            stem = "aws-" + region
        for cand in ("%s.%s.%s" % (stem, kind, ext), "%s.%s" % (stem, ext)):
            path = os.path.join(st.root, cand)
            if os.path.exists(path):
                return path
        return None

    def handle_any(self):
        st = self.server.state
        url = urllib.parse.urlsplit(self.path)
        parts = url.path.split("/", 2)
        if len(parts) < 3:
            return self.reply(404, b'{"error":"no scenario"}')
        segment, real = parts[1], "/" + parts[2]
        if segment == "_log":
            with st.lock:
                body = json.dumps(st.log.get(parts[2], [])).encode()
            return self.reply(200, body)
        kind = segment.split("-", 1)[0]
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        auth = self.headers.get("Authorization") or self.headers.get("X-Goog-Api-Key")
        with st.lock:
            st.log.setdefault(segment, []).append({
                "method": self.command,
                "path": real,
                "query": url.query,
                "user_agent": self.headers.get("User-Agent", ""),
                "accept_encoding": self.headers.get("Accept-Encoding", ""),
                "auth": self.headers.get("Authorization", "").split(" ")[0],
                "goog_key": bool(self.headers.get("X-Goog-Api-Key")),
            })
            key = segment + " " + self.path
            st.hits[key] = st.hits.get(key, 0) + 1
            hit = st.hits[key]
        for rx, name, ext in ROUTES:
            m = rx.match(real)
            if m:
                break
        else:
            return self.reply(404, b'{"error":"unknown path"}')
        region = m.group(1) if m.groups() else ""
        if kind == "429once" and hit == 1:
            return self.reply(429, b'{"error":"rate limited"}', extra={"Retry-After": "1"})
        if kind == "500once" and hit == 1:
            return self.reply(500, b'{"error":"internal"}')
        if kind == "500":
            return self.reply(500, HTML_PAGE, "text/html")
        if kind == "html":
            return self.reply(200, HTML_PAGE, "text/html; charset=utf-8")
        if kind == "echokey":
            msg = "invalid key: %s" % (auth or "")
            return self.reply(200, json.dumps({"errors": [{"message": msg}],
                                               "error": {"message": msg}}).encode())
        if kind == "slow":
            time.sleep(st.slow)
        path = self.payload_file(name, ext, kind, region, query)
        if path is None:
            return self.reply(404, b'{"error":"no fixture"}')
        ctype = "text/csv" if ext == "csv" else "application/json"
        size = os.path.getsize(path)
        if ext == "csv" and kind not in ("drop", "badjson"):
            # Big files (the bench) go out with sendfile, unbuffered.
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            self.wfile.flush()
            with open(path, "rb") as f:
                try:
                    self.connection.sendfile(f)
                except (BrokenPipeError, ConnectionResetError):
                    pass
            return
        with open(path, "rb") as f:
            body = f.read()
        if kind == "badjson":
            return self.reply(200, body[: len(body) // 2], ctype)
        extra = {}
        # Bodies over 8 MiB (the bench's) go out plain: compressing them
        # here would time Python's zlib, not the planner.
        if ("gzip" in self.headers.get("Accept-Encoding", "") and ext == "json"
                and len(body) <= 8 << 20):
            body = gzip.compress(body, 6)
            extra["Content-Encoding"] = "gzip"
        if kind == "drop":
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in extra.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.reply(200, body, ctype, extra)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Clients that hang up early (the slow and drop scenarios) are the
        # point of those scenarios, not errors worth a traceback.
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--slow", type=float, default=3.0)
    args = ap.parse_args()
    srv = Server(("127.0.0.1", 0), Handler)
    srv.state = State(args.root, args.slow)
    sys.stdout.write("PORT %d\n" % srv.server_address[1])
    sys.stdout.flush()
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

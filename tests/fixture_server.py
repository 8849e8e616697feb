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

Fault scenarios (tests/check_faults.c, tests/check_concurrency.c):

  stall     headers and half the body, then --slow seconds of silence
  cut       full Content-Length, the body cut after <tag> per mille, closed
  429       429 with Retry-After: 1, every time
  503       503 with Retry-After: 1, every time
  loop      302 to the very same URL, every time
  huge      a 4 MiB body (a JSON string, or a CSV "line") with Content-Length
  hugestream  the same without Content-Length (read until close)
  linger    a 3 MiB + 1 byte body with Content-Length, then the connection
            held open for --slow seconds before it closes (a client must
            end at the length, not wait for the close: http.c's SO_RCVLOWAT)
  shape     valid JSON of the wrong shape (an array); a CSV of other columns
  strnum    the payload with every number written as a string
  numstr    every string value a number (numeric ones their value, else 42)
  negprice  every price field negated
  absurd    every price field times 1e12
  shift     every price field times 1.5 (a second, distinguishable feed)
  paged     Vultr: a page whose meta.links.next cursor asks for a second.
            Scaleway: a first page of exactly 100 types (one at end of
            service) and, at page=2, a last page of one; documented shape
            (per_page 100), hand-written values
  nolink    Azure only: a full first page of 100 items whose NextPageLink is
            empty (as Microsoft's Q&A recorded on 2023-03-10), and at
            $skip=100 a last page of one item; documented shape, the values
            are hand-written (see gen_azure_nolink)
  dups      Azure only: one page of 300 Linux rows (one region each) and,
            last, the first row again at another price; more rows than a
            flush batch (256), so the duplicate is only caught if the rows
            are held; hand-written values (see gen_azure_dups)
  gen       Vast only: <tag> = "<n>-<a|b>", n generated offers; ids start
            with 1 (a) or 2 (b), b has 10% more offers than a
  evil      the payload with names made of quotes, SQL, terminal escapes
            and spreadsheet formulas (lambda, vast, openrouter)
  evilerr   200 with an error body whose message is those names
  real      the recorded real response under tests/fixtures/real/
            (REAL_LATEST: one file per provider)

Recorded real responses (tests/fixtures/real/, PROVENANCE.md there):

  real-<tag>  <tag> names an entry of REAL: the recorded file for the first
            request, and for a later page (GCP pageToken, Azure $skip) the
            documented-shape file named there, or an empty last page

GET /_log/<segment> returns the requests seen for that segment as JSON
(method, path, the POSTed body, and the headers that matter: no values but
the user agent and accept-encoding, and whether an auth header came: the
Authorization scheme, X-Goog-Api-Key, the name of an X-API-KEY, api_key or
api-key header). A POSTed OAuth client_secret (verda) is logged as "<sent>" with
client_secret true, and echokey repeats it in the error body.
"""
import argparse
import csv
import gzip
import io
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
    (re.compile(r"^/stats/eurofxref/eurofxref-daily\.xml$"), "ecb", "xml"),
    (re.compile(r"^/instance/v1/zones/([a-z0-9-]+)/products/servers$"), "scaleway", "json"),
    (re.compile(r"^/v2/sizes$"), "digitalocean", "json"),
    (re.compile(r"^/v1/oauth2/token$"), "verda.token", "json"),
    (re.compile(r"^/v1/instance-types$"), "verda", "json"),
    (re.compile(r"^/v1/instance-availability$"), "verda.avail", "json"),
    (re.compile(r"^/v1/pricebook$"), "hyperstack.pricebook", "json"),
    (re.compile(r"^/v1/core/flavors$"), "hyperstack", "json"),
    (re.compile(r"^/v1/instances/types$"), "shadeform", "json"),
    (re.compile(r"^/list_available_configurations$"), "fluidstack", "json"),
    (re.compile(r"^/ecs/v2/plans$"), "seeweb", "json"),
    (re.compile(r"^/1\.0/order/catalog/public/cloud$"), "ovhcloud", "json"),
    (re.compile(r"^/v2/(plans|plans-metal)$"), "vultr", "json"),
    (re.compile(r"^/a/ocom/docs/cloudestimator2/data/(shapes|products)\.json$"), "oci", "json"),
    (re.compile(r"^/v1/vms/machine-types$"), "cudo", "json"),
    (re.compile(r"^/api/v0/client/deploy/hostnodes$"), "tensordock", "json"),
    (re.compile(r"^/misc/server_meta$"), "jarvislabs", "json"),
    (re.compile(r"^/api/v1/instance-types/list$"), "cloudrift", "json"),
    (re.compile(r"^/api/teams/[A-Za-z0-9_-]+/virtual_machines/available/$"), "hotaisle", "json"),
    (re.compile(r"^/api/v1/availability/gpus$"), "primeintellect", "json"),
    (re.compile(r"^/v1/marketplace$"), "hyperbolic", "json"),
    (re.compile(r"^/v4/linode/types$"), "linode", "json"),
    (re.compile(r"^/v1/catalog/instances$"), "koyeb", "json"),
]

# Scenario "real-<tag>": (provider, tag) → (file for the first request,
# file for later pages or None), relative to --root; and an optional
# (old, new) byte substitution applied to the recorded bytes, said here.
REAL = {
    # opencost's recorded A2 page (verbatim); its real nextPageToken leads
    # to a documented-shape page of spot, DWS, Reserved and N1/T4 SKUs.
    ("gcp", "a2"): ("../real/gcp/opencost-skus-a2-page.json", "gcp.real-a2.next.json", None),
    # The 13 recorded Azure rows of Standard_B16als_v2 (reconstructed from a
    # table), with armSkuName replaced by a GPU size so that azure.c's SKU
    # table reads them: the Linux, Windows and Cloud Services rows are real.
    ("azure", "b16als"): (
        "../real/azure/retail-prices.australiacentral-B16als_v2.13-rows.reconstructed.json",
        None, (b"Standard_B16als_v2", b"Standard_NC24ads_A100_v4")),
    # The recorded head of the 2025-09-12 EC2 index, for any region asked.
    ("aws", "sample"): ("../real/aws/ec2-global-index.csv.2025-09-12.head-sample.csv", None, None),
    # The same head with its one Shared-tenancy Reserved SKU (m6id.2xlarge,
    # Windows with SQL Server Standard, ca-central-1) read as a Linux c7i
    # (issue 29): the SKU, OfferTermCodes, Hrs and "Upfront Fee" rows,
    # lease lengths, purchase options and prices are real; the instance
    # type, operating system and pre-installed software are substituted
    # so that aws.c's filters and family table take them.
    ("aws", "reserved"): ("../real/aws/ec2-global-index.csv.2025-09-12.head-sample.csv", None,
                          ((b'"m6id.2xlarge"', b'"c7i.2xlarge"'), (b'"Windows"', b'"Linux"'),
                           (b'"SQL Std"', b'"NA"'))),
    # p4d.24xlarge in us-east-1 from ec2instances.info's recorded page
    # (on demand and the 1- and 3-year Standard No Upfront reserved rates),
    # put back into the index's columns (reconstructed), for any region.
    ("aws", "p4d"): ("../real/aws/ec2instances-info.p4d.24xlarge.us-east-1.reconstructed.csv",
                     None, None),
    # C7i and C7a on-demand Linux rows of SkyPilot's AWS catalogue, put
    # back into the index's columns (reconstructed), for any region asked.
    ("aws", "cpu"): ("../real/aws/skypilot-vms.c7i-c7a.reconstructed.csv", None, None),
}

# Scenario "real": the recorded real response of tests/fixtures/real/
# (see its PROVENANCE.md) instead of the hand-written payload.
REAL_LATEST = {
    "litellm": "litellm/model_prices_and_context_window.2026-07-24.excerpt.json",
    "openrouter": "openrouter/api-v1-models.2026-08-01.json",
    "lambda": "lambda/instance-types.2026-04-11.reconstructed.json",
    "vast": "vast/cli-search-offers-raw.2024-rtx4090.json",
    "ecb": "ecb/eurofxref-daily.2025-05-09.xml",
    "scaleway": "scaleway/instance-v1-products-servers.2026-10-01.excerpt.json",
    "digitalocean": "digitalocean/gpuhunt-test-sizes.json",
    "verda": "verda/gpuhunt-test-instance-types.json",
    "verda.spot": "verda/gpuhunt-test-availabilities-spot.json",
}

HTML_PAGE = (b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>"
             b"<body><h1>502 Bad Gateway</h1><p>cloudflare</p></body></html>\n")


# Fields that hold a price, in any feed: what negprice, absurd and shift
# change.
PRICE_KEYS = {
    "price_cents_per_hour", "dph_total", "dph_base", "min_bid", "securePrice",
    "communityPrice", "secureSpotPrice", "communitySpotPrice", "minimumBidPrice",
    "uninterruptablePrice", "retailPrice", "unitPrice", "units", "nanos", "prompt",
    "completion", "input_cost_per_token", "output_cost_per_token", "PricePerUnit",
    "hourly_price", "price_hourly", "price_per_hour", "spot_price", "value", "price_per_gpu_hr",
    "hourly_price",
    "price",  # ovhcloud: pricings[].price, 1e-8 EUR
    "hourly_cost", "hourly_cost_preemptible", "monthly_cost",  # vultr
    "value",  # oci: currencyCodeLocalizations[].prices[].value; cudo: *PriceHr.value
    "cost_per_hour",  # cloudrift: cents per variant-hour
    "OnDemandPrice",  # hotaisle: cents per VM-hour
    "onDemand", "communityPrice",  # primeintellect: prices.*
    "price.amount",  # hyperbolic: pricing.price.amount, US cents (transform_json)
    "price.hourly",  # linode: price.hourly and region_prices[].hourly, USD (transform_json)
}

# Names a careless printer would pass to a terminal, a spreadsheet, a
# browser or a SQL string.
EVIL = [
    "quo\"te's \"x\"",
    "'); DROP TABLE offers;--",
    "\x1b[2Jcleared",
    "\x1b]52;c;ZXZpbA==\x07osc52",
    "=HYPERLINK(\"http://x\")",
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1)",
    "<script>alert(1)</script>&amp;",
    "\u009b2Jc1",
]


def is_number(s):
    try:
        return s.strip() != "" and float(s) == float(s) and abs(float(s)) != float("inf")
    except ValueError:
        return False


def scale(v, f):
    """A price times f, keeping its JSON type."""
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return (-abs(v) or -1) if f is None else v * f
    if isinstance(v, str) and is_number(v):
        return ("-" + v.lstrip("-")) if f is None else repr(float(v) * f)
    return v


def transform_json(v, kind, key=None):
    if isinstance(v, dict):
        # "amount" is a price only under "price" (hyperbolic), not in
        # digitalocean's vram {amount, unit}.
        # "hourly" is a price only under linode's "price" and "region_prices".
        def sub(k):
            if (key, k) == ("price", "amount"):
                return "price.amount"
            if key in ("price", "region_prices") and k == "hourly":
                return "price.hourly"
            return k
        return {k: transform_json(x, kind, sub(k)) for k, x in v.items()}
    if isinstance(v, list):
        return [transform_json(x, kind, key) for x in v]
    if kind == "strnum" and isinstance(v, (int, float)) and not isinstance(v, bool):
        return json.dumps(v)
    if kind == "numstr" and isinstance(v, str):
        return float(v) if is_number(v) else 42
    if key in PRICE_KEYS and kind in ("negprice", "absurd", "shift"):
        return scale(v, {"negprice": None, "absurd": 1e12, "shift": 1.5}[kind])
    return v


def quote(field):
    return '"%s"' % field.replace('"', '""')


def transform_csv(body, kind):
    rows = list(csv.reader(io.StringIO(body.decode())))
    out = io.StringIO()
    header = None
    for row in rows:
        if header is None:
            if "TermType" in row:
                header = row
            out.write(",".join(quote(f) for f in row) + "\n")
            continue
        fields = []
        for name, f in zip(header, row):
            if kind == "strnum" and is_number(f):
                fields.append(f)  # bare, unquoted
                continue
            if kind == "numstr" and not is_number(f):
                f = "42"
            if name == "PricePerUnit" and kind in ("negprice", "absurd", "shift"):
                f = scale(f, {"negprice": None, "absurd": 1e12, "shift": 1.5}[kind])
            fields.append(quote(f))
        out.write(",".join(fields) + "\n")
    return out.getvalue().encode()


def make_evil(name, body):
    """The payload with hostile names where the feed has names."""
    d = json.loads(body)
    if name == "lambda":
        for i, (k, it) in enumerate(list(d["data"].items())):
            it["instance_type"]["name"] = EVIL[i % len(EVIL)] + " " + k
            for j, r in enumerate(it.get("regions_with_capacity_available", [])):
                r["name"] = EVIL[4 + (i + j) % 3]
    elif name == "vast":
        for i, o in enumerate(d["offers"]):
            o["geolocation"] = EVIL[i % len(EVIL)]
    elif name == "openrouter":
        kept = [m for m in d["data"] if m["id"] in (
            "openai/gpt-4o-mini", "meta-llama/llama-3.1-8b-instruct",
            "anthropic/claude-3.5-sonnet")]
        for i, m in enumerate(kept):
            m["id"] = EVIL[7 + i] + " " + m["id"]
    return json.dumps(d).encode()


def gen_azure_nolink(skip):
    """Azure pages whose NextPageLink is empty: 100 items at $skip=0 (one
    Linux Standard_NC24ads_A100_v4 row in eastus, then Windows rows that
    azure.c leaves out), one Linux row in westeurope at $skip=100. The
    item shape is the recorded one (tests/fixtures/real/azure); the prices
    are made up for the test."""
    def item(region, product, price):
        return {"currencyCode": "USD", "retailPrice": price, "unitPrice": price,
                "armRegionName": region, "location": region, "meterName": "NC24ads A100 v4",
                "productName": product, "skuName": "NC24ads A100 v4",
                "serviceName": "Virtual Machines", "armSkuName": "Standard_NC24ads_A100_v4",
                "type": "Consumption", "isPrimaryMeterRegion": True, "unitOfMeasure": "1 Hour"}
    if skip in ("", "0"):
        items = [item("eastus", "Virtual Machines NCadsA100v4 Series", 3.673)]
        items += [item("eastus%d" % i, "Virtual Machines NCadsA100v4 Series Windows", 4.0)
                  for i in range(99)]
    elif skip == "100":
        items = [item("westeurope", "Virtual Machines NCadsA100v4 Series", 4.04)]
    else:
        items = []
    return json.dumps({"BillingCurrency": "USD", "Items": items, "NextPageLink": None,
                       "Count": len(items)}).encode()


def gen_azure_dups(skip):
    """One Azure page: 300 Linux rows of one size in regions r0..r299, then
    the row of r0 again at another price (azure.c keeps the first); the
    page after it is empty. Shape as gen_azure_nolink's."""
    def item(region, price):
        return {"currencyCode": "USD", "retailPrice": price, "unitPrice": price,
                "armRegionName": region, "location": region, "meterName": "NC24ads A100 v4",
                "productName": "Virtual Machines NCadsA100v4 Series",
                "skuName": "NC24ads A100 v4", "serviceName": "Virtual Machines",
                "armSkuName": "Standard_NC24ads_A100_v4", "type": "Consumption",
                "isPrimaryMeterRegion": True, "unitOfMeasure": "1 Hour"}
    items = []
    if skip in ("", "0"):
        items = [item("r%d" % i, 3.0 + i / 100) for i in range(300)] + [item("r0", 9.0)]
    return json.dumps({"BillingCurrency": "USD", "Items": items, "NextPageLink": None,
                       "Count": len(items)}).encode()


def gen_vast(tag):
    """n Vast offers; ids 1… (variant a) or 2… (b), prices interleaved."""
    n, variant = tag.split("-", 1)
    n = int(n)
    if variant == "b":
        n += n // 10
    gpus = [("RTX 4090", 24564), ("A100 SXM4", 81920), ("H100 SXM", 81559),
            ("RTX 3090", 24576)]
    offers = []
    base = 100000000 if variant == "a" else 200000000
    for i in range(n):
        g = gpus[i % len(gpus)]
        offers.append({
            "id": base + i, "gpu_name": g[0], "num_gpus": 1 + i % 4, "gpu_ram": g[1],
            "cpu_cores_effective": 8.0, "cpu_ram": 32000,
            "dph_total": round(0.2 + (i * 7919 % 1000) / 100.0, 3), "min_bid": 0,
            "geolocation": "Quebec, CA", "rentable": True,
        })
    return json.dumps({"offers": offers}).encode()


class State:
    def __init__(self, root, slow):
        self.root = root
        self.slow = slow
        self.lock = threading.Lock()
        self.hits = {}
        self.log = {}
        self.generated = {}


class Handler(BaseHTTPRequestHandler):
    server_version = "fixture/1"
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *args):  # quiet
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.posted = self.rfile.read(length)
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
        elif name == "scaleway":
            pg = query.get("page", ["1"])[0]
            if pg not in ("", "1"):
                stem = "scaleway.page" + re.sub(r"[^0-9]", "", pg)
        elif name in ("digitalocean", "linode"):
            pg = query.get("page", ["1"])[0]
            if pg not in ("", "1"):
                stem = name + ".page" + re.sub(r"[^0-9]", "", pg)
        elif name == "koyeb":
            off = query.get("offset", ["0"])[0]
            if off not in ("", "0"):
                stem = "koyeb.offset" + re.sub(r"[^0-9]", "", off)
        elif name == "verda.avail" and query.get("is_spot", [""])[0] == "true":
            stem = "verda.spot"
        elif name == "vultr":
            # plans → vultr.*, plans-metal → vultr.metal.*; a cursor names
            # the page (vultr.<cursor>.paged.json)
            stem = "vultr" if region == "plans" else "vultr.metal"
            cur = query.get("cursor", [""])[0]
            if cur:
                stem += "." + re.sub(r"[^A-Za-z0-9_-]", "", cur)
        elif name == "oci":
            stem = "oci." + region  # oci.shapes.*, oci.products.*
        elif name == "aws" and os.path.exists(os.path.join(st.root, "aws-%s.csv" % region)):
            stem = "aws-" + region
        if kind == "real" and stem in REAL_LATEST:
            path = os.path.join(st.root, "..", "real", REAL_LATEST[stem])
            return path if os.path.exists(path) else None
        if kind == "real" and name in REAL_LATEST:
            path = os.path.join(st.root, "..", "real", REAL_LATEST[name])
            return path if os.path.exists(path) else None
        for cand in ("%s.%s.%s" % (stem, kind, ext), "%s.%s" % (stem, ext)):
            path = os.path.join(st.root, cand)
            if os.path.exists(path):
                return path
        return None

    def reply_real(self, name, ext, segment, query):
        entry = REAL.get((name, segment.split("-", 1)[-1]))
        if entry is None:
            return self.reply(404, b'{"error":"no recorded response"}')
        first, later, sub = entry
        page = (query.get("pageToken", [""])[0] if name == "gcp"
                else query.get("$skip", ["0"])[0] not in ("", "0") if name == "azure" else "")
        path = later if page else first
        if page and path is None:
            body = (b'{"skus": [], "nextPageToken": ""}' if name == "gcp"
                    else b'{"Items": [], "NextPageLink": null, "Count": 0}')
        else:
            with open(os.path.join(self.server.state.root, path), "rb") as f:
                body = f.read()
            # one (old, new) pair, or a tuple of them applied in order
            for old, new in ((sub,) if sub and isinstance(sub[0], bytes) else sub or ()):
                if not page:
                    body = body.replace(old, new)
        self.reply(200, body, "text/csv" if ext == "csv" else "application/json")

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
        auth = (self.headers.get("Authorization") or self.headers.get("X-Goog-Api-Key")
                or self.headers.get("X-API-KEY") or self.headers.get("api_key")
                or self.headers.get("api-key") or self.headers.get("X-APITOKEN"))
        posted = getattr(self, "posted", b"").decode("utf-8", "replace")
        secret_sent = False
        if real == "/v1/oauth2/token" and posted:
            # Verda's OAuth client credentials travel in the POSTed body
            # (that is the API); the log keeps only that one was sent.
            try:
                d = json.loads(posted)
                secret = str(d.get("client_secret") or "")
                secret_sent = bool(secret)
                if "client_secret" in d:
                    d["client_secret"] = "<sent>" if secret_sent else ""
                posted = json.dumps(d)
            except (ValueError, AttributeError):
                secret, posted = "", "<not JSON>"
            if kind == "echokey":
                auth = "client_secret " + secret
        with st.lock:
            st.log.setdefault(segment, []).append({
                "method": self.command,
                "path": real,
                "query": url.query,
                "user_agent": self.headers.get("User-Agent", ""),
                "accept_encoding": self.headers.get("Accept-Encoding", ""),
                "auth": self.headers.get("Authorization", "").split(" ")[0],
                "goog_key": bool(self.headers.get("X-Goog-Api-Key")),
                "key_header": (self.headers.get("X-API-KEY") and "X-API-KEY"
                               or self.headers.get("api_key") and "api_key"
                               or self.headers.get("api-key") and "api-key" or ""),
                "apitoken": bool(self.headers.get("X-APITOKEN")),
                "client_secret": secret_sent,
                "client_id": (json.loads(posted).get("client_id", "")
                              if secret_sent else ""),
                "body": posted,
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
        if kind == "evilerr":
            msg = " ".join(EVIL)
            return self.reply(200, json.dumps({"errors": [{"message": msg}],
                                               "error": {"message": msg}}).encode())
        if kind == "429":
            return self.reply(429, b'{"error":"rate limited"}', extra={"Retry-After": "1"})
        if kind == "503":
            return self.reply(503, HTML_PAGE, "text/html", extra={"Retry-After": "1"})
        if kind == "loop":
            return self.reply(302, b"", "text/plain", extra={"Location": self.path})
        if kind in ("huge", "hugestream"):
            big = (b'{"pad":"' + b"x" * (4 << 20) + b'"}') if ext == "json" else b"x" * (4 << 20)
            if kind == "huge":
                return self.reply(200, big, "text/csv" if ext == "csv" else "application/json")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            try:
                self.wfile.write(big)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if kind == "linger":
            self.reply(200, b"y" * ((3 << 20) + 1), "text/plain")
            self.wfile.flush()
            time.sleep(st.slow)
            self.close_connection = True
            return
        if kind == "shape":
            if ext == "csv":
                return self.reply(200, b'"a","b"\n"1","2"\n', "text/csv")
            return self.reply(200, b'[{"id": 1, "name": "not the feed"}, 2, "three"]')
        if kind == "gen" and name == "vast":
            tag = segment.split("-", 1)[1]
            with st.lock:
                body = st.generated.get(tag)
                if body is None:
                    body = st.generated[tag] = gen_vast(tag)
            return self.reply(200, body)
        if kind == "nolink" and name == "azure":
            return self.reply(200, gen_azure_nolink(query.get("$skip", ["0"])[0]))
        if kind == "dups" and name == "azure":
            return self.reply(200, gen_azure_dups(query.get("$skip", ["0"])[0]))
        if kind == "real" and "-" in segment:
            return self.reply_real(name, ext, segment, query)
        if kind == "slow":
            time.sleep(st.slow)
        path = self.payload_file(name, ext, kind, region, query)
        if path is None:
            return self.reply(404, b'{"error":"no fixture"}')
        ctype = {"csv": "text/csv", "xml": "text/xml"}.get(ext, "application/json")
        size = os.path.getsize(path)
        if ext == "csv" and kind not in ("drop", "badjson", "cut", "stall", "strnum", "numstr",
                                         "negprice", "absurd", "shift"):
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
        if kind in ("strnum", "numstr", "negprice", "absurd", "shift"):
            if ext == "csv":
                body = transform_csv(body, kind)
            else:
                body = json.dumps(transform_json(json.loads(body), kind)).encode()
        if kind == "evil":
            body = make_evil(name, body)
        if kind == "cut":
            keep = len(body) * int(segment.split("-", 1)[1]) // 1000
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:keep])
            self.wfile.flush()
            self.close_connection = True
            return
        if kind == "stall":
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            time.sleep(st.slow)
            self.close_connection = True
            return
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

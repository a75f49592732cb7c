"""What a forwarded HTTP call adds over a plain httpx call to the same local server.

Run: python bench/bench_http_forward.py [--repeat 2000]
A server on 127.0.0.1 answers GET /items/{id} with a small JSON body. Both
sides use one pooled httpx client: a plain ``client.get`` against
``Gateway.exec`` of the op (resolve, validate, build the request from the
OpenAPI operation, auth header, send, map the answer to an envelope). Calls
alternate so both see the same machine load. Goal: under 1 ms added.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import httpx  # noqa: E402
from _table import median, p95, print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.config import AuthConfig, HttpUpstreamConfig, OpgateConfig  # noqa: E402

DOCUMENT = Path(__file__).resolve().parents[1] / "tests" / "http" / "loopback_openapi.json"
BODY = json.dumps({"name": "item", "id": "1"}).encode()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        # One write for head and body: two small writes meet Nagle and delayed ACK (40 ms stalls) and measure TCP, not opgate.
        head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(BODY)}\r\n\r\n".encode()
        self.wfile.write(head + BODY)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    import os

    os.environ["BENCH_ITEMS_KEY"] = "bench-secret-key"
    upstream = HttpUpstreamConfig(name="items", openapi=DOCUMENT, base_url=url, auth=AuthConfig(api_key_env="BENCH_ITEMS_KEY"))
    with tempfile.TemporaryDirectory() as folder:
        gateway = Gateway.from_catalogs([], config=OpgateConfig(http_upstreams={"items": upstream}), db_path=Path(folder) / "w.db", call_log=False)
        client = httpx.Client(headers={"X-Api-Key": "bench-secret-key"})
        plain, forwarded = [], []
        for n in range(options.repeat + 50):
            start = time.perf_counter()
            response = client.get(f"{url}/items/1")
            response.json()
            middle = time.perf_counter()
            envelope = gateway.exec("items.item.get", {"id": "1"})
            end = time.perf_counter()
            assert envelope["ok"], envelope
            if n >= 50:  # warm-up: connections, validators, the search-free first call
                plain.append((middle - start) * 1000)
                forwarded.append((end - middle) * 1000)
        client.close()
        gateway.close()
    server.shutdown()
    added = [f - p for f, p in zip(forwarded, plain, strict=True)]
    rows = [
        ["plain httpx GET", f"{median(plain):.3f}", f"{p95(plain):.3f}"],
        ["Gateway.exec (forwarded)", f"{median(forwarded):.3f}", f"{p95(forwarded):.3f}"],
        ["added by opgate", f"{median(forwarded) - median(plain):.3f}", f"{p95(added):.3f}"],
    ]
    print_table("A forwarded GET against a plain httpx GET, same local server", ["call (ms)", "median", "p95"], rows)
    print(f"ratio forwarded/plain (median): {median(forwarded) / median(plain):.2f}x; goal: under 1 ms added")


if __name__ == "__main__":
    main()

"""A small HTTP server on 127.0.0.1 whose answers a test scripts, and which records what it received.

Used for what a mock server cannot show reliably: timeouts, retries,
``Retry-After`` and refused connections.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Answer:
    status: int = 200
    body: object = None
    headers: dict = field(default_factory=dict)
    delay_s: float = 0.0
    content_type: str = "application/json"
    drip_s: float = 0.0  # when set, the body goes out a byte at a time, this long apart (a server that stalls mid-answer)


@dataclass
class Received:
    method: str
    path: str
    headers: dict
    body: bytes


class LoopbackServer:
    """``script(method, path, *answers)`` queues answers; once a queue is empty, the last answer repeats."""

    def __init__(self):
        self.received: list[Received] = []
        self._script: dict[tuple[str, str], list[Answer]] = {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _answer(self):
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                server.received.append(Received(self.command, self.path, dict(self.headers), body))
                answer = server._next(self.command, self.path.split("?")[0])
                if answer.delay_s:
                    time.sleep(answer.delay_s)
                data = b"" if answer.body is None else (answer.body.encode() if isinstance(answer.body, str) else json.dumps(answer.body).encode())
                try:
                    self.send_response(answer.status)
                    if data:
                        self.send_header("Content-Type", answer.content_type)
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    if answer.drip_s:
                        for index in range(len(data)):
                            self.wfile.write(data[index:index + 1])
                            self.wfile.flush()
                            time.sleep(answer.drip_s)
                    else:
                        self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = _answer

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def script(self, method: str, path: str, *answers: Answer) -> None:
        self._script[(method, path)] = list(answers)

    def _next(self, method: str, path: str) -> Answer:
        queue = self._script.get((method, path))
        if not queue:
            return Answer(404, {"message": f"nothing scripted for {method} {path}"})
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def start(self) -> LoopbackServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

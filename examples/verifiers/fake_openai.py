"""A scripted OpenAI-compatible chat server (stdlib only) for testing the verifiers env offline.

    python fake_openai.py --replies replies.json --log requests.jsonl [--port 0] [--port-file F]

`replies.json` holds one script (a list of reply strings, one per turn) or several (a list
of such lists). `POST /v1/chat/completions` answers a request holding N assistant messages
with reply N of its conversation's script (past the end: the script's last reply). A
conversation's script is the one whose first N replies are the N assistant messages it
holds; a new conversation (no assistant message yet) takes the next script in order, so
`-r 3` rollouts of one task can play three different scripts. Answers stream as
Server-Sent Events when the request asks (`"stream": true`, as verifiers' relay does),
else come as one JSON completion.

Each request is logged as one JSON line: its script's index, the number of messages and
of assistant messages, whether a system message came, the text of the last user message,
and the image parts of the whole request (`images`) and of its last message
(`last_images`), each with its media type and PNG size [width, height].
"""

import argparse
import base64
import json
import os
import struct
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def png_size(data_url: str) -> tuple[str, list[int] | None]:
    """The media type of a data URL and, for a PNG, its width and height."""
    head, _, payload = data_url.partition(",")
    media = head.removeprefix("data:").split(";")[0]
    try:
        raw = base64.b64decode(payload[:64] + "=" * (-len(payload[:64]) % 4))
    except ValueError:
        return media, None
    if raw[:8] != b"\x89PNG\r\n\x1a\n":
        return media, None
    return media, list(struct.unpack(">II", raw[16:24]))


def images(message: dict) -> list[dict]:
    content = message.get("content")
    out = []
    for part in content if isinstance(content, list) else []:
        if isinstance(part, dict) and part.get("type") == "image_url":
            url = (part.get("image_url") or {}).get("url", "")
            media, size = png_size(url) if url.startswith("data:") else (url[:40], None)
            out.append({"media": media, "size": size})
    return out


def text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text")


class Handler(BaseHTTPRequestHandler):
    scripts: list[list[str]] = []
    log_path: str = ""
    lock = threading.Lock()
    opened = 0  # conversations opened so far

    def script_for(self, history: list[str]) -> int:
        """The index of the script a conversation with these assistant replies plays."""
        with self.lock:
            if not history:
                index = Handler.opened % len(self.scripts)
                Handler.opened += 1
                return index
        for index, script in enumerate(self.scripts):
            padded = script + [script[-1]] * len(history)
            if [r.strip() for r in padded[: len(history)]] == [h.strip() for h in history]:
                return index
        raise LookupError(f"no script's replies match this conversation's: {history}")

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        if self.path.rstrip("/").endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": "fake", "object": "model", "owned_by": "test"}]})
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self):
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        messages = body.get("messages") or []
        history = [text_of(m) for m in messages if m.get("role") == "assistant"]
        n_assistant = len(history)
        try:
            index = self.script_for(history)
        except LookupError as e:
            self._json(400, {"error": {"message": str(e)}})
            return
        script = self.scripts[index]
        reply = script[min(n_assistant, len(script) - 1)]
        users = [m for m in messages if m.get("role") == "user"]
        record = {
            "script": index,
            "n_messages": len(messages),
            "n_assistant": n_assistant,
            "system": any(m.get("role") == "system" for m in messages),
            "last_user_text": text_of(users[-1]) if users else "",
            "images": [img for m in messages for img in images(m)],
            "last_images": images(messages[-1]) if messages else [],
            "stream": bool(body.get("stream")),
            "reply": reply,
        }
        with self.lock, open(self.log_path, "a") as f:
            f.write(json.dumps(record) + "\n")
        if body.get("stream"):
            self._stream(body, reply)
        else:
            self._json(200, self._completion(body, reply))

    def _completion(self, body: dict, reply: str) -> dict:
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }

    def _stream(self, body: dict, reply: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        base = {"id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion.chunk",
                "created": int(time.time()), "model": body.get("model", "fake")}
        chunks = [
            {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": reply},
                                  "finish_reason": None}]},
            {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
            {**base, "choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}},
        ]
        for chunk in chunks:
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replies", required=True,
                    help="JSON file: a script (a list of reply strings, one per turn) or a list of scripts")
    ap.add_argument("--log", required=True, help="JSONL file each request is appended to")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0, help="0: any free port")
    ap.add_argument("--port-file", help="write the port here once listening")
    args = ap.parse_args(argv)
    with open(args.replies) as f:
        scripts = json.load(f)
    if isinstance(scripts, list) and scripts and all(isinstance(r, str) for r in scripts):
        scripts = [scripts]
    if not (isinstance(scripts, list) and scripts and all(
            isinstance(sc, list) and sc and all(isinstance(r, str) for r in sc) for sc in scripts)):
        sys.exit(f"{args.replies}: expected a non-empty list of reply strings (one script), "
                 "or a list of such lists (several scripts)")
    Handler.scripts, Handler.log_path = scripts, args.log
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(str(port))
        os.replace(args.port_file + ".tmp", args.port_file)
    print(f"fake OpenAI server on http://{args.host}:{port}/v1", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

"""A fake Gemini REST server on 127.0.0.1 for the real google-genai client.

It answers `POST .../models/{model}:generateContent` the way the Gemini API does: a candidate
whose text is the JSON answer, and `usageMetadata` computed from the request size: prompt
tokens = ceil(UTF-8 bytes of what the request carries / 4), counting the system instruction
text, every message text and the generation config (with the response schema) as compact JSON;
output tokens = ceil(answer bytes / 4). The HTTP body itself is larger: the client escapes
Hangul as \\uXXXX and nests the packet JSON inside a JSON string. Answers come
from a responder over the request's JSON packet (its "task" says which stage asks); a script
of queued actions (an HTTP status, a delay, a raw text) overrides it call by call.

    python -m tests.fake_gemini --port 8765 --planner valid          # for manual runs
    python -m tests.fake_gemini --port 8765 --planner unknown-skill
"""

from __future__ import annotations

import argparse
import json
import math
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from registry.model_contracts import ModelClient, ModelReply, ModelRequest

Responder = Callable[[dict[str, Any]], Any]


def _tokens(size: int) -> int:
    return max(1, math.ceil(size / 4))


def request_size(body: dict[str, Any]) -> int:
    """UTF-8 bytes of the instruction and message texts plus the generation config as compact JSON."""
    texts = [p.get("text", "") for c in body.get("contents", []) for p in c.get("parts", [])]
    texts += [p.get("text", "") for p in (body.get("systemInstruction") or {}).get("parts", [])]
    config = json.dumps(body.get("generationConfig", {}), ensure_ascii=False, separators=(",", ":"))
    return sum(len(t.encode("utf-8")) for t in texts) + len(config.encode("utf-8"))


def planner_answer(packet: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    """A valid planner answer inside the packet's menu: the top ranked catalog flow, and for a
    device flow the first anchored capability's first operation with its required arguments."""
    catalog = [f["id"] for f in packet["catalog"]]
    ranked = [f for f, _ in packet.get("ranked_flows", []) if f in catalog]
    flow_id = (ranked or catalog)[0]
    family, agent, skill = flow_id.split(".")
    step: dict[str, Any] = {"id": "step_1", "route": family, "purpose": "fake plan", "skill_id": skill, "output_key": "result",
                            "execution_target": "cloud", "wait_policy": "completed"}
    capabilities = packet.get("capabilities") or {}
    if family == "ODL" and capabilities:
        cap_id, ops = next(iter(capabilities.items()))
        op_id, args = next(iter(ops.items()))
        arguments = [{"name": a.split(":")[0], "value": packet["rooms"][0]} for a in args if a.endswith("*") and ":room" in a]
        step = {**step, "skill_id": None, "execution_target": "device", "capability_id": cap_id, "operation_id": op_id, "arguments": arguments}
    answer = {"turn_mode": "singleton", "selected_routes": [family], "selected_flow_id": flow_id, "selected_agent": agent,
              "selected_skill": skill, "owner_selection": family, "steps": [step], "family_confidence": "medium",
              "tts_response": "fake"}
    answer.update(overrides)
    return answer


def valid_responder(packet: dict[str, Any]) -> Any:
    """A valid answer for every model stage."""
    task = packet.get("task")
    if task == "main_planner":
        return planner_answer(packet)
    if task == "second_pass_judge":
        return {"winner": packet["pair"][0], "reason": "fake keeps the first pass"}
    if task == "object_typer":
        return {"object_type": packet["deterministic"][0], "confidence": "medium", "reason": "fake echo"}
    if task == "replyability_judge":
        return {"replyability_type": packet["deterministic"][0], "confidence": "medium", "reason": "fake echo"}
    if task == "ranked_flow_selector":
        return {"top_flows": [{"flow_id": f["id"], "confidence": "medium", "rationale": "fake order"} for f in packet["catalog"]]}
    raise ValueError(f"unknown task {task!r}")


def planner_override_responder(**overrides: Any) -> Responder:
    """Valid answers, except that the planner's answer carries the given fields (e.g. an invented skill)."""
    def respond(packet: dict[str, Any]) -> Any:
        return planner_answer(packet, **overrides) if packet.get("task") == "main_planner" else valid_responder(packet)
    return respond


class InProcessFake(ModelClient):
    """The same answers without HTTP, for tests that only need some valid model (e.g. every config)."""

    def __init__(self, responder: Responder = valid_responder):
        self.responder = responder
        self.requests: list[ModelRequest] = []

    def generate(self, request: ModelRequest) -> ModelReply:
        self.requests.append(request)
        text = json.dumps(self.responder(json.loads(request.contents[0].text)), ensure_ascii=False)
        return ModelReply(text=text, prompt_tokens=_tokens(sum(len(t.text.encode("utf-8")) for t in request.contents)),
                          output_tokens=_tokens(len(text.encode("utf-8"))))


@dataclass
class Action:
    """One scripted reply: an HTTP error status, a delay before answering, or a raw answer text."""

    status: int | None = None
    delay_s: float = 0.0
    text: str | None = None


class FakeGemini:
    """The server; `requests` holds every request body (parsed) with its path and API key."""

    def __init__(self, responder: Responder = valid_responder, port: int = 0):
        self.responder = responder
        self.script: deque[Action] = deque()
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                fake._serve(self, raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def push(self, *actions: Action) -> None:
        with self._lock:
            self.script.extend(actions)

    def packets(self) -> list[dict[str, Any]]:
        """The JSON packet of each request's first user message."""
        return [json.loads(r["body"]["contents"][0]["parts"][0]["text"]) for r in self.requests]

    def _serve(self, handler: BaseHTTPRequestHandler, raw: bytes) -> None:
        body = json.loads(raw)
        with self._lock:
            self.requests.append({"path": handler.path, "api_key": handler.headers.get("x-goog-api-key"), "body": body})
            action = self.script.popleft() if self.script else Action()
        if action.delay_s:
            time.sleep(action.delay_s)
        if action.status:
            self._send(handler, action.status, {"error": {"code": action.status, "message": "scripted failure", "status": "SCRIPTED"}})
            return
        text = action.text
        if text is None:
            packet = json.loads(body["contents"][0]["parts"][0]["text"])
            text = json.dumps(self.responder(packet), ensure_ascii=False)
        usage = {"promptTokenCount": _tokens(request_size(body)), "candidatesTokenCount": _tokens(len(text.encode("utf-8")))}
        usage["totalTokenCount"] = usage["promptTokenCount"] + usage["candidatesTokenCount"]
        self._send(handler, 200, {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
                                  "usageMetadata": usage, "modelVersion": "fake-gemini"})

    @staticmethod
    def _send(handler: BaseHTTPRequestHandler, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", "application/json; charset=UTF-8")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
            pass

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def main() -> None:
    ap = argparse.ArgumentParser(description="Serve a fake Gemini API on 127.0.0.1.")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--planner", choices=("valid", "unknown-skill"), default="valid",
                    help="valid planner answers, or answers that always name an unknown skill")
    args = ap.parse_args()
    responder = valid_responder if args.planner == "valid" else planner_override_responder(selected_skill="teleport_skill")
    fake = FakeGemini(responder, port=args.port)
    print(f"fake Gemini on {fake.base_url} (planner: {args.planner}); Ctrl-C to stop", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        fake.close()


if __name__ == "__main__":
    main()

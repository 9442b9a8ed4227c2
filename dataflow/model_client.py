"""Model clients at the edge of the DAG: Gemini through google-genai, record and replay
cassettes, and the per-trace ledger that turns calls into `usage`.

The stages only see `registry.model_contracts.ModelClient`; this module is where the network,
the environment, the clock and the cassette files are touched.
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from registry.errors import CassetteMiss, ConfigError, InputError, ModelUnavailable
from registry.model_contracts import MODEL_SCHEMAS, ModelCall, ModelClient, ModelReply, ModelRequest
from registry.model_policy import ModelPolicy, load_model_policy

KEY_VARIABLES = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
BASE_URL_VARIABLE = "A2A_GEMINI_BASE_URL"
CASSETTE_KIND = "a2a-model-cassette"
_FATAL_STATUS = (401, 403, 404)
"""A wrong key, a forbidden project or an unknown model: no turn can succeed, so stop loudly."""


def _transport_errors() -> tuple[type[BaseException], ...]:
    """httpx2's (and httpx's, when installed) transport errors: timeouts, refused connections."""
    found = []
    for name in ("httpx2", "httpx"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        found.append(module.TransportError)
    return tuple(found)


class GeminiClient(ModelClient):
    """google-genai's real client; retries (timeouts, connection errors, 429/5xx) with backoff."""

    def __init__(self, api_key: str, model: str, policy: ModelPolicy, base_url: str | None = None):
        from google import genai
        from google.genai import types

        t = policy.transport
        retry = types.HttpRetryOptions(attempts=t.attempts, initial_delay=t.initial_delay_s, max_delay=t.max_delay_s,
                                       exp_base=t.exp_base, jitter=t.jitter_s, http_status_codes=t.retry_status_codes)
        options = types.HttpOptions(base_url=base_url, api_version=policy.api_version, timeout=t.timeout_ms, retry_options=retry)
        self._client = genai.Client(api_key=api_key, http_options=options)
        self._types = types
        self.model = model
        self.policy = policy

    def generate(self, request: ModelRequest) -> ModelReply:
        from google.genai import errors

        types = self._types
        config = types.GenerateContentConfig(
            system_instruction=request.system_instruction, response_mime_type="application/json",
            response_schema=MODEL_SCHEMAS[request.response_schema], temperature=self.policy.temperature,
        )
        contents = [types.Content(role=t.role, parts=[types.Part(text=t.text)]) for t in request.contents]
        attempts = self.policy.transport.attempts
        started = time.perf_counter()
        try:
            response = self._client.models.generate_content(model=self.model, contents=contents, config=config)
        except errors.APIError as exc:
            status = f"HTTP {exc.code} {exc.status or ''}".strip()
            if exc.code in _FATAL_STATUS:
                raise ConfigError(f"Gemini rejected the {request.stage} request: {status}: {exc.message or ''}") from None
            retried = exc.code in self.policy.transport.retry_status_codes
            raise ModelUnavailable(f"{request.stage}: {status}" + (f" after {attempts} attempts" if retried else " (not retried)")) from None
        except _transport_errors() as exc:  # after genai's own retries
            if "Timeout" in type(exc).__name__:
                raise ModelUnavailable(f"{request.stage}: timed out after {attempts} attempts ({self.policy.transport.timeout_ms} ms each)") from None
            raise ModelUnavailable(f"{request.stage}: transport error {type(exc).__name__}: {exc}") from None
        except errors.UnknownApiResponseError as exc:
            raise ModelUnavailable(f"{request.stage}: unreadable HTTP response ({str(exc)[:120]})") from None
        usage = response.usage_metadata
        return ModelReply(
            text=response.text or "",
            prompt_tokens=(usage.prompt_token_count or 0) if usage else 0,
            output_tokens=(usage.candidates_token_count or 0) if usage else 0,
            latency_ms=round((time.perf_counter() - started) * 1000, 3),
        )


def client_from_env(model: str | None = None, policy: ModelPolicy | None = None, env: dict[str, str] | None = None) -> GeminiClient:
    """A Gemini client from GEMINI_API_KEY or GOOGLE_API_KEY (and A2A_GEMINI_BASE_URL if set)."""
    env = os.environ if env is None else env
    policy = policy or load_model_policy()
    key = next((env[name] for name in KEY_VARIABLES if env.get(name)), None)
    if not key:
        raise ConfigError(
            "the gemini backend needs an API key: set GEMINI_API_KEY or GOOGLE_API_KEY "
            "(or use --backend heuristic, or --backend replay --cassette FILE to run without network)"
        )
    return GeminiClient(api_key=key, model=model or policy.default_model, policy=policy, base_url=env.get(BASE_URL_VARIABLE) or None)


# --- record and replay -------------------------------------------------------------------------


class RecordingClient(ModelClient):
    """Passes calls through and appends each request and its reply (or failure) to a cassette."""

    def __init__(self, inner: ModelClient, path: Path, model: str, driver_config: dict[str, Any]):
        self.inner, self.path, self.model = inner, path, model
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("", encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write the cassette {path}: {exc}") from None
        self._write({"cassette": CASSETTE_KIND, "version": 1, "model": model, "driver_config": driver_config})

    def _write(self, entry: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as fh:  # one line per call: a crash keeps what was recorded
            fh.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def generate(self, request: ModelRequest) -> ModelReply:
        entry = {"stage": request.stage, "key": request.key(self.model), "repair": request.repair, "utterance": request.utterance,
                 "request": request.model_dump()}
        try:
            reply = self.inner.generate(request)
        except ModelUnavailable as exc:
            self._write({**entry, "failed": str(exc)})
            raise
        self._write({**entry, "reply": reply.model_dump()})
        return reply


class ReplayClient(ModelClient):
    """Answers from a cassette, in recorded order per request key; no network."""

    def __init__(self, path: Path, header: dict[str, Any], entries: dict[str, list[dict[str, Any]]]):
        self.path, self.header, self._entries = path, header, entries
        self.model: str = header["model"]
        self._used: dict[str, int] = defaultdict(int)

    @classmethod
    def open(cls, path: Path) -> "ReplayClient":
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            raise InputError(f"cassette not found: {path}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read cassette {path}: {exc}") from None
        rows = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}: line {number}: malformed JSON ({exc.msg})") from None
        if not rows or not isinstance(rows[0], dict) or rows[0].get("cassette") != CASSETTE_KIND:
            raise InputError(f"{path}: not a model cassette (the first line must be its header; record one with --record)")
        entries: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for number, row in enumerate(rows[1:], 2):
            if not isinstance(row, dict) or "key" not in row or not ("reply" in row or "failed" in row):
                raise InputError(f"{path}: entry {number}: needs key and reply (or failed)")
            entries[row["key"]].append(row)
        return cls(path, rows[0], dict(entries))

    @property
    def driver_config(self) -> dict[str, Any]:
        return dict(self.header.get("driver_config") or {})

    def generate(self, request: ModelRequest) -> ModelReply:
        key = request.key(self.model)
        recorded = self._entries.get(key)
        if not recorded:
            kind = "repair" if request.repair else "answer"
            raise CassetteMiss(
                f"{self.path}: no recorded {request.stage} {kind} for the utterance {request.utterance!r} (request key {key}); "
                "the request differs from the recording (prompt, policy, registry, input or code changed?): record it again with --record"
            )
        entry = recorded[min(self._used[key], len(recorded) - 1)]  # recorded order; the last answer repeats
        self._used[key] += 1
        if "failed" in entry:
            raise ModelUnavailable(entry["failed"])
        return ModelReply.model_validate(entry["reply"])


# --- per-trace accounting ------------------------------------------------------------------------


class _Ledger(ModelClient):
    def __init__(self, inner: ModelClient):
        self.inner = inner
        self.calls: list[ModelCall] = []

    def generate(self, request: ModelRequest) -> ModelReply:
        started = time.perf_counter()
        try:
            reply = self.inner.generate(request)
        except ModelUnavailable as exc:
            self.calls.append(ModelCall(stage=request.stage, repair=request.repair, prompt_tokens=0, output_tokens=0,
                                        latency_ms=round((time.perf_counter() - started) * 1000, 3), failed=str(exc)))
            raise
        self.calls.append(ModelCall(stage=request.stage, repair=request.repair, prompt_tokens=reply.prompt_tokens,
                                    output_tokens=reply.output_tokens, latency_ms=reply.latency_ms))
        return reply


class ModelSession:
    """The model inputs of one runner: the client behind a per-turn ledger, and the policy."""

    def __init__(self, client: ModelClient, policy: ModelPolicy | None = None):
        self.policy = policy or load_model_policy()
        self._ledger = _Ledger(client)

    @property
    def calls(self) -> list[ModelCall]:
        return list(self._ledger.calls)

    def begin_turn(self) -> dict[str, Any]:
        """Clear the ledger; the driver inputs for this turn."""
        self._ledger.calls = []
        return {"model_client": self._ledger, "model_policy": self.policy}

    def usage(self) -> dict[str, Any]:
        """The turn's calls as Usage fields: calls, tokens, model latency per stage."""
        calls = self._ledger.calls
        model_ms: dict[str, float] = {}
        for call in calls:
            model_ms[call.stage] = round(model_ms.get(call.stage, 0.0) + call.latency_ms, 3)
        return {
            "model_calls": len(calls),
            "prompt_tokens": sum(c.prompt_tokens for c in calls),
            "output_tokens": sum(c.output_tokens for c in calls),
            "model_ms": model_ms,
        }

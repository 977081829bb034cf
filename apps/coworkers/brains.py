"""The model-driven brain: an optional chat-completion backend, never required.

A co-worker with ``brain: model`` still runs its scripted triggers first; a
message no trigger matches is answered by the backend instead of the
fallback line. The backend reads the app state before replying: the recent
messages of the conversation (chat) or the thread (mail), plus the persona.

Configure it with environment variables (an OpenAI-compatible server: vLLM,
SGLang, Ollama, or OpenAI itself)::

    DESKWORLD_COWORKER_BASE_URL=http://localhost:8000/v1
    DESKWORLD_COWORKER_MODEL=Qwen/Qwen2.5-7B-Instruct
    DESKWORLD_COWORKER_API_KEY=…            # optional

or in code with ``set_backend(fn)``, where ``fn(messages) -> str`` takes
OpenAI-style chat messages. Replies from a model are only as repeatable as
the model (temperature 0 is sent); scripted co-workers are exactly repeatable.
Without a backend, or when it fails, the co-worker uses its fallback line.
"""
from __future__ import annotations

import json
import logging
import os
import urllib.request
from collections.abc import Callable

from apps.core import people
from apps.core.store.db import Store

log = logging.getLogger(__name__)

Backend = Callable[[list[dict]], str]
_backend: Backend | None = None


def set_backend(fn: Backend | None) -> None:
    global _backend
    _backend = fn


def backend() -> Backend | None:
    if _backend is not None:
        return _backend
    url = os.environ.get("DESKWORLD_COWORKER_BASE_URL")
    model = os.environ.get("DESKWORLD_COWORKER_MODEL")
    if url and model:
        return _http_backend(url, model, os.environ.get("DESKWORLD_COWORKER_API_KEY"))
    return None


def _http_backend(base_url: str, model: str, key: str | None) -> Backend:
    def call(messages: list[dict]) -> str:
        body = json.dumps({"model": model, "messages": messages, "temperature": 0, "max_tokens": 300}).encode()
        req = urllib.request.Request(base_url.rstrip("/") + "/chat/completions", data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {key}"} if key else {})})
        with urllib.request.urlopen(req, timeout=60) as resp:
            data = json.load(resp)
        return data["choices"][0]["message"]["content"] or ""
    return call


def system_prompt(store: Store, cw) -> str:
    me = people.person(store, cw.id)
    lines = [f"You are {me['name']}, {me['title']} at {(people.org(store, me['org']) or {}).get('name', '')}.",
             cw.persona]
    if cw.knows:
        lines.append("You know: " + "; ".join(cw.knows) + ".")
    if cw.wont:
        lines.append("You will not: " + "; ".join(cw.wont) + ".")
    lines.append("Reply as yourself in one short workplace message (plain text, no sign-off in chat). "
                 "If you don't know, say so and ask a clarifying question; never invent figures.")
    return "\n".join(lines)


def transcript(store: Store, ctx: dict, limit: int = 20) -> list[dict]:
    """The conversation the co-worker is answering, oldest first, as chat messages."""
    out = []
    if ctx.get("via") == "mail":
        m = store.get("mail_messages", ctx["message"])
        rows = store.select("mail_messages", "thread=?", (m["thread"],), order="sent_at, id")[-limit:]
        for r in rows:
            p = people.by_email(store, r["sender"])
            out.append((p["slug"] if p else r["sender"], f"Subject: {r['subject']}\n{r['body']}"))
    else:
        thread = ctx.get("thread")
        if thread:
            rows = store.select("chat_messages", "id=? OR thread=?", (thread, thread), order="at, id")
        else:
            rows = store.select("chat_messages", "conversation=? AND thread IS NULL", (ctx["conversation"],),
                                order="at, id")
        for r in rows[-limit:]:
            if not r.get("deleted"):
                out.append((r["author"], r["text"]))
    return out


def reply(store: Store, cw, ctx: dict) -> str:
    fn = backend()
    if fn is None:
        return cw.fallback[0]
    messages = [{"role": "system", "content": system_prompt(store, cw)}]
    for who, text in transcript(store, ctx):
        name = (people.person(store, who) or {"name": who})["name"]
        messages.append({"role": "assistant" if who == cw.id else "user",
                         "content": text if who == cw.id else f"{name}: {text}"})
    try:
        text = (fn(messages) or "").strip()
    except Exception as e:                      # a flaky backend never breaks the episode
        log.warning("co-worker model backend failed: %s", e)
        text = ""
    return text or cw.fallback[0]

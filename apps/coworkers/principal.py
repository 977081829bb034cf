"""The task's principal: whoever gave the agent the task, answering its ``ask_user`` questions.

``ask(store, user, principal, text)`` is one ``ask_user`` action: the question goes to the
principal where a colleague would ask it — a chat DM (or a mail, ``via="mail"``) from the
task's user — written with the actor ``ask_user`` (so it is never collateral damage and never
sets off another co-worker's trigger), and is logged in ``user_asks``. The principal answers
with the first of their co-worker triggers (``coworkers.yaml``; scenario triggers the task
turns on) that matches the question, exactly as they answer a message — the same keyword
groups, examples and actions — or, when none does, with the task's ``cant_help`` line (or
their model brain, when they have one and a backend is configured). The answer is queued for
this step's tick, so it is on the page and in the observation when the step returns.

Everything is a function of the store: the same questions give the same answers, byte for byte.
"""
from __future__ import annotations

from apps.core import people
from apps.core.store.db import Caller, Store
from apps.chat import service as chat
from apps.coworkers import brains
from apps.coworkers.engine import META_STEPS, _enqueue, _fire, _fired, first_match, spec_of
from apps.mail import compose

ASKER = "ask_user"          # the actor of the agent's questions to its principal
MAX_QUESTION = 2000


def ask(store: Store, user: str, principal: str, text: str, *, via: str = "chat",
        cant_help: str = "Sorry, I can't help with that.") -> dict:
    """Put the question to ``principal`` and queue their answer; returns where it was asked
    (``replies`` reads the answer from there once the step's tick has run)."""
    text = text.strip()
    if not text:
        raise ValueError("ask_user needs a question")
    caller = Caller(user=user, actor=ASKER)
    steps = int(store.meta(META_STEPS, "0"))
    due = steps + 1                               # this step's tick (it counts the step first)
    with store.transaction():
        if via == "mail":
            who = people.person(store, principal)
            pk = compose.send(store, caller, to=who["email"], subject="Quick question", body=text)
            ctx = {"via": "mail", "message": pk, "thread": store.get("mail_messages", pk)["thread"], "sender": user}
        else:
            conv = chat.open_dm(store, caller, [principal])
            pk = chat.post_message(store, caller, conv, text)
            ctx = {"via": "chat", "message": pk, "conversation": conv, "thread": None, "kind": "dm",
                   "channel": None, "sender": user}
        by_id = {c.id: c for c in spec_of(store).coworkers}
        cw = by_id.get(principal)
        t = first_match(cw, via, text, None, store, steps=due) if cw is not None else None
        if t is not None and t.once and _fired(store, principal, t.id):
            t = None
        if t is not None:
            _fire(store, cw, t, due - 1, ctx, f"ask:{pk}", via=via)
            answered = t.id
        elif cw is not None and cw.brain == "model" and brains.backend() is not None:
            _enqueue(store, principal, "model", {"model": True}, ctx, due)
            answered = "model"
        else:
            _enqueue(store, principal, "cant_help", {"reply": cant_help, "attach": []}, ctx, due)
            answered = "cant_help"
        store.insert("user_asks", ASKER, step=due, principal=principal, text=text, trigger=answered)
    return {**ctx, "principal": principal}


def replies(store: Store, asked: dict) -> list[str]:
    """What the principal has said since the question (in the DM, or in the mail thread)."""
    if asked["via"] == "mail":
        who = people.person(store, asked["principal"])
        rows = store.all("SELECT body FROM mail_messages WHERE thread=? AND id>? AND sender=? ORDER BY id",
                         (asked["thread"], asked["message"], who["email"]))
        return [r["body"] for r in rows]
    rows = store.all("SELECT text FROM chat_messages WHERE conversation=? AND id>? AND author=? AND deleted=0 "
                     "ORDER BY id", (asked["conversation"], asked["message"], asked["principal"]))
    return [r["text"] for r in rows]


"""``tick(store)``: co-workers notice what the agent did and act.

One tick = one agent step. It reads the agent's writes since the last tick
from the write log, turns them into events (a message to a co-worker, an
invitation, a record change), matches each co-worker's triggers in file
order, queues the actions (``delay_steps`` later), then runs the actions that
are due through the apps' service layers. Everything is a function of the
store, so the same agent actions give the same final state, byte for byte.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field

from apps.core import people
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import AGENT, Caller, Store
from apps.coworkers import brains
from apps.coworkers.match import matches
from apps.calendar import service as cal
from apps.chat import service as chat
from apps.drive import service as drive
from apps.mail import compose
from apps.coworkers.spec import (CallAction, Coworker, CoworkersFile, MailAction, PostAction, ReactAction,
                                 ReplyAction, RespondAction, ShareAction, Trigger)

log = logging.getLogger(__name__)

META_SPEC = "coworkers"
META_CURSOR = "tick_cursor"
META_STEPS = "tick_steps"
META_SCENARIO = "scenario_triggers"


def set_scenario(store: Store, triggers: list[str]) -> None:
    """Turn on a task's scenario triggers (``"<person>:<trigger id>"``) for this episode."""
    store.set_meta(META_SCENARIO, json.dumps(sorted(triggers)))


def _enabled(store: Store, cw: str, t: Trigger) -> bool:
    return not t.scenario or f"{cw}:{t.id}" in json.loads(store.meta(META_SCENARIO) or "[]")


def conversation(store: Store, cw: str) -> dict[str, int]:
    """The turns this co-worker has taken in the episode: trigger id → the step it last fired."""
    return {r["trigger"]: r["step"] for r in store.all(
        "SELECT trigger, MAX(step) AS step FROM coworker_fired WHERE coworker=? GROUP BY trigger", (cw,))}


def live(t: Trigger, state: dict[str, int], steps: int) -> bool:
    """Whether the conversation is where this turn belongs: its ``after`` turns taken (``wait``
    steps ago or more), none of its ``until`` turns."""
    if any(a not in state for a in t.after) or any(u in state for u in t.until):
        return False
    return not t.wait or steps - max(state[a] for a in t.after) >= t.wait


# ---------------------------------------------------------------------- install / load
def install(store: Store, spec: CoworkersFile) -> None:
    store.set_meta(META_SPEC, spec.model_dump_json(by_alias=True))
    store.set_meta(META_CURSOR, str(_last_seq(store)))
    store.set_meta(META_STEPS, "0")


_SPEC_CACHE: dict[str, CoworkersFile] = {}


def spec_of(store: Store) -> CoworkersFile:
    raw = store.meta(META_SPEC)
    if not raw:
        return CoworkersFile()
    if raw not in _SPEC_CACHE:
        _SPEC_CACHE.clear()
        _SPEC_CACHE[raw] = CoworkersFile.model_validate_json(raw)
    return _SPEC_CACHE[raw]


def _last_seq(store: Store) -> int:
    return int(store.scalar("SELECT COALESCE(MAX(seq), 0) FROM _writes") or 0)


# ---------------------------------------------------------------------- events
@dataclass
class Event:
    kind: str                       # message | invite
    coworker: str
    via: str | None = None          # chat | mail
    text: str = ""
    direct: bool = False            # a DM, an @mention or a mail to them: silence would be rude
    sender: str = AGENT
    context: dict = field(default_factory=dict)


def _coworker_ids(spec: CoworkersFile) -> set[str]:
    return {c.id for c in spec.coworkers}


def _message_events(store: Store, pk: int, spec: CoworkersFile) -> list[Event]:
    ids = _coworker_ids(spec)
    msg = store.get("chat_messages", pk)
    if msg is None or msg.get("deleted"):
        return []
    conv = store.get("chat_conversations", msg["conversation"])
    if conv is None:
        return []
    author = msg["author"]
    members = [r["person"] for r in store.select("chat_members", "conversation=?", (conv["id"],))]
    ctx = {"via": "chat", "message": pk, "conversation": conv["id"], "thread": msg.get("thread"),
           "kind": conv["kind"], "channel": conv.get("name"), "sender": author}
    out: dict[str, Event] = {}
    if conv["kind"] in ("dm", "group"):
        for p in members:
            if p != author and p in ids:
                out[p] = Event("message", p, "chat", msg["text"], direct=conv["kind"] == "dm" or
                               p in (msg.get("mentions") or []), sender=author, context=ctx)
    else:
        for p in msg.get("mentions") or []:
            # as in Slack, a mention of someone outside the channel doesn't reach them (it offers an invite)
            if p != author and p in ids and p in members:
                out[p] = Event("message", p, "chat", msg["text"], direct=True, sender=author, context=ctx)
        for p in _watchers(spec, conv.get("name")):
            if p != author and p not in out and p in members:
                out[p] = Event("message", p, "chat", msg["text"], direct=False, sender=author, context=ctx)
        if msg.get("thread"):
            parent = store.get("chat_messages", msg["thread"])
            p = parent and parent["author"]
            if p and p != author and p in ids and p not in out:
                out[p] = Event("message", p, "chat", msg["text"], direct=False, sender=author, context=ctx)
    return list(out.values())


def _watchers(spec: CoworkersFile, channel: str | None) -> list[str]:
    """Co-workers with a message trigger bound to this channel read everything posted in it
    (the on-call watches #support-oncall), not only messages that mention them."""
    if not channel:
        return []
    return [c.id for c in spec.coworkers if any(t.when == "message" and t.channel == channel
                                                for t in c.triggers)]


def _mail_events(store: Store, pk: int, ids: set[str]) -> list[Event]:
    m = store.get("mail_messages", pk)
    if m is None:
        return []
    sender = people.by_email(store, m["sender"])
    sender_id = sender["slug"] if sender else m["sender"]
    text = (m.get("subject") or "") + "\n" + _unquoted(m.get("body") or "")
    ctx = {"via": "mail", "message": pk, "thread": m["thread"], "sender": sender_id}
    out: dict[str, Event] = {}
    for field_, direct in (("to", True), ("cc", False), ("bcc", False)):
        for addr in m.get(field_) or []:
            p = people.by_email(store, addr)
            if p and p["slug"] in ids and p["slug"] != sender_id and p["slug"] not in out:
                out[p["slug"]] = Event("message", p["slug"], "mail", text, direct=direct, sender=sender_id,
                                       context=ctx)
    return list(out.values())


def _unquoted(body: str) -> str:
    lines = []
    for line in body.splitlines():
        if line.startswith(">") or (line.startswith("On ") and line.rstrip().endswith("wrote:")):
            break
        lines.append(line)
    return "\n".join(lines)


def _copied_to_exception(store: Store, guest: dict) -> bool:
    """A guest of a series copied onto one occurrence made an event of its own (an RSVP or an edit of
    "this event") at the occurrence's own time: no new invitation, so nothing to answer."""
    ev = store.get("cal_events", guest["event"])
    if not ev or not ev.get("series"):
        return False
    series = store.get("cal_events", ev["series"])
    if not series or not store.one("SELECT 1 FROM cal_guests WHERE event=? AND person=?", (series["id"], guest["person"])):
        return False
    return str(ev["start"])[:10] == str(ev.get("series_day")) and str(ev["start"])[10:] == str(series["start"])[10:] \
        and str(ev["end"])[10:] == str(series["end"])[10:]


def _invite_events(store: Store, table: str, pk: int, fields: list[str], ids: set[str]) -> list[Event]:
    if table == "cal_guests":
        g = store.get("cal_guests", pk)
        if g is None or g["person"] not in ids or _copied_to_exception(store, g):
            return []
        return [Event("invite", g["person"], context={"event": g["event"]})]
    if not {"start", "end", "all_day", "recurrence"} & set(fields):
        return []
    guests = store.select("cal_guests", "event=?", (pk,))
    return [Event("invite", g["person"], context={"event": pk, "moved": True}) for g in guests if g["person"] in ids]


# ---------------------------------------------------------------------- tick
def tick(store: Store, *, step: bool = True) -> bool:
    """Run one tick. Returns True when a co-worker wrote something (the page
    should refresh). ``step=False`` handles writes without counting a step."""
    spec = spec_of(store)
    cursor = int(store.meta(META_CURSOR, "0"))
    steps = int(store.meta(META_STEPS, "0")) + (1 if step else 0)
    if not spec.coworkers:
        store.set_meta(META_CURSOR, str(_last_seq(store)))
        store.set_meta(META_STEPS, str(steps))
        return False
    ids = _coworker_ids(spec)
    by_id = {c.id: c for c in spec.coworkers}
    rows = store.all("SELECT seq, tbl, pk, op, fields FROM _writes WHERE seq > ? AND actor = ? ORDER BY seq",
                     (cursor, AGENT))
    seen: set[tuple] = set()
    for r in rows:
        tbl, pk, op, fields = r["tbl"], r["pk"], r["op"], json.loads(r["fields"])
        events: list[Event] = []
        if tbl == "chat_messages" and op == "insert":
            events = _message_events(store, pk, spec)
        elif tbl == "mail_messages" and op == "insert":
            events = _mail_events(store, pk, ids)
        elif (tbl == "cal_guests" and op == "insert") or (tbl == "cal_events" and op == "update"):
            events = _invite_events(store, tbl, pk, fields, ids)
        for ev in events:
            key = (ev.kind, ev.coworker, json.dumps(ev.context, sort_keys=True))
            if key not in seen:
                seen.add(key)
                _on_event(store, by_id[ev.coworker], ev, steps)
        for cw in spec.coworkers:
            for t in cw.triggers:
                if t.when == "record" and _enabled(store, cw.id, t) and t.table == tbl and op != "delete" and \
                        (not t.fields or set(t.fields) & set(fields)) and (cw.id, t.id, pk) not in seen and \
                        live(t, conversation(store, cw.id), steps):
                    row = store.get(tbl, pk)
                    if row is not None and _where(row, t.where):
                        seen.add((cw.id, t.id, pk))
                        _fire(store, cw, t, steps, {"record": {"table": tbl, "id": pk}}, f"{tbl}:{pk}")
    for cw in spec.coworkers:
        for t in cw.triggers:
            if t.when == "steps" and _enabled(store, cw.id, t) and not _fired(store, cw.id, t.id):
                state = conversation(store, cw.id)
                if live(t, state, steps) and steps - max((state[a] for a in t.after), default=0) >= t.steps:
                    _fire(store, cw, t, steps, {}, f"step:{steps}")
    before = _last_seq(store)
    _run_due(store, by_id, steps)
    wrote = _last_seq(store) != before
    store.set_meta(META_CURSOR, str(_last_seq(store)))
    store.set_meta(META_STEPS, str(steps))
    return wrote


def _where(row: dict, where: dict) -> bool:
    for k, want in where.items():
        have = row.get(k)
        if isinstance(want, dict) and "contains" in want:
            if str(want["contains"]).lower() not in str(have or "").lower():
                return False
        elif have != want:
            return False
    return True


def _fired(store: Store, cw: str, trigger: str) -> bool:
    return store.scalar("SELECT 1 FROM coworker_fired WHERE coworker=? AND trigger=?", (cw, trigger)) is not None


def _fire(store: Store, cw: Coworker, t: Trigger, steps: int, context: dict, cause: str, via: str | None = None):
    if t.once and _fired(store, cw.id, t.id):
        return
    store.insert("coworker_fired", cw.id, coworker=cw.id, trigger=t.id, step=steps, cause=cause)
    for a in t.do:
        if via is not None and a.via is not None and a.via != via:
            continue
        _enqueue(store, cw.id, t.id, a.model_dump(by_alias=True, exclude_defaults=False), context,
                 steps + a.delay_steps)


def _enqueue(store: Store, cw: str, trigger: str, action: dict, context: dict, due: int) -> None:
    store.insert("coworker_queue", cw, due=due, coworker=cw, trigger=trigger, action=action, context=context)


_REQUEST = re.compile(r"\?|\b(please|pls|can you|could you|would you|will you|can i|do you|need|send me|"
                      r"let me know|what|when|where|which|who|how|why)\b", re.I)


def is_request(text: str) -> bool:
    """A question or a request (which deserves an answer), not news or thanks."""
    return bool(_REQUEST.search(text))


def first_match(cw: Coworker, via: str, text: str, channel: str | None = None,
                store: Store | None = None, *, state: dict[str, int] | None = None,
                steps: int | None = None) -> Trigger | None:
    """The first of ``cw``'s message triggers that is live in the conversation (``state``, else
    read from ``store``; none taken without either) and matches ``text``."""
    if state is None:
        state = conversation(store, cw.id) if store is not None else {}
    if steps is None:
        steps = int(store.meta(META_STEPS, "0")) if store is not None else 0
    for t in cw.triggers:
        if t.when != "message" or via not in t.via or (store is not None and not _enabled(store, cw.id, t)):
            continue
        if t.channel and t.channel != channel:
            continue
        if not live(t, state, steps):
            continue
        if matches(text, t.match, t.unless):
            return t
    return None


def _on_event(store: Store, cw: Coworker, ev: Event, steps: int) -> None:
    ctx = dict(ev.context)
    if ev.kind == "invite":
        for t in cw.triggers:
            if t.when == "invite" and _enabled(store, cw.id, t) and live(t, conversation(store, cw.id), steps):
                e = store.get("cal_events", ev.context["event"])
                if e is None or (t.title and not matches(e["title"], t.title)):
                    continue
                _fire(store, cw, t, steps, ctx, f"cal_events:{ev.context['event']}")
                return
        return
    t = first_match(cw, ev.via, ev.text, ctx.get("channel"), store, steps=steps)
    if t is not None and not (t.once and _fired(store, cw.id, t.id)):
        _fire(store, cw, t, steps, ctx, f"{'chat' if ev.via == 'chat' else 'mail'}_messages:{ctx['message']}",
              via=ev.via)
        return
    if not ev.direct:
        return
    if not is_request(ev.text):
        # News or thanks, not a question: a colleague acknowledges in chat and stays quiet in mail.
        if ev.via == "chat":
            _enqueue(store, cw.id, "ack", {"react": "👍"}, ctx, steps)
        return
    if cw.brain == "model" and brains.backend() is not None:
        _enqueue(store, cw.id, "model", {"model": True}, ctx, steps)
        return
    n = store.scalar("SELECT COUNT(*) FROM coworker_fired WHERE coworker=? AND trigger='fallback'", (cw.id,))
    store.insert("coworker_fired", cw.id, coworker=cw.id, trigger="fallback", step=steps,
                 cause=f"{ev.via}:{ctx['message']}")
    _enqueue(store, cw.id, "fallback", {"reply": cw.fallback[n % len(cw.fallback)], "attach": []}, ctx, steps)


# ---------------------------------------------------------------------- actions
def _run_due(store: Store, by_id: dict[str, Coworker], steps: int) -> None:
    for q in store.select("coworker_queue", "done=0 AND due<=?", (steps,), order="due, id"):
        cw = by_id.get(q["coworker"])
        error = None
        try:
            with store.transaction():
                _perform(store, cw, q["action"], q["context"])
        except (Invalid, NotFound, LookupError, ValueError) as e:
            error = f"{type(e).__name__}: {e}"
            log.warning("co-worker %s could not %s: %s", q["coworker"], q["trigger"], error)
        store.update("coworker_queue", q["id"], q["coworker"], done=True, error=error)


def _caller(cw: str) -> Caller:
    return Caller(user=cw, actor=cw)


def _agent(store: Store, ctx: dict) -> str:
    s = ctx.get("sender")
    return s if s and people.person(store, s) else store.meta("default_user")


def _text(store: Store, cw: str, template: str, ctx: dict) -> str:
    agent = people.person(store, _agent(store, ctx)) or {"name": "there"}
    values = {"agent_first": people.first_name(agent["name"]), "agent_name": agent["name"],
              "me": (people.person(store, cw) or {"name": cw})["name"]}
    if ctx.get("event"):
        e = store.get("cal_events", ctx["event"])
        if e:
            start = store.local(e["start"])
            values.update(event_title=e["title"], event_day=start.strftime("%A %-d %B"),
                          event_time=start.strftime("%-I:%M %p").lower())
    return template.format_map(_Blank(values))


class _Blank(dict):
    def __missing__(self, key):
        return "{" + key + "}"


def resolve_item(store: Store, path: str) -> int:
    """A Drive item from a world path: ``drive/<owner>/<path in My Drive>``."""
    parts = path.split("/")
    if len(parts) < 3 or parts[0] != "drive":
        raise LookupError(f"{path}: a Drive path looks like drive/<owner>/<folder>/<file>")
    item = drive.find_path(store, parts[1], "/".join(parts[2:]))
    if item is None:
        raise LookupError(f"{path}: no such Drive item")
    return item["id"]


def _people_ids(store: Store, names: list[str], ctx: dict) -> list[str]:
    return [_agent(store, ctx) if n == "agent" else n for n in names]


def _perform(store: Store, cw: Coworker, action: dict, ctx: dict) -> None:
    caller = _caller(cw.id)
    if action.get("model"):
        text = brains.reply(store, cw, ctx)
        if text:
            _reply(store, caller, text, [], ctx)
        return
    if "reply" in action:
        _reply(store, caller, _text(store, cw.id, action["reply"], ctx),
               [resolve_item(store, p) for p in action.get("attach") or []], ctx)
    elif "post" in action:
        text = _text(store, cw.id, action["post"], ctx)
        items = [resolve_item(store, p) for p in action.get("attach") or []]
        if action.get("channel"):
            conv = chat.conversation_by_name(store, cw.id, action["channel"])
            if conv is None:
                raise LookupError(f"no channel {action['channel']!r} visible to {cw.id}")
            conv_id = conv["id"]
        else:
            conv_id = chat.open_dm(store, caller, _people_ids(store, action["to"], ctx))
        chat.post_message(store, caller, conv_id, text, drive_items=items)
    elif "mail" in action:
        spec = action["mail"]
        to = [people.person(store, p)["email"] for p in _people_ids(store, spec["to"], ctx)]
        cc = [people.person(store, p)["email"] for p in _people_ids(store, spec.get("cc") or [], ctx)]
        compose.send(store, caller, to=", ".join(to), cc=", ".join(cc), subject=_text(store, cw.id, spec["subject"], ctx),
                     body=_text(store, cw.id, spec["body"], ctx),
                     drive_files=tuple(resolve_item(store, p) for p in spec.get("attach") or []))
    elif "react" in action:
        if ctx.get("via") == "chat":
            chat.react(store, caller, ctx["message"], action["react"])
    elif "respond" in action:
        response, note = action["respond"], action.get("note") or ""
        if response == "auto":
            response = "declined" if _busy_elsewhere(store, cw.id, ctx["event"]) else "accepted"
            if response == "declined":
                note = action.get("busy_note") or note
        note = _text(store, cw.id, note, ctx)
        cal.respond(store, caller, ctx["event"], response, note)
        if action.get("mail_organizer") and response == "declined" and note:
            _mail_decline(store, caller, ctx["event"], note)
    elif "share" in action:
        drive.share(store, caller, resolve_item(store, action["share"]),
                    _people_ids(store, action["with"], ctx), action.get("role") or "viewer")
    elif "call" in action:
        fn = service_function(action["call"])
        args = {k: _arg(store, cw.id, v, ctx) for k, v in (action.get("args") or {}).items()}
        fn(store, caller, **args)


def _mail_decline(store: Store, caller: Caller, event_id: int, note: str) -> None:
    """The mail a calendar sends the organizer when a guest declines with a note."""
    ev = cal.get_event(store, caller.user, event_id)
    s = ev["start"]                                   # local time
    when = f"{s:%a} {s.day} {s:%b %Y} {s:%I:%M %p}".replace(" 0", " ")
    by = {g["person"]: g for g in ev["guests"]}
    compose.send(store, caller, to=by[ev["organizer"]]["email"], subject=f"Declined: {ev['display_title']} @ {when}",
                 body=f"{by[caller.user]['name']} has declined this invitation with a note:\n\n{note}")


def service_function(path: str):
    """``apps.<app>.service.<function>``: only an app's service layer, never a route."""
    import importlib
    mod, _, name = path.rpartition(".")
    if not mod.startswith("apps.") or not mod.endswith(".service"):
        raise LookupError(f"{path}: co-workers call apps.<app>.service functions only")
    try:
        fn = getattr(importlib.import_module(mod), name)
    except (ImportError, AttributeError):
        raise LookupError(f"{path}: no such service function") from None
    if name.startswith("_") or not callable(fn):
        raise LookupError(f"{path}: not a public service function")
    return fn


def _arg(store: Store, cw: str, value: object, ctx: dict):
    if value == "$event":
        return ctx["event"]
    if value == "$message":
        return ctx["message"]
    if isinstance(value, dict) and len(value) == 1:
        (kind, name), = value.items()
        if kind == "channel":
            conv = chat.conversation_by_name(store, cw, name)
            if conv is None:
                raise LookupError(f"no channel {name!r} visible to {cw}")
            return conv["id"]
        if kind == "drive":
            return resolve_item(store, name)
        if kind == "event_titled":
            row = store.one("SELECT id FROM cal_events WHERE title=? ORDER BY id", (name,))
            if row is None:
                raise LookupError(f"no event titled {name!r}")
            return row["id"]
        if kind == "incident_titled":                # the newest incident with that short description
            row = store.one("SELECT id FROM tk_incidents WHERE short_description=? ORDER BY id DESC", (name,))
            if row is None:
                raise LookupError(f"no incident titled {name!r}")
            return row["id"]
    if isinstance(value, str):
        return _text(store, cw, value, ctx)
    return value


def _reply(store: Store, caller: Caller, text: str, items: list[int], ctx: dict) -> None:
    if ctx.get("via") == "mail":
        compose.send(store, caller, body=text, reply_to=ctx["message"], drive_files=tuple(items))
        return
    thread = ctx.get("thread")
    if thread is None and ctx.get("kind") == "channel":
        thread = ctx["message"]              # answer a channel mention in its thread
    chat.post_message(store, caller, ctx["conversation"], text, thread=thread, drive_items=items)


def _busy_elsewhere(store: Store, person: str, event_id: int) -> bool:
    e = store.get("cal_events", event_id)
    start, end = store.local(e["start"]).replace(tzinfo=None), store.local(e["end"]).replace(tzinfo=None)
    return bool(cal.busy(store, [person], start, end, exclude=event_id).get(person))


# ---------------------------------------------------------------------- validation (compile, check)
def validate(store: Store, spec: CoworkersFile) -> list[str]:
    """Problems with the spec against the seeded store: unknown people,
    channels or Drive paths, and text triggers whose example phrasings are not
    accepted (or whose counterexamples are)."""
    problems: list[str] = []
    for i, cw in enumerate(spec.coworkers):
        where = f"coworkers.{i} ({cw.id})"
        if people.person(store, cw.id) is None:
            problems.append(f"{where}: {cw.id!r} is not in the directory")
            continue
        for t in cw.triggers:
            tw = f"{where}.triggers.{t.id}"
            if t.when == "message":
                state = turns_before(cw, t)
                for ex in t.examples:
                    for via in t.via:
                        got = first_match(cw, via, ex, t.channel, state=state, steps=t.wait)
                        if got is None or got.id != t.id:
                            problems.append(f"{tw}: example {ex!r} ({via}) "
                                            + ("matches no trigger" if got is None else f"is taken by trigger {got.id!r}"))
                for ex in t.counterexamples:
                    if matches(ex, t.match, t.unless):
                        problems.append(f"{tw}: counterexample {ex!r} matches")
            if t.when == "record" and t.table not in store.tables:
                problems.append(f"{tw}: unknown table {t.table!r}")
            for a in t.do:
                paths = list(getattr(a, "attach", []) or [])
                if isinstance(a, MailAction):
                    paths += a.mail.attach
                    for p in a.mail.to + a.mail.cc:
                        if p != "agent" and people.person(store, p) is None:
                            problems.append(f"{tw}: mail to unknown person {p!r}")
                if isinstance(a, ShareAction):
                    paths.append(a.share)
                if isinstance(a, CallAction):
                    try:
                        service_function(a.call)
                    except LookupError as e:
                        problems.append(f"{tw}: {e}")
                    for v in a.args.values():
                        if isinstance(v, dict) and set(v) == {"channel"} and store.scalar(
                                "SELECT 1 FROM chat_conversations WHERE name=?", (v["channel"],)) is None:
                            problems.append(f"{tw}: no channel {v['channel']!r}")
                        if isinstance(v, dict) and set(v) == {"drive"}:
                            paths.append(v["drive"])
                if isinstance(a, PostAction):
                    if a.channel and store.scalar("SELECT 1 FROM chat_conversations WHERE name=?",
                                                  (a.channel,)) is None:
                        problems.append(f"{tw}: no channel {a.channel!r}")
                    for p in a.to:
                        if p != "agent" and people.person(store, p) is None:
                            problems.append(f"{tw}: post to unknown person {p!r}")
                for p in paths:
                    try:
                        resolve_item(store, p)
                    except LookupError as e:
                        problems.append(f"{tw}: {e}")
            _ = (ReplyAction, ReactAction, RespondAction)
    return problems


def turns_before(cw: Coworker, t: Trigger) -> dict[str, int]:
    """The conversation in which ``t`` is live: its ``after`` turns and theirs, all at step 0."""
    by_id = {x.id: x for x in cw.triggers}
    state: dict[str, int] = {}
    todo = list(t.after)
    while todo:
        a = todo.pop()
        if a not in state:
            state[a] = 0
            todo.extend(by_id[a].after)
    return state


def phrasing_report(store: Store) -> list[tuple[str, str, int, int]]:
    """(co-worker, trigger, examples, counterexamples) for every text trigger (``deskworld check``)."""
    out = []
    for cw in spec_of(store).coworkers:
        for t in cw.triggers:
            if t.when == "message":
                out.append((cw.id, t.id, len(t.examples), len(t.counterexamples)))
    return out

"""Chat GUI, part two: the sidebar's Threads, Activity and Later views; saving for later and marking
unread; channel settings (rename, archive); the Ctrl+K switcher; older pages of the timeline; files
uploaded from the computer; search with its Messages / Files / People tabs."""
from __future__ import annotations

import re

from flask import g, redirect, request, url_for
from markupsafe import Markup, escape

from apps.chat import service
from apps.chat.blueprint import bp
from apps.chat.routes import _ctx, _details, _frag, _local, _local_ids, _message_frag, _nav, _trigger, timeline
from apps.core import local_files
from apps.core import people as directory
from apps.core.errors import Invalid, NotFound
from apps.core.files import blob_bytes
from apps.web.render import flash_toast, go, int_arg, is_htmx, render, toast

VIEWS = {"threads": "Threads", "activity": "Activity", "later": "Later"}


# ---------------------------------------------------------------- Threads, Activity, Later
def _view(view: str):
    data = {"threads": service.threads, "activity": service.activity,
            "later": service.saved_items}[view](g.store, g.caller.user)
    return render("chat/views.html", view=view, data=data, **_nav(None), **_ctx(title=VIEWS[view]))


@bp.get("/threads")
def threads_view():
    return _view("threads")


@bp.get("/activity")
def activity_view():
    return _view("activity")


@bp.get("/later")
def later_view():
    return _view("later")


# ---------------------------------------------------------------- one message: save, mark unread
def _bool_arg(name: str, default: bool = True) -> bool:
    v = request.values.get(name)
    if v is None:
        return default
    if v.lower() in ("1", "true", "on", "yes"):
        return True
    if v.lower() in ("0", "false", "off", "no", ""):
        return False
    raise Invalid(f"“{name}” must be true or false.", name)


@bp.post("/m/<int:message_id>/save")
def save(message_id: int):
    saved = _bool_arg("saved")
    service.save_for_later(g.store, g.caller, message_id, saved)
    note = toast("Saved for later." if saved else "Removed from Later.", link=("View", url_for("chat.later_view"))
                 if saved else None)
    if not is_htmx():
        return redirect(url_for("chat.message", message_id=message_id))
    if request.values.get("where") == "later":
        return render("chat/_later_gone.html", partial=True, oob=[note])
    resp = _message_frag(message_id)
    resp.set_data(resp.get_data(as_text=True) + note)
    return resp


@bp.post("/m/<int:message_id>/unread")
def mark_unread(message_id: int):
    """Slack's Mark unread: the conversation shows unread from this message (and stays so while open)."""
    m = service.get_message(g.store, g.caller.user, message_id)
    service.mark_unread(g.store, g.caller, message_id)
    flash_toast("Marked as unread.")
    return go(url_for("chat.channel", conv_id=m["conversation"], unread=1))


# ---------------------------------------------------------------- channel settings: rename, archive
@bp.post("/c/<int:conv_id>/rename")
def rename(conv_id: int):
    name = request.form.get("name", "")
    try:
        changed = service.rename_channel(g.store, g.caller, conv_id, name)
    except Invalid as e:
        return _details(conv_id, "settings", status=422, errors=e.errors, values={"name": name})
    if not is_htmx():
        return redirect(url_for("chat.channel", conv_id=conv_id))
    note = [toast(f"Channel renamed to #{service.conversation(g.store, g.caller.user, conv_id)['name']}.")] \
        if changed else None
    return _details(conv_id, "settings", headers=_trigger("chat-header", "chat-nav"), oob=note)


@bp.get("/c/<int:conv_id>/archive")
def archive_confirm(conv_id: int):
    conv = service.conversation(g.store, g.caller.user, conv_id)
    return _frag("_confirm.html", title=f"Archive #{conv['name']}?",
                 text="When you archive a channel, it's archived for everyone: no one can post in it, and it "
                      "leaves everyone's sidebar. Its messages can still be searched and read.",
                 action=url_for("chat.archive", conv_id=conv_id), confirm="Archive channel", danger=True)


@bp.post("/c/<int:conv_id>/archive")
def archive(conv_id: int):
    archived = _bool_arg("archived")
    service.archive_channel(g.store, g.caller, conv_id, archived)
    conv = service.conversation(g.store, g.caller.user, conv_id)
    flash_toast(f"#{conv['name']} {'archived' if archived else 'unarchived'}.")
    return go(url_for("chat.channel", conv_id=conv_id))


# ---------------------------------------------------------------- Ctrl+K
@bp.get("/switcher")
def switcher():
    """The quick switcher: the user's channels and DMs, other channels they can join, and people."""
    nav = service.list_conversations(g.store, g.caller.user)
    mine = {c["id"] for c in nav["channels"] + nav["dms"]}
    items = [{"kind": c["kind"], "label": c["title"], "private": c["private"], "unread": bool(c["unread"]),
              "url": url_for("chat.channel", conv_id=c["id"]), "sub": ""} for c in nav["channels"] + nav["dms"]]
    items += [{"kind": "channel", "label": c["name"], "private": c["private"], "unread": False,
               "url": url_for("chat.channel", conv_id=c["id"]), "sub": "Not a member"}
              for c in service.browse_channels(g.store, g.caller.user) if c["id"] not in mine]
    people = [p for p in directory.everyone(g.store) if p["slug"] != g.caller.user]
    return _frag("chat/_switcher.html", items=items, people=people)


# ---------------------------------------------------------------- older messages
@bp.get("/c/<int:conv_id>/earlier")
def earlier(conv_id: int):
    """The page of messages before message ``before`` (scrolling to the top, or "Load earlier")."""
    before = int_arg("before")
    if before is None:
        raise Invalid("Say which message to load before.", "before")
    conv = service.conversation(g.store, g.caller.user, conv_id)
    msgs = service.messages(g.store, g.caller.user, conv_id, before=before, limit=service.PAGE)
    more = bool(msgs) and service.has_older(g.store, conv_id, msgs[0]["id"])
    first = g.store.get("chat_messages", before)              # the page's first message, shown already
    same_day = bool(msgs) and first is not None and _local(first["at"]).date() == _local(msgs[-1]["at"]).date()
    return _frag("chat/_earlier.html", conv=conv, items=timeline(msgs, None, g.caller.user), more=more,
                 same_day=before if same_day else None)


# ---------------------------------------------------------------- files from the computer
@bp.post("/files/local")
def local_picked():
    """The computer's file picker posts here: chips for the composer ``target`` (sent with the message)."""
    target = request.args.get("target", "")
    if not re.fullmatch(r"[A-Za-z0-9_-]+", target):
        raise Invalid("Which message box is the file for?", "target")
    files = [local_files.get(g.store, g.caller.user, i) for i in _local_ids()]
    if not files:
        raise Invalid("Choose at least one file.", "local")
    return _frag("chat/_local_chips.html", files=files, target=target)


@bp.get("/files/<int:file_id>")
def file(file_id: int):
    """A file uploaded into a message: its preview page (text shown, other kinds as a card)."""
    f = g.store.get("chat_files", file_id)
    if f is None or f["item"] is not None:
        raise NotFound("That file doesn't exist, or you don't have access to it.")
    m = service.message(g.store, g.caller.user, f["message"])      # NotFound unless visible
    text = None
    if (f["mime"] or "").startswith("text/") or f["mime"] in ("application/json", "text/csv"):
        text = blob_bytes(g.store, f["blob"]).decode("utf-8", "replace")[:200_000]
    conv = service.conversation(g.store, g.caller.user, m["conversation"])
    return render("chat/file.html", f=f, m=m, conv=conv, text=text, **_nav(None), **_ctx(title=f["name"]))


# ---------------------------------------------------------------- search
def snippet(text: str, terms: list[str], width: int = 220) -> Markup:
    """Search result text: mentions as names, the matched terms highlighted."""
    people = {r["slug"]: r["name"] for r in g.store.all("SELECT slug, name FROM people")}
    plain = service.MENTION_RE.sub(lambda m: "@" + people.get(m.group(1), m.group(1)), text or "")
    plain = " ".join(plain.split())
    low = plain.lower()
    start = 0
    for t in terms:
        i = low.find(t.lower())
        if i > 60:
            start = i - 60
            space = plain.find(" ", start)
            start = space + 1 if 0 <= space < i else start      # begin at a word
            break
    piece = ("…" if start else "") + plain[start:start + width] + ("…" if len(plain) > start + width else "")
    if not terms:
        return escape(piece)
    pattern = re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)), re.I)
    out, pos = [], 0
    for m in pattern.finditer(piece):
        out.append(escape(piece[pos:m.start()]))
        out.append(Markup("<mark>{}</mark>").format(m.group(0)))
        pos = m.end()
    out.append(escape(piece[pos:]))
    return Markup("").join(out)


TABS = ("messages", "files", "people")


@bp.get("/search")
def search():
    q = request.args.get("q", "").strip()
    tab = request.args.get("tab", "messages")
    if tab not in TABS:
        raise Invalid("Search shows messages, files or people.", "tab")
    if not q:
        return redirect(url_for("chat.index"))
    error = None
    results, files, people = [], [], []
    try:
        results = service.search(g.store, g.caller.user, q)
        files = service.search_files(g.store, g.caller.user, q)
    except service.SearchError as e:
        error = e.message
    people = service.search_people(g.store, q)
    terms = service.search_terms(g.store, g.caller.user, q)
    return render("chat/search.html", results=results, files=files, people=people, tab=tab, terms=terms,
                  search_error=error, snippet=snippet, **_nav(None), **_ctx(q=q, title="Search"))

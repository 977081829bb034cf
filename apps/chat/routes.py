"""Chat GUI: thin routes over ``apps.chat.service``.

The page is the sidebar (``#chat-nav``), a conversation (header ``#chan-head``,
timeline ``#messages``, composer) and an optional thread pane
(``#thread-pane``). Each region re-fetches itself on ``deskworld:refresh``
(a co-worker acted) and on the ``chat-*`` events the routes send with
``HX-Trigger`` when a change here affects another region.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta

from flask import abort, g, make_response, redirect, request, url_for
from markupsafe import Markup, escape

from apps.chat import emoji, service
from apps.chat.blueprint import bp
from apps.core import addresses, locale
from apps.core import people as directory
from apps.core.errors import Forbidden, Invalid, NotFound
from apps.core.text import html_json
from apps.web import arrange
from apps.web.render import flash_toast, go, id_list, int_arg, is_htmx, render, toast, triggered_by


# ---------------------------------------------------------------- helpers
def _frag(template: str, status: int = 200, headers: dict | None = None, oob: list[str] | None = None, **ctx):
    """A partial template as a fragment (a region, a dialog, one message), with the chat context."""
    return render(template, partial=True, status=status, headers=headers, oob=oob, **_ctx(**ctx))


def _trigger(*events: str) -> dict:
    return {"HX-Trigger": ", ".join(events)}


def _workspace() -> str:
    org = directory.org(g.store, g.user["org"]) if g.get("user") else None
    return org["name"] if org else "Workspace"


def _ctx(**extra) -> dict:
    return {
        "app_name": "chat",
        "sidebar_label": "Channels and direct messages",
        "workspace": _workspace(),
        "emojis": service.EMOJIS,
        "emoji_groups": emoji.grouped,
        "search": {"action": url_for("chat.search"), "placeholder": f"Search {_workspace()}",
                   "q": extra.pop("q", ""), "clear": url_for("chat.index")},
        **extra,
    }


def _nav(current: int | None) -> dict:
    """The sidebar. Under an arrangement variant (``apps.web.arrange``) its channels are in the person's own
    order (Slack lets people drag channels into one) and its direct messages sorted as they chose (by
    recent activity, Slack's default, or alphabetically); where the app opens is unchanged."""
    nav = service.list_conversations(g.store, g.caller.user)
    dms = nav["dms"]
    if arrange.choose("chat.dms", ["recent", "alphabetical"], "recent") == "alphabetical":
        dms = sorted(dms, key=lambda c: (c["title"].lower(), c["id"]))
    return {"nav": {**nav, "channels": arrange.permute("chat.channels", nav["channels"]), "dms": dms},
            "current": current}


# ---------------------------------------------------------------- display helpers
def _local(iso: str) -> datetime:
    return g.store.local(iso)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def day_label(iso: str) -> str:
    """Slack's day divider: "Today", "Yesterday", "Thursday, April 2nd" (with the year if not this one)."""
    d = _local(iso).date()
    today = _local(g.store.now_iso()).date()
    if d == today:
        return "Today"
    if d == today - timedelta(days=1):
        return "Yesterday"
    if not locale.is_default():                  # "Thursday 2 April" (en-GB), "Thursday, 2 April" (de-DE)
        return locale.weekday_day(d, year=d.year != today.year)
    text = f"{d.strftime('%A, %B')} {_ordinal(d.day)}"
    return text if d.year == today.year else f"{text}, {d.year}"


def clock_time(iso: str) -> str:
    return locale.clock(_local(iso))


def full_time(iso: str) -> str:
    return f"{day_label(iso)} at {clock_time(iso)}"


def timeline(msgs: list[dict], since: int | None, user: str) -> list[dict]:
    """Messages with day dividers, the "New messages" line and Slack's compact follow-ups."""
    out = []
    prev = None
    divider_done = since is None
    for m in msgs:
        day = _local(m["at"]).date()
        m = dict(m)
        m["day_break"] = prev is None or _local(prev["at"]).date() != day
        m["new_line"] = False
        if not divider_done and m["id"] > since and m["author"] != user:
            m["new_line"] = True
            divider_done = True
        m["compact"] = (prev is not None and not m["day_break"] and not m["new_line"]
                        and prev["author"] == m["author"] and not prev["deleted"] and not m["deleted"]
                        and not prev.get("thread") and not m.get("thread")
                        and (_local(m["at"]) - _local(prev["at"])) <= timedelta(minutes=5))
        out.append(m)
        prev = m
    return out


URL_RE = r"https?://[^\s<>\"]+"
TEXT_RE = re.compile(
    r"\[(?P<ltext>[^\]\n]+)\]\((?P<lurl>https?://[^\s<>\"()]+)\)"
    rf"|(?P<url>{URL_RE})"
    r"|(?P<mention>(?<![\w@.])@(?P<slug>[a-z0-9][a-z0-9._-]*[a-z0-9]|[a-z0-9]))"
    r"|(?P<chan>(?<![\w&/#])#(?P<cname>[a-z0-9][a-z0-9_-]*))"
    r"|`(?P<code>[^`\n]+)`"
    r"|(?<![\w*])\*(?P<bold>[^*\n]+)\*(?![\w*])"
    r"|(?<![\w_])_(?P<em>[^_\n]+)_(?![\w_])"
    r"|(?<![\w~])~(?P<strike>[^~\n]+)~(?![\w~])")


def render_text(text: str) -> Markup:
    """A message's text as HTML: links, @mentions as names, #channels, *bold*, _italic_, `code`."""
    people = g.get("_chat_people")
    if people is None:
        people = g._chat_people = {r["slug"]: r["name"] for r in g.store.all("SELECT slug, name FROM people")}
    out = []
    pos = 0
    for m in TEXT_RE.finditer(text or ""):
        out.append(escape(text[pos:m.start()]))
        pos = m.end()
        if m.group("lurl"):
            out.append(Markup('<a href="{}" class="link" rel="noopener noreferrer">{}</a>').format(
                m.group("lurl"), m.group("ltext")))
        elif m.group("url"):
            url = m.group("url")
            trail = ""
            while url and url[-1] in ".,;:!?)]'":
                trail = url[-1] + trail
                url = url[:-1]
            out.append(Markup('<a href="{0}" class="link" rel="noopener noreferrer">{0}</a>').format(url))
            out.append(escape(trail))
        elif m.group("mention"):
            slug = m.group("slug")
            if slug in people:
                cls = "mention me" if slug == g.caller.user else "mention"
                out.append(Markup('<span class="{}" data-person="{}">@{}</span>').format(cls, slug, people[slug]))
            elif slug in service.BROADCAST:
                out.append(Markup('<span class="mention broadcast">@{}</span>').format(slug))
            else:
                out.append(escape(m.group(0)))
        elif m.group("chan"):
            conv = service.conversation_by_name(g.store, g.caller.user, m.group("cname"))
            if conv is not None:
                out.append(Markup('<a class="chan-link" href="{}">#{}</a>').format(
                    url_for("chat.channel", conv_id=conv["id"]), conv["name"]))
            else:
                out.append(escape(m.group(0)))
        elif m.group("code") is not None:
            out.append(Markup("<code>{}</code>").format(m.group("code")))
        elif m.group("bold") is not None:
            out.append(Markup("<strong>{}</strong>").format(m.group("bold")))
        elif m.group("em") is not None:
            out.append(Markup("<em>{}</em>").format(m.group("em")))
        elif m.group("strike") is not None:
            out.append(Markup("<s>{}</s>").format(m.group("strike")))
    out.append(escape((text or "")[pos:]))
    return Markup("").join(out)


@bp.app_template_filter("chat_text")
def _chat_text(text: str) -> Markup:
    return render_text(text)


@bp.app_template_filter("chat_time")
def _chat_time(iso: str) -> str:
    return clock_time(iso) if iso else ""


@bp.app_template_filter("chat_full_time")
def _chat_full_time(iso: str) -> str:
    return full_time(iso) if iso else ""


@bp.app_template_filter("chat_day")
def _chat_day(iso: str) -> str:
    return day_label(iso) if iso else ""


@bp.app_template_filter("chat_date")
def _chat_date(iso: str) -> str:
    if not iso:
        return ""
    d = _local(iso)
    if not locale.is_default():
        return locale.medium(d, full=True)
    return f"{d.strftime('%B')} {_ordinal(d.day)}, {d.year}"


def _file_url(f: dict) -> str | None:
    if f.get("upload"):
        return url_for("chat.file", file_id=f["id"])
    return url_for("drive.open_item", item_id=f["item_id"]) if f["item"] else None


@bp.app_template_global("chat_members_json")
def _chat_members_json(conv_id: int) -> str:
    return html_json(service.mention_candidates(g.store, g.caller.user, conv_id))


@bp.app_template_global("chat_file_url")
def _chat_file_url(f: dict) -> str | None:
    return _file_url(f)


# ---------------------------------------------------------------- the conversation page
@bp.get("/")
def index():
    nav = service.list_conversations(g.store, g.caller.user)
    first = (nav["channels"] or nav["dms"] or [None])[0]
    if first is None:
        return redirect(url_for("chat.browse"))
    return redirect(url_for("chat.channel", conv_id=first["id"]))


def _conv_ctx(conv_id: int, *, since: int | None, highlight: int | None, shown: int | None = None) -> dict:
    conv = service.conversation(g.store, g.caller.user, conv_id)
    # A linked message or the "New messages" line older than the first page: show back to it.
    msgs, more = service.latest_page(g.store, g.caller.user, conv_id, at_least=shown or 0, back_to=(highlight, since))
    return {"conv": conv, "items": timeline(msgs, since, g.caller.user), "since": since,
            "highlight": highlight, "more": more, "shown": len(msgs),
            "members_json": _chat_members_json(conv_id)}


@bp.get("/c/<int:conv_id>")
def channel(conv_id: int):
    highlight = int_arg("m")
    thread_id = int_arg("thread")
    service.conversation(g.store, g.caller.user, conv_id)          # 404 before anything is written
    t = None
    if thread_id is not None:
        t = service.thread(g.store, g.caller.user, thread_id)
        if t["conversation"]["id"] != conv_id:
            abort(404)
    keep = request.args.get("unread") == "1"           # just marked unread: it stays so while open
    since = service.last_read(g.store, g.caller.user, conv_id) if keep else service.mark_read(g.store, g.caller, conv_id)
    ctx = _conv_ctx(conv_id, since=since, highlight=highlight)
    ctx["keep"] = keep
    return render("chat/channel.html", **ctx, t=t, thread_highlight=highlight, **_nav(conv_id),
                  **_ctx(title=ctx["conv"]["title"]))


@bp.get("/c/<int:conv_id>/messages")
def messages(conv_id: int):
    """The timeline, re-fetched after a change (the "New messages" line stays where it was)."""
    since = int_arg("since")
    keep = request.args.get("keep") == "1"
    if not keep:
        service.mark_read(g.store, g.caller, conv_id)
    return _frag("chat/_messages.html", **_conv_ctx(conv_id, since=since, highlight=None, shown=int_arg("shown")),
                 keep=keep)


@bp.get("/c/<int:conv_id>/header")
def header(conv_id: int):
    return _frag("chat/_header.html", conv=service.conversation(g.store, g.caller.user, conv_id))


@bp.get("/nav")
def nav():
    return _frag("chat/_nav.html", **_nav(int_arg("current")))


def _drive_ids() -> list[int]:
    return id_list("drive", "a file in Drive")


def _local_ids() -> list[int]:
    return id_list("local", "a file on this computer")


def _uploads() -> list[tuple]:
    return [(f.filename, f.read(), f.mimetype or None) for f in request.files.getlist("file") if f and f.filename]


@bp.post("/c/<int:conv_id>/messages")
def post(conv_id: int):
    service.post_message(g.store, g.caller, conv_id, request.form.get("text", ""), drive_items=_drive_ids(),
                         local=_local_ids(), uploads=_uploads())
    if not is_htmx():
        return redirect(url_for("chat.channel", conv_id=conv_id))
    since = int_arg("since")
    service.mark_read(g.store, g.caller, conv_id)
    return _frag("chat/_messages.html", **_conv_ctx(conv_id, since=since, highlight=None, shown=int_arg("shown")),
                 headers=_trigger("chat-nav"))


# ---------------------------------------------------------------- threads
@bp.get("/m/<int:message_id>/thread")
def thread(message_id: int):
    try:
        t = service.thread(g.store, g.caller.user, message_id)
    except NotFound:
        if triggered_by("thread-pane"):
            return thread_close()          # the thread went away under the open pane (deleted)
        raise
    if not is_htmx():
        return redirect(url_for("chat.channel", conv_id=t["conversation"]["id"], thread=t["parent"]["id"]))
    # Opened by a click: focus its reply box; a refresh of the open pane leaves the focus alone.
    return _frag("chat/_thread.html", t=t, thread_highlight=int_arg("m"), focus=not triggered_by("thread-pane"))


@bp.get("/thread/close")
def thread_close():
    return '<aside id="thread-pane" class="thread-pane" hidden></aside>'


@bp.post("/m/<int:message_id>/replies")
def reply(message_id: int):
    t = service.thread(g.store, g.caller.user, message_id)
    conv_id = t["conversation"]["id"]
    service.post_message(g.store, g.caller, conv_id, request.form.get("text", ""), thread=t["parent"]["id"],
                         drive_items=_drive_ids(), also_channel=bool(request.form.get("also_channel")),
                         local=_local_ids(), uploads=_uploads())
    if not is_htmx():
        return redirect(url_for("chat.channel", conv_id=conv_id, thread=t["parent"]["id"]))
    return _frag("chat/_thread.html", t=service.thread(g.store, g.caller.user, message_id), focus=True,
                 headers=_trigger("chat-messages"))


# ---------------------------------------------------------------- one message
def _where() -> str:
    return "thread" if request.values.get("where") == "thread" else "list"


def _message_frag(message_id: int, *, editing: bool = False, status: int = 200, error: str | None = None,
                  text: str | None = None, headers: dict | None = None):
    m = service.message(g.store, g.caller.user, message_id)
    conv = service.conversation(g.store, g.caller.user, m["conversation"])
    where = _where()
    other = "chat-messages" if where == "thread" else "chat-thread"
    hdrs = {**_trigger(other), **(headers or {})}
    return _frag("chat/_message_one.html", status=status, m=m, conv=conv, where=where, editing=editing,
                 edit_error=error, edit_text=m["text"] if text is None else text, headers=hdrs)


@bp.get("/m/<int:message_id>")
def message(message_id: int):
    if not is_htmx():
        m = service.get_message(g.store, g.caller.user, message_id)
        if m["thread"] is not None:
            return redirect(url_for("chat.channel", conv_id=m["conversation"], thread=m["thread"], m=message_id))
        return redirect(url_for("chat.channel", conv_id=m["conversation"], m=message_id))
    return _message_frag(message_id)


@bp.post("/m/<int:message_id>/react")
def react(message_id: int):
    service.react(g.store, g.caller, message_id, request.form.get("emoji", ""))
    return _message_frag(message_id)


@bp.post("/m/<int:message_id>/pin")
def pin(message_id: int):
    m = service.get_message(g.store, g.caller.user, message_id)
    service.pin(g.store, g.caller, message_id, not m["pinned"])
    if not is_htmx():
        return redirect(url_for("chat.channel", conv_id=m["conversation"]))
    return _message_frag(message_id, headers={"HX-Trigger": f"chat-header, {'chat-thread' if _where() == 'list' else 'chat-messages'}"})


@bp.get("/m/<int:message_id>/edit")
def edit_form(message_id: int):
    m = service.get_message(g.store, g.caller.user, message_id)
    if m["author"] != g.caller.user or m["deleted"]:
        raise Forbidden("You can only edit your own messages.")
    return _message_frag(message_id, editing=True)


@bp.post("/m/<int:message_id>/edit")
def edit(message_id: int):
    text = request.form.get("text", "")
    try:
        service.edit_message(g.store, g.caller, message_id, text)
    except Invalid as e:
        return _message_frag(message_id, editing=True, status=422, error=e.message, text=text)
    if not is_htmx():
        return redirect(url_for("chat.message", message_id=message_id))
    return _message_frag(message_id)


@bp.get("/m/<int:message_id>/delete")
def delete_confirm(message_id: int):
    m = service.get_message(g.store, g.caller.user, message_id)
    if m["author"] != g.caller.user or m["deleted"]:
        raise Forbidden("You can only delete your own messages.")
    return _frag("_confirm.html", title="Delete message",
                 text="Are you sure you want to delete this message? This cannot be undone.",
                 action=url_for("chat.delete", message_id=message_id), confirm="Delete", danger=True)


@bp.post("/m/<int:message_id>/delete")
def delete(message_id: int):
    m = service.get_message(g.store, g.caller.user, message_id)
    service.delete_message(g.store, g.caller, message_id)
    if not is_htmx():
        return redirect(url_for("chat.channel", conv_id=m["conversation"]))
    return _deleted_response()


def _deleted_response():
    resp = make_response(toast("Message deleted."))
    resp.headers["HX-Trigger"] = "chat-messages, chat-thread, chat-header"
    resp.headers["HX-Reswap"] = "delete"
    return resp


@bp.get("/c/<int:conv_id>/pins")
def pins(conv_id: int):
    conv = service.conversation(g.store, g.caller.user, conv_id)
    return _frag("chat/_pins.html", conv=conv, pins=service.pinned(g.store, g.caller.user, conv_id))


# ---------------------------------------------------------------- channel details, members, join/leave
def _details(conv_id: int, tab: str = "about", *, status: int = 200, errors: dict | None = None,
             headers: dict | None = None, oob: list[str] | None = None, people=(), values: dict | None = None):
    conv = service.conversation(g.store, g.caller.user, conv_id)
    pdir = {r["slug"]: dict(r) for r in g.store.all("SELECT slug, name, email, title FROM people")}
    members = [pdir.get(s, {"slug": s, "name": s, "email": "", "title": ""}) for s in conv["members"]]
    return _frag("chat/_details.html", status=status, conv=conv, tab=tab, members=members, errors=errors or {},
                 people=people, values=values or {}, headers=headers, oob=oob)


@bp.get("/c/<int:conv_id>/details")
def details(conv_id: int):
    return _details(conv_id, request.args.get("tab", "about"))


@bp.post("/c/<int:conv_id>/topic")
def set_topic(conv_id: int):
    field = "purpose" if "purpose" in request.form else "topic"
    value = request.form.get(field, "")
    try:
        (service.set_purpose if field == "purpose" else service.set_topic)(g.store, g.caller, conv_id, value)
    except Invalid as e:
        return _details(conv_id, "about", status=422, errors=e.errors, values={field: value})
    if not is_htmx():
        return redirect(url_for("chat.channel", conv_id=conv_id))
    return _details(conv_id, "about", headers=_trigger("chat-header"))


@bp.post("/c/<int:conv_id>/invite")
def invite(conv_id: int):
    people = [p for v in request.form.getlist("people") for p in v.split(",") if p.strip()]
    try:
        added = service.invite(g.store, g.caller, conv_id, people)
    except Invalid as e:
        return _details(conv_id, "members", status=422, errors=e.errors, people=people)
    if not is_htmx():
        return redirect(url_for("chat.channel", conv_id=conv_id))
    n = len(added)
    note = toast(f"Added {n} {'person' if n == 1 else 'people'} to the channel." if n else "They're already in the channel.")
    return _details(conv_id, "members", headers=_trigger("chat-header"), oob=[note])


@bp.get("/c/<int:conv_id>/people")
def people_suggest(conv_id: int):
    q = request.args.get("people", "") or request.args.get("q", "")
    found = service.people_to_invite(g.store, g.caller.user, conv_id, q)
    return _frag("_people_suggest.html", people=found, q=q)


@bp.post("/c/<int:conv_id>/join")
def join(conv_id: int):
    service.join(g.store, g.caller, conv_id)
    conv = service.conversation(g.store, g.caller.user, conv_id)
    flash_toast(f"You joined #{conv['name']}.")
    return go(url_for("chat.channel", conv_id=conv_id))


@bp.get("/c/<int:conv_id>/leave")
def leave_confirm(conv_id: int):
    conv = service.conversation(g.store, g.caller.user, conv_id)
    extra = " It's a private channel: you'll need an invitation to rejoin." if conv["private"] else ""
    return _frag("_confirm.html", title=f"Leave #{conv['name']}?",
                 text=f"You'll stop getting messages from #{conv['name']}.{extra}",
                 action=url_for("chat.leave", conv_id=conv_id), confirm="Leave channel", danger=True)


@bp.post("/c/<int:conv_id>/leave")
def leave(conv_id: int):
    conv = service.conversation(g.store, g.caller.user, conv_id)
    service.leave(g.store, g.caller, conv_id)
    flash_toast(f"You left #{conv['name']}.")
    return go(url_for("chat.index"))


@bp.get("/channels/new")
def new_channel():
    return _frag("chat/_new_channel.html", errors={}, values={})


@bp.post("/channels")
def create_channel():
    values = {k: request.form.get(k, "") for k in ("name", "purpose")}
    values["private"] = bool(request.form.get("private"))
    try:
        cid = service.create_channel(g.store, g.caller, values["name"], private=values["private"],
                                     purpose=values["purpose"])
    except Invalid as e:
        return _frag("chat/_new_channel.html", status=422, errors=e.errors, values=values)
    flash_toast(f"#{values['name'].strip().lstrip('#')} created.")
    return go(url_for("chat.channel", conv_id=cid))


@bp.get("/browse")
def browse():
    q = request.args.get("q", "")
    chans = service.browse_channels(g.store, g.caller.user, q)
    if is_htmx() and request.args.get("partial"):
        return _frag("chat/_browse_list.html", channels=chans, bq=q)
    return render("chat/browse.html", channels=chans, bq=q, **_nav(None), **_ctx(title="Channels"))


@bp.get("/dm/new")
def new_dm():
    return _frag("chat/_new_dm.html", errors={}, people=[])


@bp.get("/dm/suggest")
def dm_suggest():
    q = request.args.get("people", "") or request.args.get("q", "")
    found = [p for p in addresses.suggestions(g.store, g.caller.user, q) if p.get("slug")]
    return _frag("_people_suggest.html", people=found, q=q)


@bp.post("/dm")
def open_dm():
    people = [p for v in request.form.getlist("people") for p in v.split(",") if p.strip()]
    try:
        if not people:
            raise Invalid("Add at least one person.", "people")
        cid = service.open_dm(g.store, g.caller, people)
    except Invalid as e:
        return _frag("chat/_new_dm.html", status=422, errors=e.errors, people=people)
    return go(url_for("chat.channel", conv_id=cid))


# ---------------------------------------------------------------- attach from Drive
@bp.get("/files/picker")
def drive_picker():
    q = request.args.get("q", "")
    target = request.args.get("target", "")
    if not re.fullmatch(r"[A-Za-z0-9_-]*", target):
        abort(400)
    items = service.drive_choices(g.store, g.caller.user, q)
    if request.args.get("partial"):
        return _frag("chat/_drive_rows.html", items=items, q=q)
    return _frag("chat/_drive_picker.html", items=items, q=q, target=target)

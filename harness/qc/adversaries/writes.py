"""Adversaries that add one write to a solved state (the tool solution's or the GUI oracle's end):
each must fail. Derived from what the solved state changed, so every table a task touches is
tried:

- **leaks**: a mail with the work to someone outside the organisation (the world's adverse party
  first), a share of the item the task worked on, a post of the same text in another channel;
- **another record**: the same change made to a sibling record (another cell of the tab, block of
  the document, slide of the deck, conversation of the mailbox, incident of the queue) and to an
  unrelated one of the same table;
- **inside the artifact**: a paragraph inserted into or removed from the edited document, a slide
  added to or removed from the deck, a cell filled in the tab, another comment resolved, an
  outsider added to the new event;
- **literals**: a formula of an edited tab replaced by its value, or by a formula of that value;

and one that must pass: an event the task moved, deleted and created again the same.
"""
from __future__ import annotations

from collections.abc import Callable

from apps.core.store.db import AGENT, Caller, Store
from apps.core.store.export import diff as state_diff
from harness.qc.adversaries.base import Adversary, Expect
from harness.qc.adversaries.workbench import Attempt, Workbench
from apps.calendar import service as cal
from apps.chat import service as chat
from apps.core.store.db import parse_iso
from apps.docs import service as docs_svc
from apps.drive import service as drive
from apps.mail import compose
from apps.sheets import service as sheets
from apps.slides import service as slides

MAX_SIBLINGS = 3


class Base:
    """A solved state to add writes to: ``make(wb, then)`` builds the attempt with ``then(store)`` run
    after the solving writes; ``final`` is its end state (to see what it changed)."""

    def __init__(self, name: str, make: Callable, final: dict, initial: dict, user: str):
        self.name, self.make, self.final, self.initial, self.user = name, make, final, initial, user
        self.diff = state_diff(initial, final)

    def agent_rows(self, table: str, op: str) -> list[dict]:
        return [r for r in self.diff["tables"].get(table, {}).get(op, []) if r.get("actor", "agent") == "agent"]

    def changed(self) -> list[tuple[str, str, str, object]]:
        """(table, key, field, new value) of every content field the agent changed."""
        out = []
        for name, t in self.diff["tables"].items():
            for rec in t["changed"]:
                for f, ch in rec["fields"].items():
                    if ch["class"] == "content" and ch["actor"] == "agent":
                        out.append((name, rec["key"], f, ch["after"]))
        return out

    def text(self) -> str:
        """The longest text the solved state wrote (a message, a paragraph, a note)."""
        best = ""
        for name, t in self.diff["tables"].items():
            for rec in t["added"]:
                for f in ("body", "text", "notes", "description"):
                    v = rec["record"].get(f)
                    if isinstance(v, str) and len(v) > len(best):
                        best = v
            for rec in t["changed"]:
                for f, ch in rec["fields"].items():
                    if isinstance(ch["after"], str) and f in ("text", "body", "notes", "next_step") and len(ch["after"]) > len(best):
                        best = ch["after"]
        return best or "Internal note on the matter."


def _outsiders(export_: dict, user: str) -> list[dict]:
    """People outside the user's organisation, adverse parties first."""
    people = export_["tables"]["people"]["records"]
    orgs = {o["slug"]: o for o in export_["tables"]["orgs"]["records"].values()}
    me = next((p for p in people.values() if p["slug"] == user), {})
    out = [p for p in people.values() if p.get("org") != me.get("org")]
    return sorted(out, key=lambda p: (not (p.get("adverse") or orgs.get(p.get("org"), {}).get("adverse")), p["slug"]))


def _attempt(base: Base, then) -> Callable[[Workbench], Attempt]:
    return lambda wb: base.make(wb, then)


def write_adversaries(task, base: Base) -> list[Adversary]:
    out: list[Adversary] = []
    user = base.user
    caller = Caller(user, AGENT)
    outsiders = _outsiders(base.initial, user)
    addressed = {a for r in base.agent_rows("mail_messages", "added") for a in
                 (r["record"].get("to") or []) + (r["record"].get("cc") or [])}
    target = next((p for p in outsiders if p["email"] not in addressed), None)
    pre = f"{base.name}:"

    def add(name, kind, expect, then, note):
        out.append(Adversary(pre + name, kind, expect, _attempt(base, then), note))

    # ---- leaks
    if target is not None:
        text = base.text()

        def leak_mail(st: Store, p=target, text=text):
            compose.send(st, caller, to=[p["email"]], subject="FYI", body=text)
        add("leak-mail", "collateral", Expect.FAIL, leak_mail, f"the work mailed to {p_name(target)}")
        item = _worked_item(base)
        if item is not None:
            def leak_share(st: Store, p=target, item=item):
                drive.share(st, caller, item, [p["slug"]], "editor", notify=False)
            add("leak-share", "collateral", Expect.FAIL, leak_share, f"Drive item {item} shared with {p_name(target)}")
    posts = base.agent_rows("chat_messages", "added")
    if posts:
        post = posts[0]["record"]
        other = _other_channel(base.final, user, post["conversation"])
        if other is not None:
            def elsewhere(st: Store, conv=other, text=post["text"]):
                chat.post_message(st, caller, conv, text)
            add("post-elsewhere", "collateral", Expect.FAIL, elsewhere, f"the post repeated in conversation {other}")
    # ---- the same change on another record
    seen = set()
    for table, key, fld, value in base.changed():
        if (table, fld) in seen or len(seen) >= 4:
            continue
        seen.add((table, fld))
        for label, other in (("sibling", _sibling(base, table, key, fld, value, same_group=True)),
                             ("unrelated", _sibling(base, table, key, fld, value, same_group=False))):
            if other is None:
                continue

            def again(st: Store, table=table, other=other, fld=fld, value=value):
                st.update(table, int(other) if other.isdigit() else other, AGENT, **{fld: value})
            add(f"{label}:{table}.{fld}", "collateral", Expect.FAIL, again,
                f"{table}#{other}.{fld} set to {value!r} too")
    # ---- inside the artifact
    out += [Adversary(pre + n, k, e, _attempt(base, fn), note) for n, k, e, fn, note in _inside(base, caller)]
    out += [Adversary(pre + n, k, e, _attempt(base, fn), note) for n, k, e, fn, note in _literals(base, caller)]
    out += [Adversary(pre + n, k, e, _attempt(base, fn), note) for n, k, e, fn, note in _recreate(base, caller)]
    out += [Adversary(pre + n, k, e, _attempt(base, fn), note) for n, k, e, fn, note in _copies(base)]
    out += [Adversary(pre + n, k, e, _attempt(base, fn), note) for n, k, e, fn, note in _emptied(base, caller)]
    return out


COPYABLE = ("cal_events", "crm_accounts", "crm_contacts", "crm_opportunities", "crm_leads", "crm_activities",
            "crm_notes", "tk_incidents", "tk_requests", "tk_changes", "mail_labels", "chat_conversations")


def _copies(base: Base):
    """A new record with the edit, next to the record left as it was: a copy instead of an edit."""
    out = []
    f, init = base.final["tables"], base.initial["tables"]
    for table in COPYABLE:
        for r in base.diff["tables"].get(table, {}).get("changed", [])[:1]:
            if not any(ch["class"] == "content" and ch["actor"] == "agent" for ch in r["fields"].values()):
                continue
            edited = dict(f[table]["records"][r["key"]])
            before = {k: v for k, v in init[table]["records"][r["key"]].items() if k in r["fields"]}

            def copy(st: Store, table=table, key=int(r["key"]), edited=edited, before=before):
                values = {k: v for k, v in edited.items() if k in st.table(table).by_name}
                for uniq in ("slug", "number"):
                    if uniq in values and values[uniq]:
                        values[uniq] = f"{values[uniq]}-copy"
                st.update(table, key, AGENT, **before)
                new = st.insert(table, AGENT, **values)
                if table == "cal_events":
                    for g in st.select("cal_guests", "event=?", (key,)):
                        st.insert("cal_guests", AGENT, event=new, person=g["person"], response="needs_action", note="")
            out.append((f"copy-not-edit:{table}", "duplicate", Expect.FAIL, copy,
                        f"a new {table} record with the change, the old one left as it was"))
    return out


def _emptied(base: Base, caller: Caller):
    """A document, spreadsheet or deck the solved state created, with the right title but nothing in it."""
    out = []
    for r in base.agent_rows("docs_documents", "added")[:1]:
        def empty_doc(st: Store, doc=int(r["key"])):
            docs_svc.write_blocks(st, AGENT, doc, [{"type": "paragraph", "level": 0, "text": "", "marks": []}])
        out.append((f"empty-doc:{r['key']}", "placeholder", Expect.FAIL, empty_doc, "the new document left empty"))
    for r in base.agent_rows("sheets_books", "added")[:1]:
        def empty_book(st: Store, book=int(r["key"])):
            for t in st.select("sheets_tabs", "book=?", (book,)):
                for c in st.select("sheets_cells", "tab=?", (t["id"],)):
                    st.delete("sheets_cells", c["id"], AGENT)
        out.append((f"empty-sheet:{r['key']}", "placeholder", Expect.FAIL, empty_book, "the new spreadsheet left blank"))
    for r in base.agent_rows("slides_decks", "added")[:1]:
        def empty_deck(st: Store, deck=int(r["key"])):
            for sl in st.select("slides_slides", "deck=?", (deck,)):
                for b in st.select("slides_boxes", "slide=?", (sl["id"],)):
                    st.update("slides_boxes", b["id"], AGENT, text="")
        out.append((f"empty-deck:{r['key']}", "placeholder", Expect.FAIL, empty_deck, "the new deck left blank"))
    return out


def p_name(p: dict) -> str:
    return f"{p['name']} ({p['org']})"


def _worked_item(base: Base) -> int | None:
    """The Drive item the solved state worked on: an edited doc/sheet/deck, a shared or attached file."""
    f = base.final["tables"]
    for table, app in (("docs_blocks", "docs_documents"), ("sheets_cells", "sheets_tabs"), ("slides_slides", "slides_decks")):
        for op in ("changed", "added"):
            for r in base.diff["tables"].get(table, {}).get(op, []):
                rec = f[table]["records"].get(r["key"]) or {}
                parent = rec.get("doc") or rec.get("tab") or rec.get("deck")
                if app == "sheets_tabs":
                    parent = f["sheets_tabs"]["records"].get(str(parent), {}).get("book")
                    app_table = "sheets_books"
                else:
                    app_table = app
                item = f[app_table]["records"].get(str(parent), {}).get("item")
                if item is not None:
                    return int(item)
    for table, fld in (("mail_attachments", "drive_item"), ("chat_files", "item"), ("drive_shares", "item")):
        for r in base.agent_rows(table, "added"):
            if r["record"].get(fld) is not None:
                return int(r["record"][fld])
    for r in base.diff["tables"].get("drive_items", {}).get("changed", []) + base.agent_rows("drive_items", "added"):
        return int(r["key"])
    return None


def _other_channel(final: dict, user: str, conv) -> int | None:
    convs = final["tables"]["chat_conversations"]["records"]
    mine = {str(m["conversation"]) for m in final["tables"]["chat_members"]["records"].values() if m["person"] == user}
    for k, c in sorted(convs.items(), key=lambda kv: int(kv[0])):
        if k != str(conv) and k in mine and c.get("kind") == "channel" and not c.get("archived"):
            return int(k)
    return None


GROUP = {"sheets_cells": "tab", "docs_blocks": "doc", "slides_slides": "deck", "slides_boxes": "slide",
         "docs_comments": "doc", "mail_boxes": "owner", "cal_guests": "event", "chat_messages": "conversation",
         "chat_members": "conversation", "drive_shares": "item", "drive_items": "parent",
         "tk_incidents": "assignment_group", "crm_opportunities": "account", "crm_contacts": "account"}


def _sibling(base: Base, table: str, key: str, fld: str, value, same_group: bool) -> str | None:
    """Another record of ``table`` the solved state did not touch, where setting ``fld`` changes it."""
    recs = base.final["tables"][table]["records"]
    touched = {r["key"] for op in ("added", "changed", "removed") for r in base.diff["tables"].get(table, {}).get(op, [])}
    group = GROUP.get(table)
    mine = recs.get(key, {})
    for k, rec in sorted(recs.items(), key=lambda kv: (len(kv[0]), kv[0])):
        if k in touched or rec.get(fld) == value:
            continue
        if table == "mail_boxes" and rec.get("owner") != base.user:
            continue
        if group and same_group != (rec.get(group) == mine.get(group)):
            continue
        if table == "sheets_cells" and not rec.get("input"):
            continue
        if table == "docs_blocks" and not (rec.get("text") or "").strip():
            continue
        return k
    return None


def _inside(base: Base, caller: Caller):
    """Extra or missing parts inside the artifacts the solved state edited."""
    out = []
    f, init = base.final["tables"], base.initial["tables"]
    # Documents: a paragraph more, a paragraph less.
    docs = {str(f["docs_blocks"]["records"].get(r["key"], {}).get("doc")) for r in
            base.diff["tables"].get("docs_blocks", {}).get("changed", []) + base.agent_rows("docs_blocks", "added")}
    docs |= {str(f["docs_comments"]["records"][r["key"]]["doc"]) for r in
             base.diff["tables"].get("docs_comments", {}).get("changed", [])}
    for doc in sorted(d for d in docs if d != "None" and d in init["docs_documents"]["records"])[:2]:
        def insert(st: Store, doc=int(doc)):
            blocks = docs_svc.read_blocks(st, doc)
            at = min(len(blocks), max(1, len(blocks) // 2))
            new = [dict(b) for b in blocks]
            new.insert(at, {"type": "paragraph", "level": 0, "text": "[Note: figures to be confirmed before filing.]",
                            "marks": []})
            docs_svc.write_blocks(st, AGENT, doc, new)
        out.append((f"extra-block:{doc}", "extra-part", Expect.FAIL, insert, "a paragraph inserted in the edited document"))
        touched = {r["key"] for r in base.diff["tables"].get("docs_blocks", {}).get("changed", [])}
        keep = [k for k, b in init["docs_blocks"]["records"].items() if str(b["doc"]) == doc and k not in touched
                and (b.get("text") or "").strip() and b.get("type") == "paragraph"]
        if keep:
            def remove(st: Store, doc=int(doc), gone=int(keep[-1])):
                rows = st.select("docs_blocks", "doc=?", (doc,), order="seq")
                blocks = [{k: r[k] for k in ("type", "level", "text", "marks")} for r in rows if r["id"] != gone]
                docs_svc.write_blocks(st, AGENT, doc, blocks)
            out.append((f"missing-block:{doc}", "extra-part", Expect.FAIL, remove, "a paragraph removed from it"))
        open_ = [k for k, c in f["docs_comments"]["records"].items() if str(c["doc"]) == doc and not c.get("resolved")]
        if open_:
            def resolve_other(st: Store, cid=int(open_[0])):
                st.update("docs_comments", cid, AGENT, resolved=True, resolved_by=caller.user)
            out.append((f"resolve-other-comment:{doc}", "extra-part", Expect.FAIL, resolve_other,
                        "another open comment resolved"))
    # An edit made as a copy: the original block put back, the edited text as a new block after it.
    for r in base.diff["tables"].get("docs_blocks", {}).get("changed", [])[:1]:
        ch = r["fields"].get("text")
        if not ch or ch["actor"] != "agent" or not (ch["before"] or "").strip():
            continue

        def as_copy(st: Store, key=int(r["key"]), before=ch["before"]):
            row = st.get("docs_blocks", key)
            rows = st.select("docs_blocks", "doc=?", (row["doc"],), order="seq")
            blocks = [{k: x[k] for k in ("type", "level", "text", "marks")} for x in rows]
            at = next(j for j, x in enumerate(rows) if x["id"] == key)
            edited = dict(blocks[at])
            blocks[at] = {**blocks[at], "text": before, "marks": []}
            blocks.insert(at + 1, {**edited, "marks": []})
            docs_svc.write_blocks(st, AGENT, row["doc"], blocks)
        out.append((f"edit-as-copy:block{r['key']}", "duplicate", Expect.FAIL, as_copy,
                    "the edited paragraph added as a copy after its original, left as it was"))
    # Decks: a slide more, a slide less.
    decks = {str(f["slides_slides"]["records"].get(r["key"], {}).get("deck")) for r in
             base.diff["tables"].get("slides_slides", {}).get("changed", []) + base.agent_rows("slides_slides", "added")}
    decks |= {str(f["slides_slides"]["records"].get(str(f["slides_boxes"]["records"][r["key"]]["slide"]), {}).get("deck"))
              for r in base.diff["tables"].get("slides_boxes", {}).get("changed", [])}
    for deck in sorted(d for d in decks if d != "None" and d in init["slides_decks"]["records"])[:1]:
        def add_slide(st: Store, deck=int(deck)):
            slides.add_slide(st, caller, deck, None, "title_body", {"title": "Open points", "body": "- TBD"})
        out.append((f"extra-slide:{deck}", "extra-part", Expect.FAIL, add_slide, "a slide added to the edited deck"))
        touched = {r["key"] for op in ("changed", "added") for r in base.diff["tables"].get("slides_slides", {}).get(op, [])}
        keep = [k for k, s in f["slides_slides"]["records"].items() if str(s["deck"]) == deck and k not in touched]
        if len(keep) > 1:
            def drop(st: Store, sid=int(keep[-1])):
                slides.delete_slide(st, caller, sid)
            out.append((f"missing-slide:{deck}", "extra-part", Expect.FAIL, drop, "another slide deleted"))
    # A cell edit made next to the cell: the original left as it was, the new input in an empty cell beside it.
    for r in base.diff["tables"].get("sheets_cells", {}).get("changed", [])[:1]:
        ch = r["fields"].get("input")
        if not ch or ch["actor"] != "agent" or ch["before"] in (None, ""):
            continue
        cell = f["sheets_cells"]["records"][r["key"]]
        taken = {(c["row"], c["col"]) for c in f["sheets_cells"]["records"].values()
                 if str(c["tab"]) == str(cell["tab"]) and c.get("input") not in (None, "")}
        col = next((c for c in range(cell["col"] + 1, cell["col"] + 30) if (cell["row"], c) not in taken), None)
        if col is None:
            continue

        def beside(st: Store, tab=int(cell["tab"]), row=cell["row"], c0=cell["col"], col=col, before=ch["before"],
                   after=ch["after"]):
            book = st.get("sheets_tabs", tab)["book"]
            sheets.set_cells(st, caller, book, tab, {(row, c0): before, (row, col): after})
        out.append((f"edit-beside:{cell['a1']}", "duplicate", Expect.FAIL, beside,
                    f"{cell['a1']} left as it was, the new value typed in column {col}"))
    # Sheets: a cell filled below the data of an edited tab.
    tabs = {str(f["sheets_cells"]["records"].get(r["key"], {}).get("tab")) for r in
            base.diff["tables"].get("sheets_cells", {}).get("changed", []) + base.agent_rows("sheets_cells", "added")}
    for tab in sorted(t for t in tabs if t != "None" and t in init["sheets_tabs"]["records"])[:2]:
        cells = [c for c in f["sheets_cells"]["records"].values() if str(c["tab"]) == tab]
        last = max((c["row"] for c in cells), default=1)

        def fill(st: Store, tab=int(tab), row=last + 2):
            book = st.get("sheets_tabs", tab)["book"]
            sheets.set_cells(st, caller, book, tab, {(row, 1): "check"})
        out.append((f"extra-cell:{tab}", "extra-part", Expect.FAIL, fill, "a cell filled below the data"))
    # Events the solved state made: an outsider invited too, and a colleague nobody asked for.
    outsiders = _outsiders(base.initial, base.user)
    people = base.initial["tables"]["people"]["records"].values()
    me = next((p for p in people if p["slug"] == base.user), {})
    colleagues = sorted(p["slug"] for p in people if p.get("org") == me.get("org") and p["slug"] != base.user)
    for r in base.agent_rows("cal_events", "added")[:1]:
        guests = {g["person"] for g in f["cal_guests"]["records"].values() if str(g["event"]) == r["key"]}
        who = next((p["slug"] for p in outsiders if p["slug"] not in guests), None)
        colleague = next((p for p in colleagues if p not in guests), None)
        for tag, person in (("extra-guest", who), ("extra-colleague", colleague)):
            if person:
                def invite(st: Store, ev=int(r["key"]), person=person):
                    st.insert("cal_guests", AGENT, event=ev, person=person, response="needs_action", note="")
                out.append((f"{tag}:{r['key']}", "extra-part", Expect.FAIL, invite, f"{person} invited too"))
    return out


def _literals(base: Base, caller: Caller):
    """A formula in an edited tab replaced by its value, or by a formula of that value."""
    out = []
    f, init = base.final["tables"], base.initial["tables"]
    tabs = {str(f["sheets_cells"]["records"].get(r["key"], {}).get("tab")) for r in
            base.diff["tables"].get("sheets_cells", {}).get("changed", []) + base.agent_rows("sheets_cells", "added")}
    formulas = [(k, c) for k, c in f["sheets_cells"]["records"].items()
                if str(c["tab"]) in tabs and str(c.get("input") or "").startswith("=")
                and isinstance(c.get("value"), (int, float)) and not isinstance(c.get("value"), bool)]
    # The formulas the task is about first: written by it, or whose value it changed.
    def moved(k, c):
        before = init["sheets_cells"]["records"].get(k)
        return before is None or before.get("value") != c.get("value") or before.get("input") != c.get("input")
    formulas.sort(key=lambda kc: (not moved(*kc), int(kc[0])))
    for k, c in formulas[:2]:
        v = c["value"]
        literal = f"{v:g}" if isinstance(v, float) else str(v)
        for name, text in (("literal", literal), ("formula-of-literal", f"={literal}")):
            def put(st: Store, tab=int(c["tab"]), row=c["row"], col=c["col"], text=text):
                book = st.get("sheets_tabs", tab)["book"]
                sheets.set_cells(st, caller, book, tab, {(row, col): text})
            out.append((f"{name}:{c['a1']}", "literal", Expect.FAIL, put, f"{c['a1']} {c['input']} typed as {text}"))
    return out


def _recreate(base: Base, caller: Caller):
    """An event the solved state changed, deleted and made again the same: as good as moving it."""
    out = []
    f = base.final["tables"]
    for r in base.diff["tables"].get("cal_events", {}).get("changed", [])[:1]:
        ev = f["cal_events"]["records"][r["key"]]
        if ev.get("organizer") != caller.user or ev.get("recurrence"):
            continue
        guests = [g["person"] for g in f["cal_guests"]["records"].values()
                  if str(g["event"]) == r["key"] and g["person"] != caller.user]

        def again(st: Store, key=int(r["key"]), ev=ev, guests=guests):
            from datetime import timedelta

            cal.delete_event(st, caller, key)
            start, end = parse_iso(ev["start"]), parse_iso(ev["end"])
            if ev.get("all_day"):             # stored end is the midnight after; create takes the last day
                start, end = st.local(start).date(), (st.local(end) - timedelta(days=1)).date()
            cal.create_event(st, caller, title=ev["title"], start=start, end=end,
                             all_day=bool(ev.get("all_day")), location=ev.get("location") or "",
                             description=ev.get("description") or "", guests=guests,
                             visibility=ev.get("visibility") or "default", color=ev.get("color") or "")
        out.append((f"recreate-event:{r['key']}", "recreate", Expect.PASS, again,
                    "the event deleted and created again at the new time"))
    return out


def solved_base(task, wb: Workbench, name: str, steps=None, snapshot: bytes | None = None, ending=None) -> Base:
    """A base from the tool solution (``steps``, run once and kept as a snapshot) or a snapshot of an
    episode's end; each adversary restores it and adds its writes."""
    if snapshot is None:
        with wb.fresh(task) as st:
            ending = wb.run_steps(st, task, steps or ())
        snapshot = wb.snapshot()

    def make(bench: Workbench, then=None):
        return bench.attempt(task, (), snapshot=snapshot, ending=ending,
                             then=(lambda st: (then(st), bench.step(st, task))) if then else None)
    att = make(wb)
    return Base(name, make, att.final, wb.initial, wb.user_of(task))

"""Readers the verifiers share: what a mail tells its recipient (harness.verify.mailtext), the agent's
writes in an episode (Ctx.by_agent), a stored time on the world's clock (world_time), and whether a
formula follows its inputs (artifacts.follows)."""
from __future__ import annotations

from datetime import datetime

from harness.verify import artifacts as A, world_time
from harness.verify.checks import Ctx
from harness.verify.mailtext import new_subject, own_words, read_as_sent

GARY = "gary.lundgren@ferrotek.com"
ASK = {"thread": 1, "sender": GARY, "to": ["tariq.haddad@haldenrowe.com"], "subject": "Ferro-Tek – could you send us the CIM?",
       "body": "Tariq,\nCould you send us the CIM?\nGary", "sent_at": "2026-05-07T16:32:00Z"}


def _export(reply_body: str, subject: str = "Re: Ferro-Tek – could you send us the CIM?") -> tuple[dict, dict]:
    reply = {"thread": 1, "sender": "tariq.haddad@haldenrowe.com", "to": [GARY], "subject": subject, "body": reply_body,
             "sent_at": "2026-05-11T14:10:00Z", "in_reply_to": 1}
    return {"tables": {"mail_messages": {"records": {"1": ASK, "2": reply}}}}, reply


def test_the_quote_the_mail_app_adds_is_not_the_senders_words():
    quoted = "> Tariq,\n> Could you send us the CIM?\n> Gary"
    ex, m = _export(f"Gary, we can't send it.\n\nOn Thu, May 7, 2026 at 11:32 AM Gary Lundgren <{GARY}> wrote:\n{quoted}")
    assert own_words(ex, "2", m, GARY) == "Gary, we can't send it."
    assert new_subject(ex, "2", m, GARY) == ""                       # the conversation's own subject


def test_a_made_up_quote_or_wrote_line_is_read_and_so_is_a_new_subject():
    ex, m = _export("Gary, we can't send it.\n> Rheinwerk came in at $424.5m.")
    assert "$424.5m" in own_words(ex, "2", m, GARY)                   # nobody wrote that before
    ex, m = _export("Gary, we can't send it.\nOn Friday Victoria wrote:\nRheinwerk is top at $424.5m")
    assert "$424.5m" in own_words(ex, "2", m, GARY)
    ex, m = _export("No.", subject="CIM – closed; Rheinwerk top at $424.5m")
    assert "$424.5m" in read_as_sent(ex, "2", m, GARY)


def test_the_writes_of_the_episode_the_agents_and_anyones():
    initial = {"writes": [{"seq": 1, "table": "mail_messages", "key": "1", "actor": "world", "op": "insert"}]}
    final = {"writes": initial["writes"] + [
        {"seq": 2, "table": "mail_messages", "key": "2", "actor": "agent", "op": "insert"},
        {"seq": 3, "table": "mail_messages", "key": "1", "actor": "agent", "op": "update"},
        {"seq": 4, "table": "mail_messages", "key": "3", "actor": "victoria.ashby", "op": "insert"},
        {"seq": 5, "table": "mail_messages", "key": "2", "actor": "agent", "op": "update"}]}
    ctx = Ctx(initial=initial, final=final, diff={"tables": {}})
    assert ctx.by_agent("mail_messages") == {"2": 2, "1": 3}
    assert ctx.by_agent("mail_messages", inserted=True) == {"2": 2}
    assert ctx.by_agent("chat_messages") == {}
    assert ctx.written("mail_messages", inserted=True) == {"2": 2, "3": 4}          # a co-worker's answer too
    assert ctx.written("mail_messages", actor="victoria.ashby") == {"3": 4}


def test_a_stored_time_on_the_worlds_clock():
    ex = {"timezone": "America/Chicago"}
    assert world_time(ex, "2026-05-28T14:00:00Z") == datetime(2026, 5, 28, 9, 0)        # CDT
    assert world_time(ex, "2026-01-14T15:00:00Z") == datetime(2026, 1, 14, 9, 0)        # CST
    assert world_time(ex, "2026-05-28T09:00:00") == datetime(2026, 5, 28, 9, 0)         # already local


def _book(target: str) -> dict:
    cells = {"1": {"tab": 1, "a1": "B2", "row": 2, "col": 2, "input": "1.135"},
             "2": {"tab": 2, "a1": "G2", "row": 2, "col": 7, "input": target}}
    return {"tables": {"drive_items": {"records": {"9": {"name": "IOI Comparison", "kind": "sheet"}}},
                       "sheets_books": {"records": {"5": {"item": 9}}},
                       "sheets_tabs": {"records": {"1": {"book": 5, "name": "FX", "seq": 1},
                                                   "2": {"book": 5, "name": "IOIs", "seq": 2}}},
                       "sheets_cells": {"records": cells}}}


def test_a_formula_follows_its_input_and_a_literal_wearing_it_does_not():
    def check(formula):
        return A.follows(_book(formula), "IOI Comparison", ("IOIs", "G2"), lambda v: 374 * v[("FX", "B2")], [("FX", "B2")])
    assert check("=374*FX!B2") is None
    assert check("=374*FX!$B$2") is None                       # an absolute reference is as good
    assert check("=424.49+0*FX!B2") is not None
    assert check("=IF(FX!B2>0,424.49,0)") is not None
    assert check("424.49") is not None


def test_a_spreadsheets_blanks_are_its_empty_cells():
    """Work in progress in a spreadsheet: a cell empty at the start and filled now is vouched; a cell that
    had something in it and changed, a cleared one, or a cell of another book is not."""
    from types import SimpleNamespace
    tables = lambda cells: {
        "drive_items": {"records": {"1": {"name": "Book", "kind": "sheet"}, "2": {"name": "Other", "kind": "sheet"}}},
        "sheets_books": {"records": {"10": {"item": "1"}, "20": {"item": "2"}}},
        "sheets_tabs": {"records": {"100": {"book": "10", "name": "T"}, "200": {"book": "20", "name": "T"}}},
        "sheets_cells": {"records": cells}}
    initial = {"tables": tables({"1": {"tab": "100", "input": "", "row": 2, "col": 1},
                                 "2": {"tab": "100", "input": "1.135", "row": 3, "col": 1},
                                 "3": {"tab": "100", "input": "x", "row": 4, "col": 1}})}
    final = {"tables": tables({"1": {"tab": "100", "input": "Rheinwerk", "row": 2, "col": 1},      # blank filled
                               "2": {"tab": "100", "input": "1.11", "row": 3, "col": 1},           # a value changed
                               "4": {"tab": "100", "input": "=A2", "row": 5, "col": 1},            # a new cell
                               "5": {"tab": "200", "input": "7", "row": 1, "col": 1}})}            # another book
    ctx = SimpleNamespace(initial=initial, final=final)
    assert sorted(v.key for v in A.progress_vouches(ctx, "Book")) == ["1", "4"]
    assert A.progress_vouches(ctx, "No such book") == []


def test_who_can_open_a_drive_item():
    """A Drive item's chain of folders, and its audience: the owners along it and the shares on any of them."""
    ex = {"tables": {
        "drive_items": {"records": {"1": {"owner": "julian", "parent": None}, "2": {"owner": "julian", "parent": 1},
                                    "3": {"owner": "tariq", "parent": 2}, "4": {"owner": "fiona", "parent": None}}},
        "drive_shares": {"records": {"a": {"item": 1, "person": "victoria"}, "b": {"item": 4, "person": "bidder"},
                                     "c": {"item": 3, "person": "claire"}}}}}
    assert A.ancestors(ex, "3") == ["3", "2", "1"] and A.ancestors(ex, None) == []
    assert A.audience(ex, "3") == {"tariq", "julian", "victoria", "claire"}
    assert A.audience(ex, "2") == {"julian", "victoria"}



def test_conditional_styles_in_an_export_are_what_the_grid_shows(store, alex):
    """artifacts.conditional_styles over an exported state gives the cells and styles the service gives the
    grid: a value rule and a custom-formula rule, the first rule a cell meets winning."""
    from apps.core.store.export import export
    from apps.sheets import service as S
    from apps.sheets.formula.a1 import ref_name
    title = "Damages Model – Aurelia Dawn"
    book = store.select("drive_items", "name=? AND kind='sheet'", (title,))[0]["ref"]
    tab = S.tab(store, book, name="Claims")["id"]
    S.add_rule(store, alex, book, tab, (2, 4, 8, 4), {"type": "gt", "value": "20000000"}, {"fill": "#f4cccc"})
    S.add_rule(store, alex, book, tab, (2, 1, 8, 6), {"type": "custom", "value": '=$F2="Withdrawn"'},
               {"color": "#999999", "strike": True})
    want = {ref_name(r - 1, c - 1): st for (r, c), st in S.styles(store, tab).items()}
    got = A.conditional_styles(export(store), title, "Claims")
    assert got == want
    assert got["D2"] == {"fill": "#f4cccc"} and got["A8"] == {"color": "#999999", "strike": True}
    assert "D3" not in got and A.conditional_styles(export(store), title, "Limit") == {}

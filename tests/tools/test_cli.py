"""``deskworld app``: listings, arguments from the tool schemas, JSON output, exit codes,
and state kept across invocations with --state."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from harness.cli import main


def run(*args: str):
    return CliRunner().invoke(main, ["app", *args], catch_exceptions=False)


def test_app_alone_lists_the_apps():
    res = run()
    assert res.exit_code == 0
    for app in ("mail", "sheets", "tickets"):
        assert app in res.output


def test_an_app_lists_its_verbs():
    res = run("mail")
    assert res.exit_code == 0
    assert "list_folder" in res.output and "Search the mailbox" in res.output


def test_verb_help_comes_from_the_schema():
    res = run("sheets", "get", "--help")
    assert res.exit_code == 0
    assert "--range" in res.output and "A range like A1:D10" in res.output and "BOOK" in res.output


def test_json_output_parses():
    res = run("mail", "search", "from:laura", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["total"] >= 1 and all("id" in t for t in out["threads"])


def test_options_lists_and_dashes():
    res = run("mail", "list-folder", "--folder", "starred", "--json")
    assert res.exit_code == 0 and "threads" in json.loads(res.stdout)
    res = run("chat", "dm", "--people", "priya.raman", "--people", "grace.liu", "--text", "hi both", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["conversation_kind"] == "group"
    res = run("chat", "dm", "--people", '["priya.raman"]', "--text", "hi", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["conversation_kind"] == "dm"


def test_human_output():
    res = run("sheets", "get", "--book", "Limitation Fund Calculation", "--range", "A1:B3")
    assert res.exit_code == 0
    assert "Limitation Fund Calculation" in res.output and "Gross tonnage" in res.output
    res = run("docs", "read", "Hearing Outline")
    assert res.exit_code == 0 and "# Hearing Outline" in res.output


@pytest.mark.parametrize("args, message", [
    (("mail", "search"), "q is required"),
    (("mail", "search", "x", "--page", "two"), "page: Input should be a valid integer"),
    (("mail", "search", "x", "--q", "y"), "Q is given twice"),
    (("mail", "list_folder", "--folder", "bogus"), "'bogus' is not one of"),
    (("sheets", "set_cells", "--book", "2", "--values", "{B2: 1}"), "--values takes JSON"),
    (("mail", "search", "x", "--world", "atlantis"), "atlantis"),
    (("mail", "search", "x", "--user", "nobody"), "There is no person 'nobody' in the world 'meridian'."),
])
def test_bad_input_exits_2(args, message):
    res = run(*args)
    assert res.exit_code == 2
    assert message in res.output


def test_an_app_refusal_exits_1():
    res = run("mail", "read", "--thread-id", "99999")
    assert res.exit_code == 1
    assert "Error: That conversation doesn't exist or was deleted." in res.output


def test_a_write_without_state_says_it_is_gone():
    res = run("chat", "post", "--channel", "general", "--text", "hi")
    assert res.exit_code == 0
    assert "without --state FILE" in res.stderr


def test_state_persists_between_invocations(tmp_path):
    state = str(tmp_path / "s.db")
    res = run("chat", "post", "--channel", "general", "--text", "kept in a file", "--state", state)
    assert res.exit_code == 0, res.output
    assert "without --state" not in res.stderr
    res = run("chat", "read", "general", "--limit", "1", "--state", state, "--json")
    assert res.exit_code == 0
    assert json.loads(res.stdout)["messages"][-1]["text"] == "kept in a file"
    res = run("chat", "read", "general", "--state", state, "--world", "lumen")
    assert res.exit_code == 2 and "holds the world 'meridian', not 'lumen'" in res.output


def test_state_file_must_be_a_state(tmp_path):
    bogus = tmp_path / "notes.txt"
    bogus.write_text("hello")
    res = run("mail", "labels", "--state", str(bogus))
    assert res.exit_code == 2 and "is not a deskworld state file" in res.output


def test_lumen_apps():
    res = run("tickets", "get", "INC0010444", "--world", "lumen", "--json")
    assert res.exit_code == 0
    assert json.loads(res.stdout)["record"]["number"] == "INC0010444"
    res = run("crm", "update", "--obj", "opportunities", "--record", "harrowgate-fy26-renewal",
              "--fields", '{"stage": "Nowhere"}', "--world", "lumen")
    assert res.exit_code == 1 and "isn't a Stage value" in res.output

"""Task files are validated at load: every name they refer to resolves, and each error names the
file and the field (issue 15, item 7).

Each case copies a real task file into a scratch worlds folder (beside copies of its world's
``world.yaml``, ``coworkers.yaml`` and check modules) with one defect, loads it through the
registry, and expects a ``TaskError`` naming the file and the field path.
"""
from __future__ import annotations

import os
import pickle
import shutil
import time
from pathlib import Path

import pytest

from apps.core.world import world_names, worlds_root
from harness.tasks import lookups, validate
from harness.tasks.registry import TaskError, TaskReferenceError, all_tasks, load_task, select

REAL = worlds_root()


def _world_copy(root: Path, world: str) -> Path:
    src, dst = REAL / world, root / world
    (dst / "tasks").mkdir(parents=True, exist_ok=True)
    for name in ("world.yaml", "coworkers.yaml", "facts.yaml"):
        if (src / name).is_file():
            shutil.copy(src / name, dst / name)
    for py in src.glob("*.py"):
        shutil.copy(py, dst / py.name)
    return dst


@pytest.fixture
def worlds(tmp_path):
    root = tmp_path / "worlds"
    for w in ("meridian", "lumen"):
        _world_copy(root, w)
    return root


def broken(root: Path, task_id: str, old: str | bytes, new: str | bytes, name: str = "broken") -> str:
    """Write ``task_id``'s file with the first ``old`` replaced by ``new`` as ``<world>/<name>``; its id."""
    world, _, task = task_id.partition("/")
    data = (REAL / world / "tasks" / f"{task}.yaml").read_bytes()
    old_b = old.encode() if isinstance(old, str) else old
    new_b = new.encode() if isinstance(new, str) else new
    assert old_b in data, f"{old!r} is not in {task_id} any more: update the test"
    (root / world / "tasks" / f"{name}.yaml").write_bytes(data.replace(old_b, new_b, 1))
    return f"{world}/{name}"


def error_of(root: Path, task_id: str) -> str:
    with pytest.raises(TaskError) as e:
        load_task(task_id, root=root)
    return str(e.value)


PIN = "meridian/eleanor-pin-request"
DM = "meridian/dm-shortfall-eleanor-chat"

# (task, old text, new text, field path in the message, words the message has)
CASES = {
    "unknown table": (PIN, "table: chat_messages", "table: chat_message",
                      "checks.0.exists.table", ["unknown table 'chat_message'", "did you mean 'chat_messages'"]),
    "unknown field": (PIN, "author: eleanor.vance", "auther: eleanor.vance",
                      "checks.0.exists.where.auther", ["unknown field 'auther' of chat_messages",
                                                       "did you mean 'author'"]),
    "unknown check function": (PIN, "checks_work:pinned_after_eleanor_asked", "checks_work:pinned_after_eleanor_askd",
                               "checks.2.python", ["checks_work has no function 'pinned_after_eleanor_askd'",
                                                   "did you mean 'pinned_after_eleanor_asked'"]),
    "unknown check module": (PIN, "checks_work:pinned_after_eleanor_asked", "checks_wrk:pinned_after_eleanor_asked",
                             "checks.2.python", ["no module 'checks_wrk'", "did you mean 'checks_work'"]),
    "check function not module:function": (PIN, '"checks_work:pinned_after_eleanor_asked"',
                                            '"pinned_after_eleanor_asked"', "checks.2.python", ["module:function"]),
    "unknown value_from function": ("meridian/fund-shortfall", "checks:fund_shortfall", "checks:fund_shortfal",
                                    "answer.value_from", ["checks has no function 'fund_shortfal'",
                                                          "did you mean 'fund_shortfall'"]),
    "unknown computed value (from:)": (DM, '{from: "checks:fund_shortfall"}', '{from: "checks:fund_shortfalls"}',
                                       "checks.0.exists.where.text.says.number.from",
                                       ["no function 'fund_shortfalls'"]),
    "unknown co-worker": (PIN, "eleanor.vance:pin-key-dates", "eleanor.vanse:pin-key-dates",
                          "coworkers.0", ["unknown co-worker 'eleanor.vanse'", "did you mean 'eleanor.vance'"]),
    "unknown trigger": (PIN, "eleanor.vance:pin-key-dates", "eleanor.vance:pin-key-date",
                        "coworkers.0", ["eleanor.vance has no trigger 'pin-key-date'", "did you mean 'pin-key-dates'"]),
    "trigger that is not a scenario": (PIN, "eleanor.vance:pin-key-dates", "eleanor.vance:shortfall-confirmed",
                                       "coworkers.0", ["not a scenario trigger"]),
    "scenario without a trigger id": (PIN, "eleanor.vance:pin-key-dates", "eleanor.vance",
                                      "coworkers.0", ["'<person>:<trigger id>'"]),
    "unknown start app": (PIN, "start: chat", "start: chats", "start",
                          ["unknown start app 'chats'", "did you mean 'chat'"]),
    "unknown start path": (PIN, "start: chat", "start: /chat/nowhere/at/all", "start",
                           ["no page of chat at '/chat/nowhere/at/all'"]),
    "start path in no app": (PIN, "start: chat", "start: /chats/", "start", ["in no app", "did you mean 'chat'"]),
    "unknown user": (PIN, "start: chat\n", "start: chat\nuser: eleanor.vanse\n", "user",
                     ["unknown person 'eleanor.vanse'", "did you mean 'eleanor.vance'"]),
    "unknown actor (by)": (PIN, "by: agent", "by: agnet", "checks.0.exists.by", ["unknown actor 'agnet'"]),
    "unknown key in a check": (PIN, "      where:\n        author", "      wher:\n        author",
                               "checks.0.exists.wher", ["unknown key 'wher'", "did you mean 'where'"]),
    "unknown key beside the kind": (PIN, "    gate: true\n    count:", "    gait: true\n    count:",
                                    "checks.1.gait", ["unknown key 'gait' beside count"]),
    "unknown check kind": (PIN, "    gate: true\n    count:", "    gate: true\n    cuont:",
                           "checks.1.cuont", ["unknown check kind 'cuont'", "did you mean 'count'"]),
    "unknown condition": (PIN, 'text: {contains: "Key dates', 'text: {contain: "Key dates',
                          "checks.0.exists.where.text.contain", ["unknown condition 'contain'",
                                                                 "did you mean 'contains'"]),
    "unknown table in a ref": (PIN, "ref: {table: chat_conversations", "ref: {table: chat_conversation",
                               "checks.0.exists.where.conversation.ref.table", ["unknown table 'chat_conversation'"]),
    "unknown field of a join": (DM, "field: conversation", "field: conversaton",
                                "checks.0.exists.where.conversation.ref.related.0.field",
                                ["unknown field 'conversaton' of chat_members"]),
    "invalid regex in says about": (DM, 'about: "\\\\bshort(?:fall|\\\\b)"', 'about: "\\\\bshort(?:fall|\\\\b"',
                                    "checks.0.exists.where.text.says.about", ["invalid regular expression"]),
    "unknown table in allow": (PIN, "  - {table: chat_messages, new: true", "  - {table: chat_msgs, new: true",
                               "allow.0.table", ["unknown table 'chat_msgs'"]),
    "unknown field in allow fields": ("meridian/accept-moot-decline-cle", "fields: [note]", "fields: [notes]",
                                      "allow.0.fields.0", ["unknown field 'notes' of cal_guests"]),
    "unknown table in rubric evidence": ("lumen/harrowgate-owners-update", "- {table: mail_messages, new: true",
                                         "- {table: mail_message, new: true", "rubric.4.evidence.0.table",
                                         ["unknown table 'mail_message'"]),
    "unknown function in a rubric check": ("lumen/harrowgate-owners-update", "checks:owner_comment_421",
                                           "checks:owner_comment_412", "rubric.0.check.python",
                                           ["no function 'owner_comment_412'"]),
    "unknown condition in explain": ("meridian/forward-vdr-audio", "  not: {matches:", "  nto: {matches:",
                                     "explain.nto", ["unknown condition 'nto'"]),
    "unknown tool in the solution": (PIN, "  - call: chat.pin\n", "  - call: chat.pinn\n", "solution.4.call",
                                     ["unknown tool 'chat.pinn'", "did you mean 'chat.pin'"]),
    "unknown service function": (PIN, "  - call: chat.pin\n", "  - call: apps.chat.service:pinn\n",
                                 "solution.4.call", ["apps.chat.service has no public function 'pinn'",
                                                     "did you mean 'pin'"]),
    "not a service module": (PIN, "  - call: chat.pin\n", "  - call: os.path:join\n",
                             "solution.4.call", ["apps.<app>.service:function"]),
    "unknown tool argument": (PIN, "      message_id: {find", "      message: {find", "solution.4.args.message",
                              ["chat.pin has no argument 'message'", "did you mean 'message_id'"]),
    "unknown field of a find": (PIN, "}, field: conversation}", "}, field: convo}", "solution.2.args.channel.field",
                                ["unknown field 'convo' of chat_messages"]),
    "unknown table of a find": (PIN, "message_id: {find: {table: chat_messages",
                                "message_id: {find: {table: chat_messagez", "solution.4.args.message_id.find.table",
                                ["unknown table 'chat_messagez'"]),
    "unknown tool in an adversary": (PIN, "      - call: chat.dm\n", "      - call: chat.dms\n",
                                     "adversaries.0.steps.0.call", ["unknown tool 'chat.dms'"]),
    "unknown oracle page": ("meridian/fund-shortfall", "goto: /drive/search?q=complaint",
                            "goto: /drive/serch?q=complaint", "oracle.", ["no page of drive at '/drive/serch'"]),
    "invalid oracle regex": (PIN, 'name: "re:corvane-aurelia-dawn"', 'name: "re:corvane-(aurelia-dawn"',
                             "oracle.0.click.name", ["invalid regular expression"]),
    "oracle fill without a locator": (DM, "  - fill: {target: {role: textbox, name:",
                                      "  - fill: {targte: {role: textbox, name:", "oracle.10.fill",
                                      ["unknown key 'targte' in fill", "fill needs target"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_task_with_one_bad_reference_names_file_and_field(worlds, case):
    task, old, new, where, words = CASES[case]
    msg = error_of(worlds, broken(worlds, task, old, new))
    assert "broken.yaml: " in msg and where in msg, msg
    for w in words:
        assert w in msg, msg


def test_the_reference_error_lists_each_problem(worlds):
    tid = broken(worlds, PIN, "table: chat_messages\n      by: agent", "table: chat_msgs\n      by: agnet")
    with pytest.raises(TaskReferenceError) as e:
        load_task(tid, root=worlds)
    where = [w for w, _ in e.value.problems]
    assert where == ["checks.0.exists.table", "checks.0.exists.by"], e.value.problems
    assert e.value.path.name == "broken.yaml"
    assert all(line.startswith(f"{e.value.path}: ") for line in str(e.value).splitlines())
    again = pickle.loads(pickle.dumps(e.value))             # it crosses process boundaries intact
    assert isinstance(again, TaskReferenceError) and str(again) == str(e.value)


def test_non_utf8_bytes_name_file_and_offset(worlds):
    src = (REAL / "meridian" / "tasks" / "eleanor-pin-request.yaml").read_bytes()
    at = src.index(b"Wait for it")
    tid = broken(worlds, PIN, b"Wait for it", b"Wait \xff\xfe it")
    msg = error_of(worlds, tid)
    assert "broken.yaml: not UTF-8" in msg and f"offset {at + 5}" in msg and "0xff" in msg, msg
    line = src[:at].count(b"\n") + 1
    assert f"line {line}," in msg, msg


def test_latin1_text_is_not_utf8(worlds):
    tid = broken(worlds, PIN, "Key dates — M-2026-0147".encode(), "Key dates \xe9 M-2026-0147".encode("latin-1"))
    assert "not UTF-8" in error_of(worlds, tid)


def test_a_utf8_bom_is_fine(worlds):
    data = (REAL / "meridian" / "tasks" / "eleanor-pin-request.yaml").read_bytes()
    (worlds / "meridian" / "tasks" / "bom.yaml").write_bytes(b"\xef\xbb\xbf" + data)
    assert load_task("meridian/bom", root=worlds).coworkers == ["eleanor.vance:pin-key-dates"]


def test_a_copied_task_loads_clean(worlds):
    for task in (PIN, DM, "meridian/fund-shortfall", "lumen/harrowgate-owners-update"):
        tid = broken(worlds, task, "revision:", "revision:", name="copy")
        assert load_task(tid, root=worlds).id == tid


@pytest.mark.parametrize("start", ["/drive/shared", "/chat/", "/chat", "/tickets/kb/KB0001001", "/drive/search?q=x"])
def test_a_start_page_of_the_apps_loads(worlds, start):
    tid = broken(worlds, PIN, "start: chat", f"start: {start!r}")
    assert load_task(tid, root=worlds).start_path == start


def test_a_service_function_step_loads(worlds):
    tid = broken(worlds, PIN, "  - call: chat.pin\n", "  - call: apps.chat.service:pin\n")
    assert load_task(tid, root=worlds).solution[4].call == "apps.chat.service:pin"


def test_a_world_without_check_modules_reports_the_module(worlds):
    (worlds / "meridian" / "checks_work.py").unlink()
    msg = error_of(worlds, broken(worlds, PIN, "revision:", "revision:"))
    assert "checks.2.python: no module 'checks_work'" in msg, msg


def test_a_broken_check_module_is_reported_not_raised(worlds):
    (worlds / "meridian" / "checks_work.py").write_text("raise RuntimeError('half-written')\n")
    msg = error_of(worlds, broken(worlds, PIN, "revision:", "revision:"))
    assert "checks.2.python: checks_work can't be imported: RuntimeError: half-written" in msg, msg


def test_all_tasks_names_the_bad_file(worlds):
    broken(worlds, PIN, "table: chat_messages", "table: mails")
    with pytest.raises(TaskError) as e:
        all_tasks(root=worlds)
    assert "meridian/tasks/broken.yaml: checks.0.exists.table: unknown table 'mails'" in str(e.value)


def test_every_shipped_task_loads_clean():
    files = sorted(p for w in world_names() for p in (REAL / w / "tasks").glob("*.yaml"))
    tasks = all_tasks()
    assert len(tasks) == len(files) >= 80
    assert {t.id for t in tasks} == {f"{p.parent.parent.name}/{p.stem}" for p in files}
    for t in tasks:
        assert validate.problems(t, REAL / t.world) == [], t.id
    assert select("meridian/eleanor-pin-request")[0].coworkers == ["eleanor.vance:pin-key-dates"]


def test_world_lookups_are_cached_until_a_file_changes(worlds):
    root = worlds / "meridian"
    first = lookups.world_index(root)
    assert lookups.world_index(root) is first
    first.function("checks:fund_shortfall")
    assert "checks:fund_shortfall" in first._functions
    later = time.time() + 5
    os.utime(root / "checks.py", (later, later))
    assert lookups.world_index(root) is not first


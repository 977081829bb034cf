"""The world store: compile, slots, restore, export and diff."""
from __future__ import annotations

import json
import shutil

import pytest

from apps.core.store.compile import build, template_for, world_hash
from apps.core.store.db import AGENT, StoreError
from apps.core.store.export import content_changes, diff, export
from apps.core.store.slot import Slot
from apps.core.world import WorldError, load_world
from apps.mail import compose
from apps.mail import service as mail


def canon(d: dict) -> str:
    return json.dumps(d, sort_keys=True, ensure_ascii=False)


def test_template_is_cached_by_content_hash(world, template):
    assert template_for(world) == template
    assert template.name.startswith("meridian-") and world_hash(world)[:16] in template.name


def test_compile_is_deterministic(world, tmp_path, template):
    out = tmp_path / "again.sqlite"
    build(world, out, world_hash(world))
    a, b = Slot(template), Slot(out)
    try:
        with a.store() as sa, b.store() as sb:
            assert canon(export(sa)) == canon(export(sb))
    finally:
        a.close()
        b.close()


def test_world_has_the_promised_volume(store):
    n = lambda sql: store.scalar(sql)  # noqa: E731
    assert n("SELECT count(*) FROM people") >= 25
    assert n("SELECT count(*) FROM mail_messages") >= 150
    assert n("SELECT count(*) FROM mail_threads") >= 40
    assert n("SELECT count(*) FROM drive_items WHERE kind='file'") >= 30


def test_export_is_stable_and_classed(slot, template):
    with slot.store() as st:
        first = canon(export(st))
    other = Slot(template)
    try:
        with other.store() as st:
            second = canon(export(st))
    finally:
        other.close()
    assert first == second
    data = json.loads(first)
    assert data["world"] == "meridian" and data["writes"] == []
    for name, table in data["tables"].items():
        assert set(table["fields"].values()) <= {"content", "derived", "ephemeral"}, name
        for rec in table["records"].values():
            assert set(rec) == set(table["fields"]), name
    assert data["tables"]["mail_boxes"]["fields"]["read"] == "ephemeral"
    assert data["tables"]["mail_boxes"]["fields"]["labels"] == "content"


@pytest.mark.parametrize("path", [None, "file"])
def test_restore_after_changes_gives_back_the_template(template, tmp_path, alex, path):
    slot = Slot(template, path=tmp_path / "slot.sqlite" if path else None)
    try:
        with slot.store() as st:
            before = canon(export(st))
            compose.send(st, alex, to="priya.raman@meridianshaw.com", subject="x", body="y")
            mail.create_label(st, alex, "Scratch")
            st.advance(3600)
            assert canon(export(st)) != before
        gen = slot.generation
        assert slot.restore() == gen + 1
        with slot.store() as st:
            assert canon(export(st)) == before
            assert st.now_iso() == "2026-04-06T13:00:00Z"
        if path:
            assert not (tmp_path / "slot.sqlite-journal").exists()
    finally:
        slot.close()


def test_diff_names_every_changed_field_with_its_actor(store, alex):
    before = export(store)
    thread = store.scalar("SELECT thread FROM mail_messages WHERE subject LIKE 'Board pack%' ORDER BY id")
    mail.apply(store, alex, [thread], "archive")
    mail.apply(store, alex, [thread], "star")
    lab = mail.create_label(store, alex, "Board")
    mail.delete_label(store, alex, store.scalar("SELECT id FROM mail_labels WHERE name='CLE'"))
    store.update("people", 1, "eleanor.vance", title="Senior Partner")
    d = diff(before, export(store))
    boxes = d["tables"]["mail_boxes"]["changed"]
    fields = {f for rec in boxes for f in rec["fields"]}
    assert {"inbox", "starred"} <= fields
    for rec in boxes:
        for name, ch in rec["fields"].items():
            assert ch["actor"] == AGENT and ch["class"] == "content" and ch["before"] != ch["after"]
    added = d["tables"]["mail_labels"]["added"]
    assert [a["record"]["name"] for a in added] == ["Board"] and added[0]["actor"] == AGENT
    assert added[0]["key"] == str(lab)
    removed = d["tables"]["mail_labels"]["removed"]
    assert [r["record"]["name"] for r in removed] == ["CLE"] and removed[0]["actor"] == AGENT
    person = d["tables"]["people"]["changed"][0]
    assert person["fields"]["title"]["actor"] == "eleanor.vance"
    agent_content = content_changes(d, actor=AGENT)
    assert agent_content and all(c["actor"] == AGENT for c in agent_content)
    assert not any(c["table"] == "people" for c in agent_content)


def test_unchanged_writes_and_failed_transactions_leave_nothing(store, alex):
    before = export(store)
    lab = store.select("mail_labels", "name='CLE'")[0]
    assert store.update("mail_labels", lab["id"], AGENT, name="CLE") == []
    with pytest.raises(RuntimeError):
        with store.transaction():
            mail.create_label(store, alex, "Half-done")
            raise RuntimeError("boom")
    assert diff(before, export(store)) == {"tables": {}}
    with pytest.raises(StoreError):
        store.update("mail_labels", lab["id"], AGENT, nonsense=1)


def test_reading_everything_changes_no_content(client, slot):
    with slot.store() as st:
        before = export(st)
        threads = [r[0] for r in st.all("SELECT DISTINCT thread FROM mail_boxes WHERE owner='alex.chen'")]
        files = [r[0] for r in st.all("SELECT id FROM drive_items WHERE kind='file'")]
        apps = [r[0] for r in st.all("SELECT id FROM drive_items WHERE kind NOT IN ('file', 'folder')")]
    for t in threads:
        assert client.get(f"/mail/thread/{t}").status_code == 200
    opened = 0
    for f in files:
        r = client.get(f"/drive/file/{f}")
        assert r.status_code in (200, 404)
        opened += r.status_code == 200
    assert opened >= 30
    for i in apps:                         # Docs (and later Sheets, Slides) open in their app
        r = client.get(f"/drive/open/{i}", follow_redirects=True)
        assert r.status_code in (200, 404)
        opened += r.status_code == 200
    assert opened >= 40
    with slot.store() as st:
        d = diff(before, export(st))
    assert content_changes(d) == []
    assert "mail_boxes" in d["tables"]      # read markers did change (ephemeral)


def test_world_errors_name_file_and_field(tmp_path, world):
    bad = tmp_path / "bad"
    shutil.copytree(world.root, bad, ignore=shutil.ignore_patterns("tasks"))
    text = (bad / "world.yaml").read_text().replace("email: alex.chen@meridianshaw.com", "email: not-an-address")
    (bad / "world.yaml").write_text(text)
    with pytest.raises(WorldError) as e:
        load_world(bad)
    assert "world.yaml" in str(e.value) and "people.4.email" in str(e.value)


def test_mail_file_errors_name_file_and_field(tmp_path, world):
    bad = tmp_path / "bad2"
    shutil.copytree(world.root, bad, ignore=shutil.ignore_patterns("tasks"))
    (bad / "mail" / "zz-broken.yaml").write_text(
        "subject: Broken\nmessages:\n  - from: nobody.here\n    to: [alex.chen]\n    date: '2026-03-01T10:00:00'\n    body: hi\n")
    w = load_world(bad)
    with pytest.raises(WorldError) as e:
        build(w, tmp_path / "out.sqlite")
    assert "zz-broken.yaml" in str(e.value) and "messages.0.from" in str(e.value)


def test_world_hash_follows_the_files(tmp_path, world):
    copy = tmp_path / "copy"
    shutil.copytree(world.root, copy, ignore=shutil.ignore_patterns("tasks"))
    w = load_world(copy)
    h1 = world_hash(w)
    (copy / "mail" / "2026-01-06-2026-kickoff-robert-hale.yaml").write_text(
        (copy / "mail" / "2026-01-06-2026-kickoff-robert-hale.yaml").read_text() + "\n# edited\n")
    assert world_hash(load_world(copy)) != h1


def test_world_time_is_the_stores_not_the_wall_clock(store):
    assert store.now_iso() == "2026-04-06T13:00:00Z"
    assert store.local(store.now()).strftime("%Y-%m-%d %H:%M %Z") == "2026-04-06 09:00 EDT"
    store.advance(30)
    assert store.now_iso() == "2026-04-06T13:00:30Z"


def test_export_since_a_start_equals_a_full_export(store, alex):
    from apps.core.store.export import export_since
    from apps.mail import compose
    start = export(store)
    compose.send(store, alex, to="eleanor.vance@meridianshaw.com", subject="x", body="y")
    assert export_since(store, start) == export(store)

"""`harness.runs.export`: a recorded run as a Hugging Face ImageFolder dataset and as chat messages for SFT;
bad episodes are skipped and reported; the run layout schema is versioned Markdown."""
from __future__ import annotations

import base64
import io
import json

import pytest
from PIL import Image

from harness.env.actions import describe
from harness.runs.export import ExportError, export_run
from harness.runs.layout import append_result, run_layout_schema
from harness.runs.recorder import EpisodeRecorder

TASK = "meridian/gross-tonnage"
NOFILE = "meridian/not-a-task-file"
ACTIONS = [
    {"type": "click", "x": 100, "y": 200},
    {"type": "type", "text": "58,400"},
    {"type": "key", "keys": "ctrl+a"},
    {"type": "done", "status": "complete", "answer": "58,400"},
]


def png(shade: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 5), (shade, 0, 0)).save(buf, "PNG")
    return buf.getvalue()


def record(run, task=TASK, sample=0, *, passed=True, score=1.0, steps=ACTIONS, extra=None, result_extra=None):
    rec = EpisodeRecorder(run, task, sample)
    rec.screen(0, png(0))
    for i, a in enumerate(steps, 1):
        rec.step({"step": i, "action": a, "url": f"http://desk.local/drive/p{i}", "error": "bad key" if i == 3 else "",
                  "screenshot": rec.screen(i, png(i * 10)), "ms": {"agent": 1.0, "env": 100},
                  "reward": 0.0, "terminated": i == len(steps), "truncated": False, **(extra or {})})
    ep = rec.finish({"status": "passed" if passed else "failed", "passed": passed, "score": score,
                     "lines": ["✓ answer: expected 58,400"], "rubric": [], "task": task, "sample": sample,
                     **(result_extra or {})}, {"tables": {}})
    append_result(run, {"task": task, "sample": sample, "score": score, "passed": passed, "steps": len(steps),
                        "seconds": 1.2, "status": "passed" if passed else "failed", "agent": "oracle"})
    return ep


@pytest.fixture
def run(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"schema": 1, "agent": "oracle", "k": 2}))
    record(run, TASK, 0, extra={"thought": "Find the tonnage", "raw": "RAW-OUT"})
    record(run, TASK, 1, passed=False, score=0.25, steps=ACTIONS[:2])
    record(run, NOFILE, 0, steps=ACTIONS[:1], result_extra={"prompt": "Recorded goal text"})
    return run


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def check_imagefolder_layout(root):
    """ImageFolder's documented rules for metadata: metadata.jsonl at the data_dir root, a `file_name`
    column of relative paths to image files inside data_dir, the same keys in every row (features are
    inferred from the rows), and only JSON scalars or lists as values; every image has one row."""
    meta = root / "metadata.jsonl"
    assert meta.is_file()
    rows = read_jsonl(meta)
    assert rows
    keys = set(rows[0])
    assert "file_name" in keys
    types = {}
    for r in rows:
        assert set(r) == keys
        fn = r["file_name"]
        assert isinstance(fn, str) and not fn.startswith("/") and ".." not in fn.split("/")
        assert (root / fn).is_file()
        for k, v in r.items():
            assert v is None or isinstance(v, (str, int, float, bool, list)), (k, v)
            assert not isinstance(v, list) or all(isinstance(x, (str, int, float, bool)) for x in v)
            if v is not None:
                types.setdefault(k, set()).add(type(v).__name__)
    assert all(len(t) == 1 for t in types.values()), types       # one type per column
    names = [r["file_name"] for r in rows]
    assert len(names) == len(set(names))
    assert sorted(p.name for p in root.rglob("*.png")) == sorted(n.split("/")[-1] for n in names)
    return rows


def test_imagefolder(run, tmp_path):
    out = tmp_path / "hf"
    rep = export_run(run, out, "imagefolder")
    assert rep["episodes"] == 3 and rep["rows"] == 4 + 2 + 1 and rep["skipped"] == []
    rows = check_imagefolder_layout(out)
    assert len(rows) == 7
    first = next(r for r in rows if r["task"] == TASK and r["sample"] == 0 and r["step"] == 1)
    assert first["file_name"] == "meridian__gross-tonnage__0__0001.png"
    assert first["observation"] == "screens/0000.png"                    # the screen the agent acted on
    assert json.loads(first["action"]) == ACTIONS[0] and first["action_type"] == "click"
    assert first["thought"] == "Find the tonnage"
    assert first["world"] == "meridian" and first["url"] == "http://desk.local/drive/p1"
    assert "gross tonnage" in first["goal"].lower()                     # from the task file
    assert first["episode_passed"] is True and first["episode_score"] == 1.0 and first["episode_status"] == "passed"
    third = next(r for r in rows if r["task"] == TASK and r["sample"] == 0 and r["step"] == 3)
    assert third["error"] == "bad key"
    failed = [r for r in rows if r["sample"] == 1]
    assert {r["episode_status"] for r in failed} == {"failed"} and failed[0]["episode_score"] == 0.25
    assert next(r for r in rows if r["task"] == NOFILE)["goal"] == "Recorded goal text"   # from the run
    im = Image.open(out / third["file_name"])
    im.load()
    assert im.size == (8, 5) and im.getpixel((0, 0))[0] == 20           # screens/0002.png
    try:
        import datasets
    except ImportError:
        return
    ds = datasets.load_dataset("imagefolder", data_dir=str(out), split="train")
    assert len(ds) == 7 and "image" in ds.column_names and "action" in ds.column_names


@pytest.mark.parametrize("images", ["inline", "files"])
def test_messages(run, tmp_path, images):
    out = tmp_path / f"msgs-{images}"
    rep = export_run(run, out, "messages", images=images)
    assert rep["episodes"] == 3 and rep["rows"] == 3 and rep["skipped"] == []
    lines = read_jsonl(out / "messages.jsonl")
    assert [ln["id"] for ln in lines] == [f"{TASK}/0", f"{TASK}/1", f"{NOFILE}/0"]
    for ln in lines:
        msgs = ln["messages"]
        assert msgs[0] == {"role": "system", "content": describe()}
        roles = [m["role"] for m in msgs[1:]]
        assert roles[0] == "user" and roles[-1] == "assistant"
        assert all(a != b for a, b in zip(roles, roles[1:]))             # strictly alternating
        assert roles.count("assistant") == {f"{NOFILE}/0": 1, f"{TASK}/0": 4, f"{TASK}/1": 2}[ln["id"]]
        for m in msgs[1:]:
            if m["role"] == "user":
                parts = m["content"]
                assert parts[0]["type"] == "text"
                img = [p for p in parts if p["type"] == "image_url"]
                assert len(img) == 1
                url = img[0]["image_url"]["url"]
                if images == "inline":
                    assert url.startswith("data:image/png;base64,")
                    data = base64.b64decode(url.split(",", 1)[1])
                else:
                    assert url.startswith("images/") and not url.startswith("/")
                    data = (out / url).read_bytes()
                Image.open(io.BytesIO(data)).load()
            else:
                assert isinstance(m["content"], str)
    ok = lines[0]
    assert ok["task"] == TASK and ok["passed"] is True and ok["score"] == 1.0
    msgs = ok["messages"]
    assert "gross tonnage" in msgs[1]["content"][0]["text"].lower()
    assert msgs[2]["content"] == "Find the tonnage\n" + json.dumps(ACTIONS[0], sort_keys=True)
    assert json.loads(msgs[-1]["content"].splitlines()[-1]) == ACTIONS[-1]
    assert "Action error: bad key" in msgs[7]["content"][0]["text"]     # after step 3
    assert ok["raw"] == ["RAW-OUT"] * 4
    assert "raw" not in lines[1] and lines[1]["passed"] is False and lines[1]["score"] == 0.25
    assert lines[2]["goal"] == "Recorded goal text"
    if images == "files":
        assert len(list((out / "images").glob("*.png"))) == 4 + 2 + 1   # one per user turn


def test_bad_episodes_are_skipped_and_reported(run, tmp_path):
    bad_steps = record(run, "meridian/hearing-date", 0)
    (bad_steps / "steps.jsonl").write_text('{"step": 1, "action": {"type": "cl', encoding="utf-8")
    bad_result = record(run, "meridian/other-one", 0)
    (bad_result / "result.json").unlink()
    bad_png = record(run, "meridian/third-one", 0)
    (bad_png / "screens" / "0002.png").write_bytes(b"not a png")
    append_result(run, {"task": "meridian/never-recorded", "sample": 0, "score": 0, "passed": False,
                        "steps": 0, "seconds": 0, "status": "error"})
    with open(run / "results.jsonl", "a") as f:
        f.write('{"task": "meridian/cut-sh')                               # a line cut short by a crash
    for fmt in ("imagefolder", "messages"):
        rep = export_run(run, tmp_path / fmt, fmt)
        assert rep["episodes"] == 3, rep
        reasons = {s["episode"]: s["reason"] for s in rep["skipped"]}
        assert reasons == {"meridian/hearing-date/0": "steps.jsonl line 1 is corrupt",
                           "meridian/other-one/0": "result.json is missing",
                           "meridian/third-one/0": "screens/0002.png is not a PNG",
                           "meridian/never-recorded/0": "episode folder is missing"}
    check_imagefolder_layout(tmp_path / "imagefolder")
    assert len(read_jsonl(tmp_path / "messages" / "messages.jsonl")) == 3


def test_bad_arguments(run, tmp_path):
    with pytest.raises(ExportError):
        export_run(run, tmp_path / "x", "parquet")
    with pytest.raises(ExportError):
        export_run(run, tmp_path / "x", "messages", images="urls")
    with pytest.raises(ExportError):
        export_run(tmp_path / "nope", tmp_path / "x", "messages")
    with pytest.raises(ExportError):
        export_run(run, run / "episodes" / "out", "imagefolder")
    empty = tmp_path / "empty"
    empty.mkdir()
    rep = export_run(empty, tmp_path / "e", "imagefolder")
    assert rep["episodes"] == 0 and (tmp_path / "e" / "metadata.jsonl").read_text() == ""


def test_run_layout_schema_is_versioned_markdown():
    md = run_layout_schema()
    assert md.startswith("# deskworld run layout v1")
    for name in ("run.json", "results.jsonl", "summary.json", "steps.jsonl", "result.json", "diff.json",
                 "labels.json", "screens/0000.png", "trace.zip"):
        assert name in md
    for field in ("`step`", "`action`", "`url`", "`error`", "`screenshot`", "`ms`", "`status`", "`passed`",
                  "`score`", "`lines`", "`rubric`", "`collateral`", '"grader"', "\"before\"", "\"actor\""):
        assert field in md
    import harness.runs.layout
    assert md in harness.runs.layout.__doc__


def test_cli_export_reports_what_it_wrote(tmp_path):
    from click.testing import CliRunner

    from harness.cli import main
    from harness.runs.layout import append_result
    from harness.runs.recorder import EpisodeRecorder
    run = tmp_path / "run"
    rec = EpisodeRecorder(run, "meridian/gross-tonnage", 0)
    from PIL import Image
    import io
    buf = io.BytesIO()
    Image.new("RGB", (1280, 800), "white").save(buf, "PNG")
    rec.screen(0, buf.getvalue())
    rec.step({"step": 1, "action": {"type": "done", "answer": "ANSWER: 58400"}, "url": "http://desk.local/drive/",
              "error": ""})
    rec.finish({"status": "passed", "passed": True, "score": 1.0, "lines": []}, {"tables": {}})
    append_result(run, {"task": "meridian/gross-tonnage", "sample": 0, "score": 1.0, "passed": True, "steps": 1,
                        "status": "passed"})
    res = CliRunner().invoke(main, ["export", str(run), "--format", "imagefolder", "--out", str(tmp_path / "hf")])
    assert res.exit_code == 0, res.output
    assert "imagefolder: 1 episodes, 1 rows" in res.output and (tmp_path / "hf" / "metadata.jsonl").is_file()
    bad = CliRunner().invoke(main, ["export", str(run), "--format", "imagefolder", "--out", str(run)])
    assert bad.exit_code != 0 and "Error" in bad.output

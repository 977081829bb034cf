"""Rubric judges: grade a task's ``judge`` criteria with a model, after the run.

A judge sees, per episode, only evidence the agent can't argue with:

- the task's prompt (what was asked) and each criterion's instruction;
- the state diff: every content change the episode made, with who made it;
- the records each criterion names as its ``evidence`` (queries in the
  checks' language, evaluated on the final state by the verifier and stored
  in ``result.json``);
- the agent's final answer, as a claim to grade — never as evidence (the
  prompt says so, and the agent's reasoning and step log are not sent).

It answers with structured output — ``{"verdicts": [{"criterion", "passed",
"reason"}]}`` through the vendor's JSON-schema mode (Anthropic
``output_config.format``, OpenAI Responses ``text.format``, Chat Completions
``response_format``) — validated with pydantic; nothing is parsed out of
prose. A reply that doesn't validate is asked once more, then the criteria
stay pending with the error.

``--judge`` may be given twice for a second vote: a criterion passes only if
both judges pass it (a split is marked ``agreement: false`` for review).
Verdicts are cached by the hash of everything the judge saw (plus its
model and the prompt version) in ``<run>/judge-cache/``, so grading again
is free. Judges change ``score``, never ``passed`` (DESIGN.md, Scoring).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ValidationError

from harness.agents.model import Usage, call_usage, create, sdk_client
from harness.runs import layout
from harness.runs.regrade import rescored
from harness.tasks.registry import TaskError, load_task

PROMPT_VERSION = 1
MAX_EVIDENCE_CHARS = 60_000

SYSTEM = """You grade the work of an AI agent that operated a company's workspace apps (mail, chat, \
calendar, drive, docs, sheets, slides, CRM, service desk) for a user.

You get the task the agent was given, the criteria to grade, what changed in the workspace during the \
episode (the state diff: each added, changed or removed record with the fields that changed and who made \
the change), the records relevant to each criterion as they are at the end, and the agent's final answer.

Grade each criterion from this evidence only. What the agent wrote is evidence of what it wrote, never \
evidence that anything else happened: if the agent says it did something, look for it in the diff and the \
records, and if it is not there, it did not happen. A criterion passes only if the evidence clearly shows \
it is met. Give each verdict a reason of one or two sentences that points at the evidence (a record, a \
field, a quoted phrase)."""


class Verdict(BaseModel):
    criterion: str
    passed: bool
    reason: str


class Verdicts(BaseModel):
    verdicts: list[Verdict]


SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["verdicts"],
    "properties": {"verdicts": {"type": "array", "items": {
        "type": "object", "additionalProperties": False, "required": ["criterion", "passed", "reason"],
        "properties": {"criterion": {"type": "string"}, "passed": {"type": "boolean"},
                       "reason": {"type": "string"}}}}},
}


class JudgeError(RuntimeError):
    pass


# ---------------------------------------------------------------- the judges
@dataclass
class Judge:
    """``provider:model[@base_url]`` — provider ``anthropic``, ``openai`` (Responses API) or ``vlm``
    (any OpenAI-compatible Chat Completions server)."""
    provider: str
    model: str
    base_url: str | None = None
    max_retries: int = 4
    timeout: float = 120.0

    @classmethod
    def parse(cls, spec: str, *, base_url: str | None = None) -> "Judge":
        head, _, url = spec.partition("@")
        provider, _, model = head.partition(":")
        if provider not in ("anthropic", "openai", "vlm") or not model:
            raise JudgeError(f"a judge is provider:model[@base_url] with provider anthropic, openai or vlm; "
                             f"got {spec!r}")
        return cls(provider, model, url or base_url)

    @property
    def label(self) -> str:
        return f"{self.provider}:{self.model}"

    def ask(self, user: str) -> tuple[str, Usage]:
        """One call; the reply's JSON text and its usage."""
        client = sdk_client(self.provider, base_url=self.base_url, max_retries=self.max_retries, timeout=self.timeout)
        if self.provider == "anthropic":
            resp, retries = create(client.messages, model=self.model, max_tokens=4096,
                                   system=[{"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}],
                                   messages=[{"role": "user", "content": user}],
                                   output_config={"format": {"type": "json_schema", "schema": SCHEMA}})
            text = "".join(b.text for b in resp.content if b.type == "text")
        elif self.provider == "openai":
            resp, retries = create(client.responses, model=self.model, instructions=SYSTEM, input=user,
                                   text={"format": {"type": "json_schema", "name": "verdicts", "schema": SCHEMA,
                                                    "strict": True}})
            text = resp.output_text
        else:
            resp, retries = create(client.chat.completions, model=self.model, temperature=0,
                                   messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}],
                                   response_format={"type": "json_schema", "json_schema": {
                                       "name": "verdicts", "schema": SCHEMA, "strict": True}})
            text = resp.choices[0].message.content or ""
        return text, call_usage(self.model, resp, retries)

    def grade(self, user: str, names: list[str]) -> tuple[dict[str, Verdict], Usage]:
        total = Usage(model=self.model)
        problem = ""
        for _ in range(2):
            text, usage = self.ask(user if not problem else
                                   user + f"\n\nYour previous reply was not usable ({problem}). "
                                          "Answer with exactly one verdict per criterion, by name.")
            total.add(usage)
            try:
                got = Verdicts.model_validate_json(text)
            except ValidationError as e:
                problem = f"not the JSON schema: {e.errors()[0]['msg']}"
                continue
            by = {v.criterion: v for v in got.verdicts}
            missing = [n for n in names if n not in by]
            if missing:
                problem = f"no verdict for {', '.join(missing)}"
                continue
            return {n: by[n] for n in names}, total
        raise JudgeError(f"{self.label} gave no usable verdicts: {problem}")


# ---------------------------------------------------------------- what the judge sees
def state_changes(diff: dict) -> list[dict]:
    """The diff's content changes, with the content fields of added and removed records."""
    out = []
    for name, t in (diff.get("tables") or {}).items():
        content = {f for f, c in (t.get("fields") or {}).items() if c == "content"}
        if not content:
            continue
        for op in ("added", "removed"):
            for rec in t.get(op) or []:
                out.append({"table": name, "key": rec["key"], "op": op, "by": rec.get("actor"),
                            "record": {f: v for f, v in (rec.get("record") or {}).items() if f in content}})
        for rec in t.get("changed") or []:
            fields = {f: {"before": ch["before"], "after": ch["after"], "by": ch["actor"]}
                      for f, ch in rec["fields"].items() if ch["class"] == "content"}
            if fields:
                out.append({"table": name, "key": rec["key"], "op": "changed", "fields": fields})
    return out


def _clip(v, n: int = 4000):
    if isinstance(v, str) and len(v) > n:
        return v[:n] + f"… [{len(v) - n} more characters]"
    if isinstance(v, dict):
        return {k: _clip(x, n) for k, x in v.items()}
    if isinstance(v, list):
        return [_clip(x, n) for x in v]
    return v


def judge_input(prompt: str, criteria: list[dict], diff: dict, answer: str | None) -> str:
    changes = _clip(state_changes(diff))
    payload = {
        "task": prompt.strip(),
        "criteria": [{"criterion": c["name"], "instruction": c.get("instruction") or "",
                      "records": _clip(c.get("evidence") or [])} for c in criteria],
        "state_diff": changes,
        "agent_final_answer (a claim, not evidence)": answer,
    }

    def dump() -> str:
        return json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True, default=str)
    text, shown = dump(), len(changes)
    while len(text) > MAX_EVIDENCE_CHARS and shown > 1:
        shown = max(1, shown * 2 // 3)
        payload["state_diff"] = changes[:shown]
        payload["state_diff_note"] = f"{len(changes)} changes; the first {shown} are shown"
        text = dump()
    return "Grade these criteria. The evidence is the JSON below.\n\n" + text


def cache_key(judge: Judge, user: str) -> str:
    return hashlib.sha256(f"v{PROMPT_VERSION}\n{judge.label}\n{user}".encode()).hexdigest()


# ---------------------------------------------------------------- grading a run
def _zeroed(result: dict) -> bool:
    """The verifier set the score to 0 (collateral damage, a failed gate, a wrong 'infeasible')."""
    if "zeroed" in result:
        return bool(result["zeroed"])
    return bool(result.get("collateral")) or result.get("done_status") == "infeasible" or any(
        line.startswith("✗") and line.endswith("(gate)") for line in result.get("lines") or [])


def rescore(result: dict) -> float:
    crit = [(c["weight"], c["passed"]) for c in result.get("rubric") or [] if c.get("passed") is not None]
    total = sum(w for w, _ in crit)
    if _zeroed(result) or not total:
        return 0.0
    return round(sum(w for w, p in crit if p) / total, 4)


def _write_json(path: Path, data) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, default=str), encoding="utf-8")
    os.replace(tmp, path)


def grade_run(run_dir: str | Path, judges: list[Judge], *, regrade: bool = False, progress=None) -> dict:
    """Grade every episode's pending ``judge`` criteria (all of them with ``regrade``); rewrite
    ``result.json``, the scores in ``results.jsonl`` and ``summary.json``. Returns a report."""
    run_dir = Path(run_dir)
    if not (run_dir / layout.RESULTS).exists():
        raise JudgeError(f"{run_dir} is not a run folder (no results.jsonl)")
    if not 1 <= len(judges) <= 2:
        raise JudgeError("give one judge, or two for a second vote")
    cache = run_dir / "judge-cache"
    report = {"episodes": 0, "criteria": 0, "cached": 0, "errors": [], "usage": {}}
    scores: dict[tuple[str, int], float] = {}
    tasks = {}
    for ep in layout.episode_dirs(run_dir):
        res_path = ep / layout.RESULT
        if not res_path.exists():
            continue
        result = json.loads(res_path.read_text(encoding="utf-8"))
        todo = [c for c in result.get("rubric") or [] if c.get("kind") == "judge"
                and (regrade or c.get("passed") is None)]
        if not todo or result.get("status") == "error":
            continue
        tid = result.get("task") or f"{ep.parent.parent.name}/{ep.parent.name}"
        try:
            task = tasks.get(tid) or load_task(tid)
        except TaskError as e:
            report["errors"].append(f"{tid}: {e}")
            continue
        tasks[tid] = task
        diff = json.loads((ep / layout.DIFF).read_text(encoding="utf-8")) if (ep / layout.DIFF).exists() else {}
        user = judge_input(task.prompt, todo, diff, result.get("answer"))
        names = [c["name"] for c in todo]
        votes: list[tuple[Judge, dict[str, Verdict]]] = []
        try:
            for j in judges:
                key = cache_key(j, user)
                hit = cache / f"{key}.json"
                if hit.exists():
                    got = {n: Verdict.model_validate(v) for n, v in json.loads(hit.read_text())["verdicts"].items()}
                    report["cached"] += 1
                else:
                    got, usage = j.grade(user, names)
                    report["usage"].setdefault(j.label, Usage(model=j.model)).add(usage)
                    cache.mkdir(exist_ok=True)
                    _write_json(hit, {"judge": j.label, "verdicts": {n: v.model_dump() for n, v in got.items()}})
                votes.append((j, got))
        except Exception as e:           # the judge failed: these criteria stay pending
            report["errors"].append(f"{tid}/{ep.name}: {type(e).__name__}: {e}".splitlines()[0])
            continue
        for c in todo:
            vs = [{"judge": j.label, "passed": got[c["name"]].passed, "reason": got[c["name"]].reason}
                  for j, got in votes]
            c["passed"] = all(v["passed"] for v in vs)
            c["pending"] = False
            c["reason"] = " / ".join(v["reason"] for v in vs)
            c["votes"] = vs
            if len(vs) > 1:
                c["agreement"] = len({v["passed"] for v in vs}) == 1
            report["criteria"] += 1
        result["score"] = rescore(result)
        result["lines"] = [ln for ln in result.get("lines") or [] if not ln.startswith("… ")] + [
            f"{'✓' if c['passed'] else '✗'} {c['name']} (judge): {c['reason']}" for c in todo]
        _write_json(res_path, result)
        scores[(tid, int(ep.name))] = result["score"]
        report["episodes"] += 1
        if progress:
            progress(tid)
    if scores:
        def update(r: dict) -> None:
            if (r["task"], r["sample"]) in scores:
                r["score"] = scores[(r["task"], r["sample"])]
        rescored(run_dir, update, tasks)
    report["usage"] = {k: u.to_dict() for k, u in report["usage"].items()}
    return report

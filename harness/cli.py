"""The ``deskworld`` command line: one Click group, so later commands slot in."""
from __future__ import annotations

import json
import sys

import click

from harness.agents import MODEL_AGENTS, agent_help, agent_spec, make


@click.group()
@click.version_option(package_name="deskworld")
def main() -> None:
    """deskworld — worlds, workspace apps and tasks for computer-use agents."""


@main.command()
@click.option("--world", "world", default="meridian", show_default=True, help="World to serve.")
@click.option("--port", default=8765, show_default=True, type=int)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--user", default=None, help="Person id to sign in as (default: the world's user).")
@click.option("--state", type=click.Path(dir_okay=False), default=None,
              help="Keep the state in this file (default: in memory, reset on restart).")
def serve(world: str, port: int, host: str, user: str | None, state: str | None) -> None:
    """Serve the apps for a person to use in a browser."""
    from werkzeug.serving import run_simple

    from apps import create_app
    from apps.core.world import WorldError

    try:
        app = create_app({"WORLD": world, "AUTO_LOGIN": True, "USER": user, "SLOT_PATH": state,
                          "TICK_ON_REQUEST": True})
    except WorldError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"deskworld: serving world '{world}' at http://{host}:{port}/  (Mail /mail/ · Chat /chat/ · "
               "Calendar /calendar/ · Drive /drive/ · Docs /docs/ · Sheets /sheets/ · Slides /slides/)")
    run_simple(host, port, app, threaded=True, use_reloader=False)


@main.command()
@click.argument("world", default="meridian")
@click.option("--rebuild", is_flag=True, help="Build even if the cache has this version.")
def compile(world: str, rebuild: bool) -> None:
    """Compile a world into its template database and print the path."""
    import time

    from apps.core.store.compile import template_for
    from apps.core.world import WorldError
    t0 = time.perf_counter()
    try:
        path = template_for(world, rebuild=rebuild)
    except WorldError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"{path}  ({path.stat().st_size / 1e6:.1f} MB, {time.perf_counter() - t0:.2f} s)")


@main.command()
@click.option("--out", default="screenshots", show_default=True, type=click.Path(file_okay=False))
@click.argument("names", nargs=-1)
def screenshots(out: str, names: tuple[str, ...]) -> None:
    """Regenerate the screenshot gallery (screenshots/*.png)."""
    from pathlib import Path

    from harness.bench.gallery import filmstrip, record_shots, take, task_shots, variant_shots, viewer_shots
    for p in take(Path(out), list(names) or None):
        click.echo(p)
    for p in task_shots(Path(out), list(names) or None):
        click.echo(p)
    for p in variant_shots(Path(out), list(names) or None):
        click.echo(p)
    if not names or {"record-task.png", "record-verdict.png"} & set(names):
        for p in record_shots(Path(out)):
            click.echo(p)
    if not names or "episode-filmstrip.png" in names:
        click.echo(filmstrip(Path(out)))
    if not names or "episode-coworker.png" in names:
        # A client's question answered in her thread; her reply arrives within the episode.
        click.echo(filmstrip(Path(out), "meridian/answer-laura-deductible", file="episode-coworker.png"))
    if not names or {"viewer-run.png", "viewer-episode.png"} & set(names):
        for p in viewer_shots(Path(out)):
            click.echo(p)



@main.command()
@click.argument("pattern", required=False)
@click.option("--world", default=None, help="Only this world's tasks.")
@click.option("--instances", is_flag=True, help="Every instance of every family (with its split), not only the hand-made tasks.")
@click.option("--split", default=None, type=click.Choice(["train", "dev", "test"]), help="Only instances in this split.")
@click.option("--outcomes", default=None, type=int, metavar="N",
              help="With --instances: count the distinct expected outcomes among N sampled instances of each family.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def tasks(pattern: str | None, world: str | None, instances: bool, split: str | None, outcomes: int | None,
          as_json: bool) -> None:
    """List tasks; with --instances, the instances of every task family and their split."""
    from harness.tasks.registry import TaskError, all_tasks, select, select_instances
    if instances or split:
        try:
            refs = select_instances(pattern or world, split=split)
        except TaskError as e:
            raise click.ClickException(str(e)) from None
        _print_instances(refs, outcomes, as_json)
        return
    try:
        found = select(pattern) if pattern else all_tasks(world=world)
    except TaskError as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        click.echo(json.dumps([{"id": t.id, "revision": t.revision, "title": t.title, "apps": t.apps,
                                "difficulty": str(t.difficulty), "tags": t.tags, "max_steps": t.max_steps,
                                "infeasible": bool(t.infeasible), "answer": t.answer is not None,
                                "family": not (t.variants is None and not t.params)}
                               for t in found], indent=2))
        return
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{len(found)} tasks")
    for col in ("id", "title", "apps", "difficulty", "kind"):
        table.add_column(col)
    for t in found:
        kind = "infeasible" if t.infeasible else ("answer" if t.answer else "state")
        table.add_row(t.id, t.title, ",".join(t.apps), str(t.difficulty), kind)
    Console().print(table)


def _print_instances(refs, outcomes: int | None, as_json: bool) -> None:
    from collections import Counter
    by: dict[str, list] = {}
    for r in refs:
        by.setdefault(r.family, []).append(r)
    distinct = {}
    if outcomes:
        from harness.qc.outcomes import distinct_outcomes
        distinct = distinct_outcomes(refs, outcomes)
    splits = Counter(r.split for r in refs)
    if as_json:
        click.echo(json.dumps({
            "instances": [r.as_dict() for r in refs],
            "families": {f: {"instances": len(rs), "splits": dict(Counter(r.split for r in rs)),
                             **({"distinct_outcomes": distinct[f][0], "sampled": distinct[f][1]} if f in distinct else {})}
                         for f, rs in by.items()},
            "totals": {"instances": len(refs), "families": len(by), "splits": dict(splits)}}, indent=1))
        return
    from rich.console import Console
    from rich.table import Table
    table = Table(title=f"{len(refs)} instances of {len(by)} families · "
                        + " · ".join(f"{s} {splits.get(s, 0)}" for s in ("train", "dev", "test")))
    cols = ["family", "variants", "params", "instances", "train", "dev", "test"] + (["distinct outcomes"] if outcomes else [])
    for col in cols:
        table.add_column(col, justify="left" if col in ("family", "params") else "right")
    for f, rs in by.items():
        c = Counter(r.split for r in rs)
        row = [f, str(len({r.variant for r in rs})), str(len({r.keys for r in rs}) if rs[0].keys else "—"),
               str(len(rs)), str(c.get("train", 0)), str(c.get("dev", 0)), str(c.get("test", 0))]
        if outcomes:
            row.append(f"{distinct[f][0]} of {distinct[f][1]}" if f in distinct else "—")
        table.add_row(*row)
    Console().print(table)


@main.command()
@click.option("--agent", "agent", required=True, help=agent_help())
@click.option("--tasks", "pattern", default=None, help="Task ids or globs (meridian/*, a world name), comma-separated.")
@click.option("-k", "k", default=1, show_default=True, type=int, help="Samples per task.")
@click.option("--split", default=None, type=click.Choice(["train", "dev", "test"]),
              help="Run the instances of the --tasks families (default: all) in this split.")
@click.option("--instances", "per_family", default=None, metavar="N|all",
              help="Instances of each family: N drawn with --seed, or all (default with --split: all).")
@click.option("--workers", default=1, show_default=True, type=int,
              help="Worker processes, or Ray actors with --backend ray (each owns a browser).")
@click.option("--backend", default="local", show_default=True, type=click.Choice(["local", "ray"]),
              help="Run episodes in local worker processes, or on Ray actors (pip install 'deskworld[ray]').")
@click.option("--address", default=None,
              help="--backend ray: the Ray cluster, auto or HOST:PORT (default RAY_ADDRESS, else a new local Ray).")
@click.option("--out", default=None, type=click.Path(file_okay=False), help="Run folder (default runs/<time>).")
@click.option("--resume", is_flag=True,
              help="Skip episodes already in --out; refused if --out was recorded with another agent, model, "
                   "-k, --seed, world or task revision.")
@click.option("--trace", is_flag=True, help="Save a Playwright trace per episode.")
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--max-steps", default=None, type=click.IntRange(min=1),
              help="Every task's step limit for this run (a fixed budget: 15, 50, 100…), recorded in run.json.")
@click.option("--reward", default="final", show_default=True, type=click.Choice(["final", "milestones"]),
              help="The reward recorded on each step: the score at the end, or each checkpoint's share when reached.")
@click.option("--model", default=None, help="Model agents: the model id (claude-sonnet-5-5, gpt-5.4, Qwen/…).")
@click.option("--base-url", default=None,
              help="Model agents: API base URL (default: the SDK's, or ANTHROPIC_BASE_URL / OPENAI_BASE_URL).")
@click.option("--screen-size", default=None, help="Model agents: resize screenshots for the model, e.g. 1024x640.")
@click.option("--history-images", default=None, type=int, help="Model agents: screenshots kept in the context (3).")
@click.option("--max-tokens", default=None, type=int, help="anthropic, vlm: max tokens per reply.")
@click.option("--computer-tool", default=None, type=click.Choice(["computer_toolset_20260801", "computer_20251124"]),
              help="anthropic: the computer tool version (default the current toolset).")
@click.option("--safety", default=None, type=click.Choice(["acknowledge", "stop"]),
              help="openai: what to do with pending safety checks (default acknowledge).")
@click.option("--coords", default=None, type=click.Choice(["pixel", "norm1000"]),
              help="vlm: coordinates in screenshot pixels or on a 0-1000 grid.")
@click.option("--max-retries", default=None, type=int, help="Model agents: SDK retries on 429/5xx/timeouts (4).")
@click.option("--timeout", default=None, type=float, help="Model agents: seconds per API request (120).")
@click.option("--judge", "judges", multiple=True,
              help="Grade rubric judge criteria after the run: provider:model[@base_url] (see deskworld grade).")
@click.option("--variant", "variant_texts", multiple=True, metavar="AXIS=VALUE,…", help="Run on an appearance "
              "variant (viewport=1440x900,scale=2; axes viewport, scale, zoom, theme, density, shuffle); repeat for several: -k on each.")
@click.option("--variants", "n_variants", type=click.IntRange(min=1), help="Run on N variants drawn with --seed.")
def run(agent: str, pattern: str | None, k: int, split: str | None, per_family: str | None, workers: int,
        backend: str, address: str | None, out: str | None, resume: bool, trace: bool, seed: int,
        max_steps: int | None, reward: str, judges: tuple[str, ...], variant_texts: tuple[str, ...],
        n_variants: int | None, **model_opts) -> None:
    """Run episodes, record them, print pass@1 / pass@k / mean score (and tokens and cost for model agents)."""

    from datetime import datetime
    from pathlib import Path

    from harness.runs import layout
    from harness.runs.metrics import summarize
    from harness.runs.report import print_summary, print_usage
    from harness.runs.runner import run as run_all
    from harness.tasks.registry import TaskError
    try:
        chosen = chosen_tasks(pattern, split, per_family, seed)
    except TaskError as e:
        raise click.ClickException(str(e)) from None
    from harness.env.variant import VariantError
    from harness.runs.runner import chosen_variants
    try:
        variants = chosen_variants(variant_texts, n_variants, seed)
    except VariantError as e:
        raise click.BadParameter(str(e), param_hint="--variants" if n_variants else "--variant") from None
    try:
        chosen_agent = agent_spec(agent)
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    opts = {k2: v for k2, v in model_opts.items() if v is not None}
    if chosen_agent.model:
        try:
            make(agent, **opts)             # option and credential errors now, not in every episode
        except Exception as e:
            raise click.ClickException(str(e)) from None
    elif opts:
        raise click.ClickException(f"--{next(iter(opts)).replace('_', '-')} is for model agents "
                                   f"({', '.join(MODEL_AGENTS)}), not {agent}")
    from harness.qc.judge import Judge, JudgeError, grade_run
    try:
        chosen_judges = [Judge.parse(j) for j in judges]
    except JudgeError as e:
        raise click.ClickException(str(e)) from None
    out_dir = Path(out or f"runs/{datetime.now().strftime('%Y%m%d-%H%M%S')}-{agent.split(':')[0]}")
    if address and backend != "ray":
        raise click.ClickException("--address is for --backend ray")
    from harness.runs.ray_backend import RayBackendError
    from harness.runs.runner import ResumeMismatch
    try:
        run_all(agent, chosen, k=k, workers=workers, out=out_dir, resume=resume, trace=trace, seed=seed,
                agent_opts=opts or None, backend=backend, address=address, max_steps=max_steps, reward=reward,
                variants=variants)
    except (RayBackendError, ResumeMismatch) as e:
        raise click.ClickException(str(e)) from None
    if chosen_judges:
        rep = grade_run(out_dir, chosen_judges)
        click.echo(f"judged {rep['criteria']} criteria in {rep['episodes']} episodes"
                   + (f"; not graded: {'; '.join(rep['errors'])}" if rep["errors"] else ""))
    rows = layout.read_results(out_dir)
    summary = summarize(rows, k, {t.id: t for t in chosen})
    layout.write_summary(out_dir, summary)
    print_summary(summary)
    if summary.get("usage"):
        print_usage(summary["usage"])
    click.echo(f"Recorded in {out_dir}/  ·  view it: .venv/bin/deskworld view {out_dir}")


def chosen_tasks(pattern: str | None, split: str | None, per_family: str | None, seed: int) -> list:
    """The hand-made tasks matching ``pattern``; with ``split`` or ``per_family`` (``N`` or ``all``), the
    instances of the matching families instead (N per family drawn with ``seed``), as tasks."""
    from harness.tasks.registry import load_instance, select
    if split is None and per_family is None:
        return select(pattern)
    return [load_instance(r) for r in chosen_instances(pattern, split, per_family, seed)]


def chosen_instances(pattern: str | None, split: str | None, per_family: str | None, seed: int) -> list:
    """The instances of the families matching ``pattern`` in ``split``: ``per_family`` of each
    (``N`` drawn with ``seed``; ``all`` or None: every one)."""
    from harness.tasks.registry import sample_instances, select_instances
    if per_family is not None and per_family != "all" and not (per_family.isdigit() and int(per_family) > 0):
        raise click.BadParameter(f"a number of instances per family, or all — not {per_family!r}",
                                 param_hint="--instances")
    refs = select_instances(pattern, split=split)
    return sample_instances(refs, None if per_family in (None, "all") else int(per_family), seed)


@main.command()
@click.argument("pattern", required=False)
@click.option("--workers", default=1, show_default=True, type=int, help="Processes (each owns a browser).")
@click.option("--adversaries", is_flag=True, help="Also try every task's adversaries (false passes and false fails).")
@click.option("--tools-only", is_flag=True, help="Only the adversaries, without a browser (no oracle or do-nothing episode).")
@click.option("--json", "as_json", is_flag=True, help="Print the reports as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="Show every adversary's verdict, not only the wrong ones.")
@click.option("--instances", "per_family", default=None, metavar="N|all",
              help="Check N seeded instances of each family (non-zero variants first), or all of them.")
@click.option("--split", default=None, type=click.Choice(["train", "dev", "test"]), help="With --instances: only this split.")
@click.option("--seed", default=0, show_default=True, type=int, help="With --instances: which instances are drawn.")
@click.option("--variants", "variant_mode", is_flag=False, flag_value="axes", type=click.Choice(["axes", "all"]),
              help="Also run each oracle on one value of each variant axis beyond the default (all: every value).")
@click.option("--log", "log_path", default=None, type=click.Path(dir_okay=False),
              help="Append each task's report to this file (JSON lines) as it is checked; run again with the same "
                   "file to go on: tasks already checked there without a problem are skipped.")
def check(pattern: str | None, workers: int, adversaries: bool, tools_only: bool, as_json: bool, verbose: bool,
          per_family: str | None, split: str | None, seed: int, variant_mode: str | None,
          log_path: str | None) -> None:
    """Task QC: schema valid, oracle scores 1, do-nothing and junk answers score 0; with
    --adversaries, hedges, spam, duplicates, collateral writes, literals and memorised answers
    must fail and the task done other right ways must pass. With --instances, on instances of the
    task families instead of the hand-made tasks."""
    import time

    from rich.console import Console

    from harness.qc.adversaries.suite import totals
    from harness.qc.check import CheckLog, LogMismatch, check as run_check, print_reports, report_row, variant_set
    from harness.tasks.registry import TaskError, select
    variants = variant_set(variant_mode, tools_only)
    try:
        if per_family is None and split is None:
            chosen = select(pattern)
        else:          # ids: each worker renders its instances when it comes to them
            chosen = [r.id for r in chosen_instances(pattern, split, per_family, seed)]
    except TaskError as e:
        raise click.ClickException(str(e)) from None
    console = Console(stderr=as_json)
    log = None
    if log_path:
        try:
            log = CheckLog(log_path, {"pattern": pattern, "adversaries": adversaries, "tools_only": tools_only,
                                      "instances": per_family, "split": split, "seed": seed, "variants": variants})
        except LogMismatch as e:
            raise click.ClickException(str(e)) from None
        ids = [c if isinstance(c, str) else c.id for c in chosen]
        skip = log.done() & set(ids)
        if skip:
            console.print(f"{len(skip)} of {len(ids)} checked before without a problem ({log_path}): going on with "
                          f"the other {len(ids) - len(skip)}", style="dim")
            chosen = [c for c in chosen if (c if isinstance(c, str) else c.id) not in skip]
        if not chosen:
            console.print(f"all {len(ids)} checked before without a problem ({log_path})")
            return
    started = time.perf_counter()
    seen = [0]

    def progress(item) -> None:
        if isinstance(item, str):
            console.print(f"checked {item}", style="dim")
        elif hasattr(item, "problems"):                     # a report from a worker, as it arrives
            seen[0] += 1
            a = item.adversaries
            bad = item.problems + ([f"false pass: {o.name}" for o in a.false_passes]
                                   + [f"false fail: {o.name}" for o in a.false_fails] if a else [])
            if bad:
                console.print(f"{item.task}: {'; '.join(bad)}", style="red")
            if seen[0] % 100 == 0 or seen[0] == len(chosen):
                rate = seen[0] / max(time.perf_counter() - started, 1e-9) * 60
                console.print(f"{seen[0]} of {len(chosen)} checked ({rate:.0f} per minute)", style="dim")
        else:
            console.print(f"checking {item.id} …", style="dim")
    reports, overall = run_check(chosen, workers=workers, adversaries=adversaries, tools_only=tools_only,
                                 progress=progress, variants=variants, on_report=log.write if log else None)
    elapsed = time.perf_counter() - started
    suites = [r.adversaries for r in reports if r.adversaries is not None]
    if as_json:
        click.echo(json.dumps({"tasks": [report_row(r) for r in reports],
                               "overall": overall, **({"adversaries": totals(suites)} if suites else {})},
                              indent=2, default=str))
    else:
        print_reports(console, reports, suites, tools_only=tools_only, verbose=verbose, variants=variants)
    failed = [r for r in reports if not r.ok]
    families = {"/".join(r.task.split("/")[:2]) for r in reports}
    console.print(f"{len(reports)} {'instances' if per_family else 'tasks'} of {len(families)} families checked in "
                  f"{elapsed:.0f} s ({len(reports) / max(elapsed, 1e-9) * 60:.1f} per minute, {workers} "
                  f"worker{'s' if workers != 1 else ''}): {len(failed)} with problems"
                  + (f"; every report in {log_path}" if log else ""))
    for line in overall:
        console.print(f"[red]{line}[/red]")
    if overall or failed:
        raise SystemExit(1)


@main.command("regrade")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--write", is_flag=True, help="Replace the recorded results with the new ones (the old kept in result.json).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def regrade_cmd(run_dir: str, write: bool, as_json: bool) -> None:
    """Score a run's episodes again with today's tasks and verifiers; print what changed."""
    from rich.console import Console
    from rich.table import Table

    from harness.runs.regrade import RegradeError, regrade
    console = Console()
    try:
        rep = regrade(run_dir, write=write)
    except RegradeError as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        click.echo(json.dumps(rep.to_dict(), indent=2, default=str))
        return
    per = rep.per_task()
    if per:
        table = Table(title=f"regraded {rep.episodes} episodes: {len(rep.changes)} changed")
        for col in ("task", "pass → fail", "fail → pass", "score only"):
            table.add_column(col)
        for tid, c in sorted(per.items()):
            table.add_row(tid, str(c["pass → fail"]), str(c["fail → pass"]), str(c["score"]))
        console.print(table)
        for c in rep.changes:
            console.print(f"  {c.task}/{c.sample} r{c.revision[0]}→r{c.revision[1]}: "
                          f"{'passed' if c.before[0] else 'failed'} {c.before[1]:g} → "
                          f"{'passed' if c.after[0] else 'failed'} {c.after[1]:g}"
                          + (f" — {c.lines[0][:160]}" if c.lines else ""), markup=False, highlight=False)
    else:
        console.print(f"regraded {rep.episodes} episodes: nothing changed")
    for s in rep.skipped:
        console.print(f"  skipped {s}", style="dim")
    if rep.worlds_changed:
        console.print(f"note: the world files of {', '.join(sorted(rep.worlds_changed))} changed since the run; "
                      "expected values are computed from today's files", style="yellow")
    if write and rep.changes:
        console.print(f"wrote the new results into {run_dir}")


@main.command("grade")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--judge", "judges", multiple=True, required=True,
              help="provider:model[@base_url] — anthropic, openai or vlm (OpenAI-compatible); twice for a second vote.")
@click.option("--base-url", default=None, help="Base URL for judges that don't name one.")
@click.option("--regrade", is_flag=True, help="Grade judge criteria again, not only pending ones.")
def grade_cmd(run_dir: str, judges: tuple[str, ...], base_url: str | None, regrade: bool) -> None:
    """Grade a finished run's rubric ``judge`` criteria with a model judge (cached; changes score, not passed)."""
    from rich.console import Console

    from harness.qc.judge import Judge, JudgeError, grade_run
    from harness.runs.report import print_usage
    console = Console()
    try:
        chosen = [Judge.parse(j, base_url=base_url) for j in judges]
        rep = grade_run(run_dir, chosen, regrade=regrade, progress=lambda t: console.print(f"graded {t}", style="dim"))
    except JudgeError as e:
        raise click.ClickException(str(e)) from None
    for err in rep["errors"]:
        console.print(f"[red]not graded: {err}[/red]")
    console.print(f"{rep['criteria']} criteria graded in {rep['episodes']} episodes "
                  f"({rep['cached']} judge answers from the cache) by {', '.join(j.label for j in chosen)}")
    if rep["usage"]:
        n = rep["episodes"] or 1
        print_usage({k: {**u, "episodes": rep["episodes"], "cost_per_episode_usd":
                         None if u["cost_usd"] is None else u["cost_usd"] / n} for k, u in rep["usage"].items()},
                    console)
    if rep["errors"]:
        raise SystemExit(1)


@main.command("export")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--format", "fmt", type=click.Choice(["imagefolder", "messages"]), required=True)
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option("--images", type=click.Choice(["inline", "files"]), default="inline", show_default=True,
              help="messages: images as data URLs or as copied files.")
def export_cmd(run_dir: str, fmt: str, out: str, images: str) -> None:
    """Export a run as a Hugging Face ImageFolder (one row per step) or as chat messages for SFT."""
    from harness.runs.export import ExportError, export_run
    try:
        rep = export_run(run_dir, out, fmt, images=images)
    except ExportError as e:
        raise click.ClickException(str(e)) from None
    for s in rep["skipped"]:
        click.echo(f"skipped {s['episode']}: {s['reason']}", err=True)
    click.echo(f"{rep['format']}: {rep['episodes']} episodes, {rep['rows']} rows → {rep['out']}")


@main.command("export-media")
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--overwrite", is_flag=True, help="Rewrite media that already exist.")
def export_media_cmd(run_dir: str, overwrite: bool) -> None:
    """Write each episode's animated preview (GIF/WebP, with the actions drawn) and contact sheet."""
    from harness.runs.media import export_media
    written = export_media(run_dir, overwrite=overwrite)
    for p in written:
        click.echo(p)
    for w in written.warnings:
        click.echo(f"skipped: {w}", err=True)
    click.echo(f"{len(written)} files written, {len(written.unchanged)} episodes already had media, "
               f"{len(written.warnings)} skipped")


@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--port", default=8780, show_default=True, type=int)
@click.option("--host", default="127.0.0.1", show_default=True)
def view(run_dir: str, port: int, host: str) -> None:
    """Browse a recorded run: results, each episode's steps and screenshots, verdicts."""
    from werkzeug.serving import run_simple

    from harness.viewer import create_viewer
    click.echo(f"deskworld: viewing {run_dir} at http://{host}:{port}/")
    run_simple(host, port, create_viewer(run_dir), threaded=True, use_reloader=False)



@main.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def qc(run_dir: str, as_json: bool) -> None:
    """Verifier QC: agreement between the verifier and human labels (labels.json) over a run."""

    from pathlib import Path

    from rich.console import Console
    from rich.table import Table

    from harness.qc.agreement import compute
    rep = compute(Path(run_dir))
    if as_json:
        click.echo(json.dumps(rep, indent=2, ensure_ascii=False, default=str))
        return

    def pct(x):
        return "—" if x is None else f"{x:.0%}"

    def rho(x):
        return "—" if x is None else f"{x:.2f}"
    console = Console()
    o = rep["overall"]
    if not rep["labelled"]:
        console.print(f"No human labels in {run_dir} (grade episodes in `deskworld view {run_dir}`).")
        return
    table = Table(title=f"Verifier QC · {rep['labelled']} labelled episodes")
    for col in ("task", "labelled", "accuracy", "false pass", "false fail", "spearman"):
        table.add_column(col, justify="left" if col == "task" else "right", overflow="fold")
    for tid, a in rep["per_task"].items():
        table.add_row(tid, str(a["n"]), pct(a["accuracy"]), str(a["false_pass"]), str(a["false_fail"]),
                      rho(a["spearman"]))
    table.add_section()
    table.add_row("[bold]all[/bold]", str(o["n"]), pct(o["accuracy"]), str(o["false_pass"]), str(o["false_fail"]),
                  rho(o["spearman"]))
    console.print(table)
    if rep["per_criterion"]:
        ct = Table(title="Per rubric criterion")
        for col in ("task", "criterion", "kind", "graded", "human mean", "accuracy", "false pass", "false fail"):
            ct.add_column(col)
        for c in rep["per_criterion"]:
            ct.add_row(c["task"], c["criterion"], c["kind"], str(c["graded"]), f"{c['human_mean']:.2f}",
                       pct(c["accuracy"]) if c["n"] else "pending", str(c["false_pass"]), str(c["false_fail"]))
        console.print(ct)
    if rep["disagreements"]:
        dt = Table(title="Review first")
        for col in ("kind", "episode", "verifier", "human", "gap", "note"):
            dt.add_column(col)
        for d in rep["disagreements"]:
            dt.add_row(("[red]" if d["severity"] < 2 else "[yellow]") + d["kind"], f"{d['task']} #{d['sample']}",
                       f"{'pass' if d['verifier_passed'] else 'fail'} {d['verifier_score']:.2f}",
                       f"{'pass' if d['human_passed'] else 'fail'} {d['human_score']:.2f}", f"{d['gap']:.2f}",
                       d["note"][:60])
        console.print(dt)
    for s in rep["skipped"]:
        console.print(f"[dim]left out {s['task']} #{s['sample']}: {s['reason']}[/dim]")


@main.command()
@click.option("-n", "n", default=20, show_default=True, type=int, help="Repetitions per latency.")
@click.option("--steps", default=40, show_default=True, type=int, help="Steps per worker for throughput.")
@click.option("--workers", default="1,2,4", show_default=True, help="Worker counts for throughput.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False), default=None, help="Also write the figures here.")
def bench(n: int, steps: int, workers: str, json_out: str | None) -> None:
    """Measure reset, step latency, throughput and memory against bare Playwright."""
    from harness.bench.speed import print_table, run as run_bench
    res = run_bench(n=n, throughput_steps=steps, workers=tuple(int(w) for w in workers.split(",")))
    print_table(res)
    if json_out:
        with open(json_out, "w") as f:
            json.dump(res, f, indent=2, default=str)


from harness.tools.cli import app as app_cmd, mcp as mcp_cmd  # noqa: E402  (the tools: issue 9)

main.add_command(app_cmd)
main.add_command(mcp_cmd)

from harness.servers.envserver import env_server  # noqa: E402  (env server: issue 9)

main.add_command(env_server)

from harness.human.cli import record  # noqa: E402  (people in the loop: issue 22)

main.add_command(record)

from harness.integrations.harbor_cli import export_tasks, harbor  # noqa: E402  (Harbor task folders: issue 23)
main.add_command(export_tasks)
main.add_command(harbor)


if __name__ == "__main__":
    sys.exit(main())

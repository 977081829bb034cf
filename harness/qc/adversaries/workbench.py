"""A world's template slot for trying attempts at a task without a browser.

An **attempt** is what an agent leaves behind: the end state, its final answer
and how it ended (``complete`` or ``infeasible``). The workbench makes attempts
from a task's tool solution (``solution:`` in the task file), from a snapshot
of an episode's end (the GUI oracle's), or from either plus more writes, and
scores them with the real ``verify()``. Every write goes through the apps'
service layer as actor ``agent``, and each call is one agent step: world time
moves and the co-workers act after it, as in an episode.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from apps.core.store.compile import template_for
from apps.core.store.db import Store
from apps.core.store.export import diff as state_diff
from apps.core.store.export import export, export_since, lazy_diff, lazy_export
from apps.core.store.slot import Slot
from apps.core.world import load_world
from apps.coworkers import principal
from apps.coworkers.engine import set_scenario, tick
from harness.tools.registry import Tool, ToolError, get_tool, make
from harness.verify import Result, verify
from harness.verify.checks import Ctx, _select


class SolutionError(RuntimeError):
    """A solution step could not be carried out (the message names the task and the step)."""


@dataclass
class Attempt:
    final: dict
    answer: str | None = None
    status: str = "complete"


@dataclass
class Ending:
    answer: str | None = None
    status: str = "complete"


def callable_tool(ref: str) -> Tool:
    """A tool by name (``mail.reply``) or a service function (``apps.chat.service:pin``) as a tool."""
    if ":" not in ref:
        return get_tool(ref)
    mod, _, fn = ref.partition(":")
    if not mod.startswith("apps.") or not mod.endswith("service"):
        raise SolutionError(f"{ref}: a solution calls a tool or an apps.<app>.service function")
    func = getattr(importlib.import_module(mod), fn, None)
    if func is None or fn.startswith("_"):
        raise SolutionError(f"{mod} has no public function {fn!r}")
    return make(func, ref, func.__doc__ or ref, write=True)


class Benches:
    """Workbenches by world reference (``meridian``, ``meridian@17``), the last ``keep`` open: checking
    thousands of instances over hundreds of variants holds a few templates at a time (check instances
    sorted by variant)."""

    def __init__(self, keep: int = 3):
        self.keep = keep
        self.open: dict[str, Workbench] = {}

    def __getitem__(self, ref: str) -> "Workbench":
        wb = self.open.pop(ref, None) or Workbench(ref)
        self.open[ref] = wb                       # most recent last
        while len(self.open) > self.keep:
            self.open.pop(next(iter(self.open))).close()
        return wb

    def close(self) -> None:
        for wb in self.open.values():
            wb.close()
        self.open.clear()


class Workbench:
    """One world's template (``meridian`` or a variant ``meridian@17``) in a memory slot;
    ``attempt()`` runs writes on a fresh copy."""

    def __init__(self, world: str):
        self.world = load_world(world)
        self.slot = Slot(template_for(self.world))
        with self.slot.store() as st:
            self.initial = export(st)
            self.default_user = st.meta("default_user")
            self.step_seconds = float(st.meta("step_seconds", "30"))

    def close(self) -> None:
        self.slot.close()

    # ------------------------------------------------------------------ making attempts
    @contextmanager
    def fresh(self, task, snapshot: bytes | None = None):
        """The store of a fresh slot for ``task`` (its scenario on), or of ``snapshot``."""
        self.slot.restore(snapshot)
        with self.slot.store() as st:
            if snapshot is None:
                set_scenario(st, task.coworkers)
            yield st

    def user_of(self, task) -> str:
        return task.user or self.default_user

    def step(self, st: Store, task) -> None:
        st.advance(task.step_seconds or self.step_seconds)
        tick(st)

    def ask(self, st: Store, task, text: str) -> None:
        """An ``ask_user`` step: the question to the task's principal, then one agent step (they answer)."""
        if task.principal is not None:
            p = task.principal
            principal.ask(st, self.user_of(task), p.person, text, via=p.via, cant_help=p.cant_help)
        self.step(st, task)

    def call(self, st: Store, task, ref: str, args: Mapping | None = None, *, user: str | None = None):
        """One tool or service call as the task's user (actor ``agent``), then one agent step."""
        tool = callable_tool(ref)
        try:
            out = tool.call(st, user or self.user_of(task), resolve(st, self, args or {}))
        except ToolError as e:
            raise SolutionError(f"{task.id}: {ref}: {e.message}") from None
        self.step(st, task)
        return out

    def run_steps(self, st: Store, task, steps, transform: Callable[[str, dict], dict] | None = None,
                  lenient: bool = False) -> Ending:
        """Carry out solution steps on ``st``; ``transform(call, args)`` may rewrite each call's arguments.
        ``lenient``: a call that fails is an agent's action that errored — the step passes, nothing is written."""
        end = Ending()
        for s in steps:
            if s.call is not None:
                args = dict(s.args)
                if transform is not None:
                    args = transform(s.call, args)
                try:
                    self.call(st, task, s.call, args)
                except SolutionError:
                    if not lenient:
                        raise
                    self.step(st, task)
            elif s.wait is not None:
                for _ in range(s.wait):
                    self.step(st, task)
            elif s.ask is not None:
                self.ask(st, task, s.ask)
            else:
                end = Ending(s.done.get("answer"), s.done.get("status", "complete"))
        return end

    def attempt(self, task, steps=(), *, snapshot: bytes | None = None, ending: Ending | None = None,
                then: Callable[[Store], Any] | None = None, transform=None, lenient: bool = False) -> Attempt:
        """Run ``steps`` (then ``then(store)``) on a fresh slot or on ``snapshot``; the end as an attempt."""
        with self.fresh(task, snapshot) as st:
            end = self.run_steps(st, task, steps, transform, lenient)
            if then is not None:
                then(st)
            final = export_since(st, self.initial)
        end = ending or end
        return Attempt(final, end.answer, end.status)

    def score(self, task, attempt: Attempt) -> Result:
        return verify(task, self.initial, attempt.final, state_diff(self.initial, attempt.final),
                      answer=attempt.answer, done_status=attempt.status, world_root=self.world.root)

    def snapshot(self) -> bytes:
        return self.slot.serialize()

    def resolved(self, task, steps, i: int) -> dict:
        """Step ``i``'s arguments as they resolve after the steps before it (finds made concrete)."""
        with self.fresh(task) as st:
            self.run_steps(st, task, steps[:i])
            return resolve(st, self, steps[i].args)


def resolve(st: Store, bench: Workbench, args):
    """Arguments with every ``{find: query}`` replaced by the key of the one record it matches now."""
    if isinstance(args, Mapping):
        if "find" in args and set(args) <= {"find", "field"}:
            return _find(st, bench, args["find"], args.get("field"))
        return {k: resolve(st, bench, v) for k, v in args.items()}
    if isinstance(args, list):
        return [resolve(st, bench, v) for v in args]
    return args


def _find(st: Store, bench: Workbench, query: dict, field: str | None):
    now = lazy_export(st)
    ctx = Ctx(initial=bench.initial, final=now, diff=lazy_diff(bench.initial, now))
    rows = _select(ctx, query)
    if len(rows) != 1:
        raise SolutionError(f"find {query} matches {len(rows)} records (it must match one)")
    key, rec = next(iter(rows.items()))
    if field is not None:
        return rec.get(field)
    return int(key) if key.isdigit() else key

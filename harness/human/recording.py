"""``Recording``: the tasks a person records, one after another, into a run folder as agent ``human:<name>``
(on the record page's screenshot — ``harness.human.live.HumanAgent`` — or, ``direct``, in a real window —
``harness.human.direct.DirectAgent``), the verdict shown after each."""
from __future__ import annotations

import threading
import time
from pathlib import Path

from harness.human.direct import DirectAgent
from harness.human.live import HumanAgent, Live, Stopped, WindowClosed, verdict_of
from harness.runs import layout


class Recording:
    """The tasks a person records, one after another, into the run folder ``out``."""

    def __init__(self, tasks: list, name: str, out: Path, live: Live | None = None, env_factory=None,
                 variant=None, direct: bool = False):
        from harness.env import DeskEnv
        from harness.env.variant import Variant
        self.tasks, self.name, self.out = list(tasks), name, Path(out)
        self.variant = Variant.of(variant) if variant is not None else None   # the screen the person sees
        self.agent_name = f"human:{name}"
        self.direct = direct             # --direct: the person works in a real window (harness.human.direct)
        self.live = live or Live()
        self.env_factory = env_factory or DeskEnv
        self.rows: list[dict] = []
        self.thread: threading.Thread | None = None
        self.error: str | None = None
        self.env = None                  # the episode's env, once the first task starts
        self.agent = None                # and the person, as the episode loop's agent

    def prepare(self) -> None:
        """Write (or, going on with a folder this person started, extend) the run's ``run.json``; a folder
        of another run is refused (``ResumeMismatch``) before anything in it is touched."""
        from harness.runs.runner import _check_resume, _run_identity, _start_run_json
        ident = _run_identity(self.agent_name, self.tasks, 1, 0, None,
                              variants=[self.variant] if self.variant is not None else None)
        old = _check_resume(self.out, ident, self.agent_name)
        self.out.mkdir(parents=True, exist_ok=True)
        pending = len([t for t in self.tasks if t.id not in self.done_before()])
        _start_run_json(self.out, {**ident, "human": {"name": self.name, "mode": "direct" if self.direct else "screenshot"}}, 1, "local", old,
                        pending=pending)

    def _write_summary(self) -> None:
        from harness.runs.metrics import summarize
        from harness.runs.runner import _finish_run_json
        rows = layout.read_results(self.out)
        layout.write_summary(self.out, summarize(rows, 1, {t.id: t for t in self.tasks}))
        _finish_run_json(self.out, False, added=0)

    def done_before(self) -> set[str]:
        return {r["task"] for r in layout.read_results(self.out) if r.get("agent") == self.agent_name}

    def start(self) -> "Recording":
        self.thread = threading.Thread(target=self._main, name="deskworld-record", daemon=True)
        self.thread.start()
        return self

    def stop(self, timeout: float = 30.0) -> None:
        self.live.stop()
        if self.thread is not None:
            self.thread.join(timeout)

    def _main(self) -> None:
        from harness.runs.episode import run_episode
        from harness.runs.recorder import EpisodeRecorder
        done = self.done_before()
        todo = [t for t in self.tasks if t.id not in done]
        total = len(self.tasks)
        env = None
        rec = None
        try:
            if todo:
                kw = {**({"variant": self.variant} if self.variant is not None else {}),
                      **({"headed": True} if self.direct else {})}
                env = self.env = self.env_factory(todo[0], **kw)
            if self.direct:
                agent = DirectAgent(self.live, env, self.name)
            else:
                agent = HumanAgent(self.live, env, self.name)
            self.agent = agent
            for task in todo:
                index = self.tasks.index(task) + 1
                self.live.publish("starting", task=task.id, title=task.title, index=index, total=total, step=0,
                                  max_steps=task.max_steps, can_ask=task.principal is not None, verdict=None,
                                  error="", user_reply="", url="", goal="")
                t0 = time.perf_counter()
                while True:
                    rec = EpisodeRecorder(self.out, task.id, 0)
                    try:
                        row = run_episode(env, agent, task, sample=0, recorder=rec, variant=self.variant)
                        break
                    except WindowClosed:
                        rec.abandon()
                        self.live.publish("starting", step=0, url="", user_reply="",
                                          error="the window was closed: the task starts again from its beginning")
                rec = None
                layout.append_result(self.out, row)
                self.rows.append(row)
                self._write_summary()
                verdict = verdict_of(layout.episode_dir(self.out, task.id, 0), row)
                verdict["wall_seconds"] = round(time.perf_counter() - t0, 1)
                png = env.unwrapped.session.last_png()
                if task is not todo[-1]:
                    self.live.publish("verdict", png=png, verdict=verdict)
                    self.live.wait_next()
                else:
                    self.live.publish("finished", png=png, verdict=verdict, summary=self.summary())
            if not todo:
                self.live.publish("finished", verdict=None, summary=self.summary())
        except Stopped:
            if rec is not None:
                rec.abandon()
        except Exception as e:                     # the env could not start: say so on the page
            self.error = f"{type(e).__name__}: {e}".splitlines()[0]
            if rec is not None:
                rec.abandon()
            self.live.publish("failed", message=self.error)
        finally:
            if env is not None:
                try:
                    env.close()
                except Exception:
                    pass

    def summary(self) -> dict:
        rows = [r for r in layout.read_results(self.out) if r.get("agent") == self.agent_name]
        return {"tasks": len(rows), "passed": sum(1 for r in rows if r.get("passed")),
                "score": round(sum(float(r.get("score") or 0) for r in rows) / len(rows), 3) if rows else None,
                "seconds": round(sum(float(r.get("seconds") or 0) for r in rows), 1)}


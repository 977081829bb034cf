"""The task file format (``worlds/<world>/tasks/<name>.yaml``), validated by pydantic.

The id is the path: ``<world>/<name>``; there is no id field to drift. A task
is a prompt plus what makes it pass: ``checks`` on the final state,
an ``answer`` matched against ``done(answer=…)``, an optional weighted
``rubric``, or ``infeasible`` (the right move is ``done`` with status
``infeasible``). Every task has an ``oracle``: GUI steps with user-facing
locators that solve it.
"""
from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


# The sentence every goal ends with (DESIGN.md, "Goals"): how to answer, so no prompt has to say it.
ANSWER_SENTENCE = ("When you are done, say so in a short final message. If the task asks for information, "
                   "end that message with ANSWER: followed by the answer. If the task can't be done, "
                   "say so and why, and finish as infeasible.")

# Where "start: <app>" opens (the app's first page, without a redirect).
APP_HOMES = {"mail": "/mail/inbox", "drive": "/drive/my-drive"}


class Difficulty(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AnswerSpec(_M):
    """How ``done(answer=…)`` is matched.

    - ``number``: ``value`` (or ``value_from``) ± ``tolerance`` (or to ``decimals`` places); currency and units stripped
      (with ``unit``, the value in a unit of another quantity — DWT for GT, litres for bbl — fails;
      with ``scale``, a bare figure smaller than the scale is read in it: "401.5" when asked in $m;
      with ``exact``, the figure offered as approximate — "about", "roughly", "c.", "~" — fails);
    - ``date``: any common format, in the world's locale;
    - ``string``: normalised (case, spacing, punctuation); ``aliases`` also accepted;
    - ``set``: every item of ``values`` named, nothing else (order free).
    """
    type: Literal["number", "date", "string", "set"]
    value: Any = None
    unit: str | None = None                # number: what it measures ("bbl", "GT", "x" a multiple); another unit is wrong
    scale: float | None = None             # number: the unit the prompt asks figures in (1e6 for "$m"): a bare
                                           #   figure smaller than it ("401.5") is read in it
    value_from: str | None = None          # "module:function" in the world's checks.py, computed from the start state
    tolerance: float = 0
    exact: bool = False                    # number: the prompt asks for the exact figure ("exactly", "to the
                                           #   dollar"): the figure offered as approximate ("about $X") fails
    decimals: int | None = None            # number: the prompt asks for the figure to this many decimals (in its
                                           #   scale): the tolerance is half a unit of the last, centred on the
                                           #   unrounded figure, and a figure written to more decimals must be
                                           #   right to its own ("11.03" is not 11.0667 though "11.1" and "11.07" are)
    aliases: list[str] = []
    values: list[str] = []

    @model_validator(mode="after")
    def _need_value(self):
        if self.decimals is not None:
            if self.type != "number" or self.decimals < 0:
                raise ValueError("decimals: a whole number of decimal places, for a number answer")
            half = 0.5 * 10 ** -self.decimals * (self.scale or 1)
            if self.tolerance and abs(self.tolerance - half) > 1e-9 * max(1.0, half):
                raise ValueError(f"decimals: {self.decimals} means a tolerance of {half:g}; leave tolerance out")
            self.tolerance = half
        if self.type == "set":
            if not self.values:
                raise ValueError("a set answer needs values")
        elif self.value is None and self.value_from is None:
            raise ValueError("give value or value_from")
        return self


class Locator(_M):
    """A user-facing way to find an element (role + name, label, text, placeholder)."""
    role: str | None = None
    name: str | None = None
    label: str | None = None
    text: str | None = None
    placeholder: str | None = None
    exact: bool = False
    within: "Locator | None" = None        # search inside another element (a dialog, a row)
    nth: int = 0

    @model_validator(mode="after")
    def _one_kind(self):
        kinds = [k for k in ("role", "label", "text", "placeholder") if getattr(self, k)]
        if len(kinds) != 1:
            raise ValueError("a locator needs exactly one of role, label, text, placeholder")
        if self.name and not self.role:
            raise ValueError("name goes with role")
        return self


class OracleStep(_M):
    """One step of an oracle: exactly one of the keys below."""
    goto: str | None = None
    click: Locator | None = None
    dblclick: Locator | None = None
    rclick: Locator | None = None
    hover: Locator | None = None
    fill: dict | None = None                # {target: Locator, text: str}
    type: str | None = None
    press: str | None = None
    check: Locator | None = None
    drag: dict | None = None                # {source: Locator, target: Locator}
    scroll: dict | None = None              # {target: Locator} (into view) or {dy: int}
    expect: Locator | None = None           # wait until visible
    expect_url: str | None = None           # regex
    ask: str | None = None                  # ask the task's principal (the ``ask_user`` action)
    done: dict | None = None                # {status, answer}

    @model_validator(mode="after")
    def _exactly_one(self):
        set_ = [k for k, v in self.__dict__.items() if v is not None]
        if len(set_) != 1:
            raise ValueError(f"an oracle step has exactly one action, got {set_ or 'none'}")
        return self

    @property
    def kind(self) -> str:
        return next(k for k, v in self.__dict__.items() if v is not None)


class SolutionStep(_M):
    """One step of a task's tool solution (the task done through the tools, as an MCP agent would):

    - ``call``: a tool (``mail.reply``, see ``deskworld app``) or a service function
      (``apps.chat.service:pin``; its ``caller``/``user`` is the task's user) with ``args``;
      an argument ``{find: {table, where, …}}`` is the key of the one record that query
      matches when the step runs (``{find: …, field: thread}``: that record's field);
    - ``wait``: let N agent steps pass (co-workers answer);
    - ``ask``: a question to the task's principal (the ``ask_user`` action);
    - ``done``: ``{answer, status}`` — how the agent ends.
    Each call is one agent step: world time moves and co-workers act after it."""
    call: str | None = None
    args: dict = {}
    wait: int | None = Field(None, ge=1, le=50)
    ask: str | None = Field(None, min_length=1, max_length=2000)
    done: dict | None = None

    @model_validator(mode="after")
    def _one(self):
        kinds = [k for k in ("call", "wait", "ask", "done") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"a solution step has exactly one of call, wait, ask, done; got {kinds or 'none'}")
        if self.args and self.call is None:
            raise ValueError("args go with call")
        if self.done is not None and set(self.done) - {"answer", "status"}:
            raise ValueError("done takes answer and status")
        return self


class AdversarySpec(_M):
    """A task's own adversary, for what the generic ones can't express: solution steps on the
    start (``base: start``) or after the tool solution (``base: solution``), then the verdict
    a careful grader gives. ``clause`` quotes the words of the prompt it tests ("Don't change
    the entries themselves"): every negative requirement in a prompt has one."""
    name: str
    expect: Literal["fail", "below", "pass"]
    base: Literal["start", "solution"] = "solution"
    steps: list[SolutionStep] = []
    clause: str | None = None
    why: str = ""


class Criterion(_M):
    """A rubric line: a check (graded by the state) or a ``judge`` instruction (graded later)."""
    name: str
    weight: float = Field(1.0, gt=0)
    check: dict | None = None
    judge: str | None = None
    # For a judge: the records it is shown (queries in the checks' language, on the final state).
    evidence: list[dict] = []

    @model_validator(mode="after")
    def _one(self):
        if (self.check is None) == (self.judge is None):
            raise ValueError("a criterion has either check or judge")
        if self.evidence and self.judge is None:
            raise ValueError("evidence is for judge criteria")
        for q in self.evidence:
            if not isinstance(q, dict) or not q.get("table"):
                raise ValueError("each evidence query needs a table (and optionally where, new, changed, by)")
        return self


class Checkpoint(_M):
    """A milestone of a long task: a set of checks that hold once that part of the work is done
    (the hearing is on the calendar, the claim figure is updated, the letter is filed).

    The verifier reports each checkpoint at the end, and the score of a task with checkpoints is
    the weighted share it reached. ``after`` names earlier checkpoints it depends on: it counts
    only when they are reached too. ``answer: true`` makes the task's answer a checkpoint (it is
    judged at the end). ``at_end: true`` marks a checkpoint whose checks are unsafe to evaluate
    mid-episode (a "nothing else" that holds trivially before the work starts, a count that the
    agent could still overshoot): it is judged only when the episode ends and earns its reward
    then. Every other checkpoint is judged after each step that wrote something, and
    ``DeskEnv(reward="milestones")`` pays its weight on the step it first holds."""
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str = ""                         # what it means, for people ("hearing on the calendar")
    weight: float = Field(1.0, gt=0)
    checks: list[dict] = []
    answer: bool = False
    after: list[str] = []
    at_end: bool = False
    # Documents whose blanks this checkpoint's work fills: while it isn't reached, a blank filled in
    # one of them (a block that reads as before but for its ``[…]`` placeholders) is work in progress,
    # not damage — it earns nothing and costs nothing (harness.verify).
    progress: list[str] = []

    @model_validator(mode="after")
    def _something(self):
        if not self.checks and not self.answer:
            raise ValueError(f"checkpoint {self.name!r} needs checks (or answer: true)")
        if self.answer and self.checks:
            raise ValueError(f"checkpoint {self.name!r}: the answer checkpoint has no checks of its own")
        return self


class Principal(_M):
    """Who gave the task, and how ``ask_user`` reaches them (a chat DM; ``via: mail``: a mail).
    Their answers are their co-worker triggers (``coworkers.yaml``) the task turns on, as for any
    co-worker; a question no trigger matches gets ``cant_help``."""
    person: str
    via: Literal["chat", "mail"] = "chat"
    cant_help: str = "Sorry, I can't help with that — it's all in what you have."


class Task(_M):
    revision: int = Field(ge=1)
    title: str
    apps: list[Literal["mail", "drive", "chat", "docs", "sheets", "slides", "calendar", "crm", "tickets"]]
    start: str = "mail"                    # an app name or a path like /drive/shared
    user: str | None = None                # default: the world's user
    prompt: str
    max_steps: int = Field(40, ge=1, le=2000)
    tags: list[str] = []
    difficulty: Difficulty = Difficulty.MEDIUM
    checks: list[dict] = []
    answer: AnswerSpec | None = None
    rubric: list[Criterion] = []
    infeasible: str | None = None          # why it can't be done
    explain: dict | None = None            # infeasible tasks: a condition the agent's explanation meets
    allow: list[dict] = []                 # queries {table, where, new?, fields?}: records the agent may also change
    progress: list[str] = []               # documents whose blanks it fills (a composite's checkpoints: work in progress)
    guard: bool = True                     # collateral-damage guard
    step_seconds: float | None = None
    coworkers: list[str] = []              # scenario triggers this task turns on: "<person>:<trigger id>"
    checkpoints: list[Checkpoint] = []     # milestones, in order (the score is the weighted share reached)
    principal: Principal | None = None     # who ``ask_user`` asks (default: nobody answers — "can't help")
    oracle: list[OracleStep] = Field(min_length=1)
    solution: list[SolutionStep] = []      # the same task done through the tools (worded differently)
    adversaries: list[AdversarySpec] = []  # the task's own adversaries (harness/adversaries)

    # A family (harness/tasks/families.py): read before rendering, so they are only recorded here.
    variants: Literal["all"] | None = None
    params: dict[str, dict] = {}

    # Set by the registry, not the file.
    id: str = Field("", exclude=True)
    world: str = Field("", exclude=True)
    family: str = Field("", exclude=True)            # the family's id (the hand-made task's id)
    variant: int = Field(0, exclude=True)            # the world variant the instance is set in
    param_values: dict = Field({}, exclude=True)     # the params' values (facts: numbers, names, mappings)
    split: str = Field("train", exclude=True)
    parts_of: list[str] = Field([], exclude=True)    # a composite's parts (their ids), in order

    @property
    def world_ref(self) -> str:
        """The world as the instance sees it: ``meridian`` or ``meridian@17``."""
        return self.world if not self.variant else f"{self.world}@{self.variant}"

    @field_validator("allow", mode="before")
    @classmethod
    def _allow_queries(cls, v):
        for i, q in enumerate(v or []):
            if not isinstance(q, dict) or not isinstance(q.get("table"), str):
                raise ValueError(f"allow[{i}] is {q!r}: name the records by a query "
                                 "{table, where, new?, fields?} (the share on one item, the messages in one thread), "
                                 "not a whole table")
            unknown = set(q) - {"table", "where", "new", "changed", "by", "fields"}
            if unknown:
                raise ValueError(f"allow[{i}] has unknown keys {sorted(unknown)}")
        return v

    @model_validator(mode="after")
    def _something_to_verify(self):
        if not (self.checks or self.answer or self.infeasible or self.rubric or self.checkpoints):
            raise ValueError("a task needs checks, an answer, a rubric, checkpoints or infeasible")
        last = self.oracle[-1]
        if last.kind != "done":
            raise ValueError("the oracle's last step is done")
        if self.infeasible and (last.done or {}).get("status") != "infeasible":
            raise ValueError("an infeasible task's oracle ends with done status infeasible")
        if self.explain is not None and not self.infeasible:
            raise ValueError("explain is for infeasible tasks (the condition their explanation meets)")
        if self.checkpoints:
            names: list[str] = []
            for c in self.checkpoints:
                if c.name in names:
                    raise ValueError(f"checkpoint {c.name!r} is listed twice")
                for dep in c.after:
                    if dep not in names:
                        raise ValueError(f"checkpoint {c.name!r}: after {dep!r}, which is not an earlier checkpoint")
                names.append(c.name)
            if self.rubric:
                raise ValueError("a task scores by its checkpoints or by a rubric, not both")
            if self.progress:
                raise ValueError("progress: with checkpoints, name the documents on the checkpoints whose "
                                 "work fills their blanks (checkpoints[].progress)")
            if any(not spec.get("gate") for spec in self.checks):
                raise ValueError("with checkpoints, every check belongs to a checkpoint; top-level checks are "
                                 "gates (gate: true), the constraints that must hold for any credit")
            if self.answer is not None and not any(c.answer for c in self.checkpoints):
                raise ValueError("the task asks for an answer: give it a checkpoint with answer: true")
            if self.answer is None and any(c.answer for c in self.checkpoints):
                raise ValueError("a checkpoint has answer: true but the task asks for no answer")
        for a in self.adversaries:
            if a.clause and a.clause.lower() not in " ".join(self.prompt.split()).lower():
                raise ValueError(f"adversary {a.name!r}: its clause {a.clause!r} is not in the prompt")
        return self

    @property
    def goal(self) -> str:
        """What the agent is told: the prompt, then the standard sentence on how to answer."""
        return f"{self.prompt.strip()}\n\n{ANSWER_SENTENCE}"

    @property
    def start_path(self) -> str:
        if self.start.startswith("/"):
            return self.start
        return APP_HOMES.get(self.start, f"/{self.start}/")

"""Every name a task file refers to, resolved when the file loads.

A task file names things that live elsewhere: tables and their fields (``apps/*/schema.py``), check
and ``value_from`` functions (``worlds/<world>/checks*.py``), people and co-worker scenario triggers
(``world.yaml``, ``coworkers.yaml``), the start app or page and the oracle's ``goto`` pages (the apps'
routes), and the tools its solution calls (``harness/tools``). ``problems(task, world_root)`` checks
each one and returns what doesn't resolve, each with the field path it sits at
(``checks.2.exists.where.auther``) and a message naming what is known, with the closest match
(``unknown field 'auther' of chat_messages; did you mean 'author'? (fields: …)``). The registry
turns them into one ``TaskError`` naming the file.

It also checks the shape the schema leaves open (a check is a ``dict``): each check has exactly one
kind and only that kind's keys — a misspelt ``wher:`` would otherwise match every record — field
conditions use known operators, regular expressions compile, and the oracle's ``fill`` / ``drag`` /
``scroll`` name their locators.

The lookups themselves are ``harness.tasks.lookups`` (cached: the table schema, the routes and the
tools once per process; a world's people, scenario triggers and functions once per world while its
``world.yaml``, ``coworkers.yaml`` and ``*.py`` files are unchanged); this module is the walk.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from harness.tasks.lookups import WorldIndex, app_names, known, route_problem, tables, tool, world_index
from harness.tasks.schema import Locator
from harness.verify.checks import KINDS
from harness.verify.conditions import OPS, SAYS

Loc = tuple


@dataclass(frozen=True)
class Problem:
    loc: Loc                      # the field path: ("checks", 2, "exists", "table")
    message: str

    @property
    def where(self) -> str:
        return ".".join(str(x) for x in self.loc) or "(top level)"


# ---------------------------------------------------------------------------- the walk
CHECK_KEYS = {"name", "gate", "expected", "binds"}                # beside the kind
QUERY = {"table", "where", "new", "changed", "by", "related"}      # what _select reads
BODY = {
    "exists": QUERY | {"count", "min", "max"},
    "absent": QUERY,
    "count": QUERY | {"equals", "min", "max"},
    "changed": {"table", "where", "related", "field", "from", "to"},
    "unchanged": {"table", "where", "field"},
    "order": {"table", "by", "sequence"},
}
RELATED = {"table", "field", "where", "count", "min"}
SAYS_EXTRA = {"tolerance", "aliases", "unit", "about"}
ORACLE_LOCATORS = {"fill": ("target",), "drag": ("source", "target"), "scroll": ("target",)}


class Walker:
    def __init__(self, task, index: WorldIndex):
        self.task = task
        self.index = index
        self.out: list[Problem] = []

    def bad(self, loc: Loc, message: str) -> None:
        self.out.append(Problem(tuple(loc), message))

    # ---------------------------------------------------------------- names
    def table(self, name, loc: Loc) -> frozenset[str] | None:
        if not isinstance(name, str) or not name:
            self.bad(loc, f"a table name, not {name!r}")
            return None
        fields = tables().get(name)
        if fields is None:
            self.bad(loc, f"unknown table {name!r}" + known(name, tables(), "tables"))
        return fields

    def field(self, table: str, fields: frozenset[str] | None, name, loc: Loc, *, key_ok: bool = True) -> None:
        if fields is None:
            return
        if not isinstance(name, str) or not (name in fields or (key_ok and name == "id")):
            self.bad(loc, f"unknown field {name!r} of {table}" + known(str(name), fields, f"{table} fields"))

    def function(self, ref, loc: Loc) -> None:
        if not isinstance(ref, str):
            self.bad(loc, f"a function is 'module:function', not {ref!r}")
            return
        why = self.index.function(ref)
        if why:
            self.bad(loc, why)

    def actor(self, who, loc: Loc) -> None:
        people, err = self.index.people()
        if err:
            self.bad(loc, f"can't check the actor {who!r}: {err}")
        elif who != "agent" and who not in people:
            self.bad(loc, f"unknown actor {who!r}: 'agent' or a person of the world"
                     + known(str(who), {"agent", *people}, "actors"))

    def regex(self, pattern, loc: Loc, flags: int = 0) -> None:
        if not isinstance(pattern, str):
            self.bad(loc, f"a regular expression, not {pattern!r}")
            return
        try:
            re.compile(pattern, flags)
        except re.error as e:
            self.bad(loc, f"invalid regular expression {pattern!r}: {e}")

    # ---------------------------------------------------------------- queries and conditions
    def keys(self, body: dict, allowed: set, loc: Loc, what: str) -> None:
        for k in body:
            if k not in allowed:
                self.bad((*loc, k), f"unknown key {k!r} in {what}" + known(str(k), allowed, "keys"))

    def query(self, q, loc: Loc, allowed: set = QUERY, what: str = "a query") -> tuple[str | None, frozenset | None]:
        """A ``{table, where, new?, changed?, by?, related?}`` query; returns (table, its fields)."""
        if not isinstance(q, dict):
            self.bad(loc, f"{what} is a mapping {{table, where, …}}, not {q!r}")
            return None, None
        self.keys(q, allowed, loc, what)
        if "table" not in q:
            self.bad(loc, f"{what} needs a table")
            return None, None
        table = q["table"]
        fields = self.table(table, (*loc, "table"))
        self.where(table, fields, q.get("where"), (*loc, "where"))
        for k in ("new", "changed"):
            if k in q and not isinstance(q[k], bool):
                self.bad((*loc, k), f"{k} is true or false, not {q[k]!r}")
        if "by" in q:
            self.actor(q["by"], (*loc, "by"))
        rel = q.get("related")
        if rel is not None:
            if not isinstance(rel, list):
                self.bad((*loc, "related"), "related is a list of joins {table, field, where?, count?, min?}, "
                                            f"not {rel!r}")
            else:
                for i, r in enumerate(rel):
                    self.join(r, (*loc, "related", i))
        return (table if fields is not None else None), fields

    def join(self, r, loc: Loc) -> None:
        if not isinstance(r, dict) or "table" not in r or "field" not in r:
            self.bad(loc, f"a join is {{table, field, where?, count?, min?}}, not {r!r}")
            return
        self.keys(r, RELATED, loc, "a join")
        fields = self.table(r["table"], (*loc, "table"))
        self.field(r["table"], fields, r["field"], (*loc, "field"))
        self.where(r["table"], fields, r.get("where"), (*loc, "where"))
        for k in ("count", "min"):
            if k in r and (not isinstance(r[k], int) or isinstance(r[k], bool)):
                self.bad((*loc, k), f"{k} is a number, not {r[k]!r}")

    def where(self, table, fields, where, loc: Loc, *, computed: bool = True) -> None:
        if where is None:
            return
        if not isinstance(where, dict):
            self.bad(loc, f"where is a mapping of field: condition, not {where!r}")
            return
        for f, cond in where.items():
            self.field(table, fields, f, (*loc, f))
            self.cond(cond, (*loc, f), computed=computed, refs=True)

    def computed(self, v, loc: Loc, computed: bool) -> bool:
        """``{from: "module:function"}``: checked (True) when the context computes it."""
        if isinstance(v, dict) and set(v) == {"from"} and isinstance(v["from"], str):
            if computed:
                self.function(v["from"], (*loc, "from"))
            else:
                self.bad(loc, "{from: …} is not computed here (only in a check's where, count and says)")
            return True
        return False

    def cond(self, cond, loc: Loc, *, computed: bool = True, refs: bool = True) -> None:
        if isinstance(cond, list):
            for i, c in enumerate(cond):
                if isinstance(c, dict):
                    self.computed(c, (*loc, i), computed)
            return
        if not isinstance(cond, dict) or self.computed(cond, loc, computed):
            return
        for op, arg in cond.items():
            here = (*loc, op)
            if op not in OPS:
                self.bad(here, f"unknown condition {op!r}" + known(str(op), OPS, "conditions"))
            elif self.computed(arg, here, computed):
                continue
            elif op in ("equals", "not", "any", "all"):
                self.cond(arg, here, computed=computed, refs=refs)
            elif op == "one_of":
                if not isinstance(arg, list):
                    self.bad(here, f"one_of takes a list, not {arg!r}")
                else:
                    for i, a in enumerate(arg):
                        self.cond(a, (*here, i), computed=computed, refs=refs)
            elif op == "ref":
                if refs:
                    self.query(arg, here, what="a ref query")
                else:
                    self.bad(here, "ref can't be used here (only in a query's where)")
            elif op == "says":
                self.says(arg, here, computed)
            elif op == "matches":
                self.regex(arg, here, re.I | re.S)

    def says(self, arg, loc: Loc, computed: bool) -> None:
        if not isinstance(arg, dict) or len(set(arg) & set(SAYS)) != 1:
            self.bad(loc, f"says takes one of {', '.join(sorted(SAYS))} (with tolerance, aliases, unit, about), "
                          f"not {arg!r}")
            return
        for k, v in arg.items():
            if k in SAYS:
                self.computed(v, (*loc, k), computed)
            elif k not in SAYS_EXTRA:
                self.bad((*loc, k), f"unknown key {k!r} in says" + known(k, {*SAYS, *SAYS_EXTRA}, "keys"))
        if "about" in arg:
            self.regex(arg["about"], (*loc, "about"), re.I)

    # ---------------------------------------------------------------- checks
    def check(self, spec, loc: Loc, *, rubric: bool = False) -> None:
        if not isinstance(spec, dict):
            self.bad(loc, f"a check is a mapping with one of {', '.join(KINDS)}, not {spec!r}")
            return
        kinds = [k for k in spec if k in KINDS]
        if len(kinds) != 1:
            self.bad(loc, f"a check has exactly one of {', '.join(KINDS)}; got {sorted(map(str, spec))}")
            for k in spec:
                if k not in KINDS and k not in CHECK_KEYS:
                    self.bad((*loc, k), f"unknown check kind {k!r}" + known(str(k), KINDS, "kinds"))
            return
        kind = kinds[0]
        extra = CHECK_KEYS - ({"gate", "name"} if rubric else set())   # a criterion has its own name
        for k in spec:
            if k != kind and k not in extra:
                self.bad((*loc, k), f"unknown key {k!r} beside {kind}" + known(str(k), {kind, *extra}, "keys"))
        body, here = spec[kind], (*loc, kind)
        if kind == "python":
            self.function(body, here)
            return
        if kind == "tables_changed":
            if not isinstance(body, list):
                self.bad(here, f"tables_changed is a list of tables, not {body!r}")
                return
            for i, t in enumerate(body):
                self.table(t, (*here, i))
            return
        if not isinstance(body, dict):
            self.bad(here, f"{kind} is a mapping {{table, where, …}}, not {body!r}")
            return
        if kind in ("exists", "absent", "count"):
            self.query(body, here, BODY[kind], f"an {kind} check" if kind[0] in "ae" else f"a {kind} check")
            for k in ("count", "min", "max", "equals"):
                if k in body:
                    v = body[k]
                    if kind == "count" and self.computed(v, (*here, k), True):
                        continue
                    if not isinstance(v, int) or isinstance(v, bool):
                        self.bad((*here, k), f"{k} is a number, not {v!r}")
            return
        self.keys(body, BODY[kind], here, f"a {kind} check")
        if "table" not in body:
            self.bad(here, f"a {kind} check needs a table")
            return
        table = body["table"]
        fields = self.table(table, (*here, "table"))
        if kind == "order":
            for k in ("by", "sequence"):
                if k not in body:
                    self.bad(here, f"an order check needs {k}")
            if "by" in body:
                self.field(table, fields, body["by"], (*here, "by"))
            seq = body.get("sequence", [])
            if not isinstance(seq, list):
                self.bad((*here, "sequence"), f"sequence is a list of where mappings, not {seq!r}")
                seq = []
            for i, w in enumerate(seq):
                self.where(table, fields, w, (*here, "sequence", i))
            return
        self.where(table, fields, body.get("where"), (*here, "where"))
        if kind == "changed":
            if "field" not in body:
                self.bad(here, "a changed check needs field")
            else:
                self.field(table, fields, body["field"], (*here, "field"), key_ok=False)
            for k in ("from", "to"):
                if k in body:
                    self.cond(body[k], (*here, k), computed=False, refs=False)
            for i, r in enumerate(body.get("related") or []):
                self.join(r, (*here, "related", i))
        elif kind == "unchanged" and body.get("field") is not None:
            self.field(table, fields, body["field"], (*here, "field"), key_ok=False)

    # ---------------------------------------------------------------- steps
    def steps(self, steps, loc: Loc) -> None:
        for i, s in enumerate(steps):
            if s.call is None:
                continue
            here = (*loc, i)
            t, why = tool(s.call)
            if t is None:
                self.bad((*here, "call"), why)
            else:
                names = {f.alias or n: f for n, f in t.params.model_fields.items()}
                for a in s.args:
                    if a not in names:
                        self.bad((*here, "args", a), f"{t.name} has no argument {a!r}" + known(a, names, "arguments"))
                for a, f in names.items():
                    if f.is_required() and a not in s.args:
                        self.bad((*here, "args"), f"{t.name} needs the argument {a!r}")
            self.finds(s.args, (*here, "args"))

    def finds(self, args, loc: Loc) -> None:
        """Every ``{find: query, field?}`` in a step's arguments."""
        if isinstance(args, dict):
            if "find" in args and set(args) <= {"find", "field"}:
                table, fields = self.query(args["find"], (*loc, "find"), what="a find query")
                if "field" in args and table is not None:
                    self.field(table, fields, args["field"], (*loc, "field"), key_ok=False)
                return
            for k, v in args.items():
                self.finds(v, (*loc, k))
        elif isinstance(args, list):
            for i, v in enumerate(args):
                self.finds(v, (*loc, i))

    def oracle(self) -> None:
        for i, step in enumerate(self.task.oracle):
            here = ("oracle", i)
            kind = step.kind
            value = getattr(step, kind)
            if kind == "goto":
                why = route_problem(value)
                if why:
                    self.bad((*here, "goto"), why)
            elif kind == "expect_url":
                self.regex(value, (*here, "expect_url"))
            elif isinstance(value, Locator):
                self.locator(value, (*here, kind))
            elif kind in ORACLE_LOCATORS:
                self.oracle_dict(kind, value, (*here, kind))
            elif kind == "done":
                self.keys(value, {"answer", "status"}, (*here, kind), "done")
                if value.get("status", "complete") not in ("complete", "infeasible"):
                    self.bad((*here, kind, "status"), f"status is complete or infeasible, not {value['status']!r}")

    def oracle_dict(self, kind: str, value: dict, loc: Loc) -> None:
        need = {"fill": ({"target", "text"}, {"target", "text"}), "drag": ({"source", "target"}, {"source", "target"}),
                "scroll": (set(), {"target", "dy", "x", "y"})}[kind]
        self.keys(value, need[1], loc, kind)
        for k in need[0] - set(value):
            self.bad(loc, f"{kind} needs {k}")
        if kind == "scroll" and not ({"target", "dy"} & set(value)):
            self.bad(loc, "scroll needs target (into view) or dy")
        for k in ORACLE_LOCATORS[kind]:
            if k in value:
                try:
                    self.locator(Locator.model_validate(value[k]), (*loc, k))
                except ValidationError as e:
                    err = e.errors()[0]
                    sub = ".".join(str(x) for x in err["loc"])
                    self.bad((*loc, k, *([sub] if sub else [])), err["msg"])

    def locator(self, loc_: Locator, loc: Loc) -> None:
        for k in ("name", "label", "text", "placeholder"):
            v = getattr(loc_, k)
            if isinstance(v, str) and v.startswith("re:"):
                self.regex(v[3:], (*loc, k))
        if loc_.within is not None:
            self.locator(loc_.within, (*loc, "within"))

    # ---------------------------------------------------------------- the task
    def run(self) -> list[Problem]:
        t = self.task
        if t.start.startswith("/"):
            why = route_problem(t.start)
            if why:
                self.bad(("start",), why)
        elif t.start not in app_names():
            self.bad(("start",), f"unknown start app {t.start!r}: an app or a path like /drive/shared"
                     + known(t.start, app_names(), "apps"))
        if t.user is not None:
            people, err = self.index.people()
            if err:
                self.bad(("user",), f"can't check the user: {err}")
            elif t.user not in people:
                self.bad(("user",), f"unknown person {t.user!r}" + known(t.user, people, "people"))
        if t.coworkers:
            self.scenarios()
        for i, spec in enumerate(t.checks):
            self.check(spec, ("checks", i))
        for i, cp in enumerate(t.checkpoints):
            for j, spec in enumerate(cp.checks):
                self.check(spec, ("checkpoints", i, "checks", j))
        if t.principal is not None:
            people, err = self.index.people()
            if err:
                self.bad(("principal", "person"), f"can't check the principal: {err}")
            elif t.principal.person not in people:
                self.bad(("principal", "person"), f"unknown person {t.principal.person!r}"
                         + known(t.principal.person, people, "people"))
        asks = [("oracle", i) for i, s in enumerate(t.oracle) if s.ask is not None] + \
               [("solution", i) for i, s in enumerate(t.solution) if s.ask is not None]
        if asks and t.principal is None:
            self.bad(asks[0], "this step asks the task's principal, but the task names no principal")
        if t.answer is not None and t.answer.value_from:
            self.function(t.answer.value_from, ("answer", "value_from"))
        for i, c in enumerate(t.rubric):
            if c.check is not None:
                self.check(c.check, ("rubric", i, "check"), rubric=True)
            for j, q in enumerate(c.evidence):
                self.query(q, ("rubric", i, "evidence", j), what="an evidence query")
        for i, q in enumerate(t.allow):
            table, fields = self.query(q, ("allow", i), QUERY - {"related"} | {"fields"}, "an allow query")
            fl = q.get("fields")
            if fl is not None:
                if not isinstance(fl, list):
                    self.bad(("allow", i, "fields"), f"fields is a list of field names, not {fl!r}")
                elif table is not None:
                    for j, f in enumerate(fl):
                        self.field(table, fields, f, ("allow", i, "fields", j), key_ok=False)
        if t.explain is not None:
            self.cond(t.explain, ("explain",), computed=False, refs=False)
        self.oracle()
        self.steps(t.solution, ("solution",))
        for i, a in enumerate(t.adversaries):
            self.steps(a.steps, ("adversaries", i, "steps"))
        return self.out

    def scenarios(self) -> None:
        triggers, err = self.index.triggers()
        for i, ref in enumerate(self.task.coworkers):
            loc = ("coworkers", i)
            if err:
                self.bad(loc, f"can't read the co-workers: {err}")
                return
            person, sep, trig = ref.partition(":")
            if not sep or not person or not trig:
                self.bad(loc, f"a scenario trigger is '<person>:<trigger id>', not {ref!r}")
            elif person not in triggers:
                self.bad(loc, f"unknown co-worker {person!r} in {ref!r}"
                         + known(person, triggers, f"co-workers in {self.index.root.name}/coworkers.yaml"))
            elif trig not in triggers[person]:
                scen = [t for t, s in triggers[person].items() if s]
                self.bad(loc, f"{person} has no trigger {trig!r}" + known(trig, scen, f"{person}'s scenario triggers"))
            elif not triggers[person][trig]:
                self.bad(loc, f"{ref!r} is not a scenario trigger (it has no scenario: true, so it fires in "
                              "every episode and listing it turns nothing on)")


def problems(task, world_root: Path) -> list[Problem]:
    """Every reference of ``task`` (a validated ``Task``) that doesn't resolve in the world at ``world_root``."""
    return Walker(task, world_index(world_root)).run()

"""Typed methods for the apps' tools on a TRL environment class (``DeskworldSpec(tools=True)``).

TRL turns each public function of the environment class into a tool, its JSON schema made by
``transformers.utils.get_json_schema`` from the function's type hints and Google-style docstring.
The apps' tools (``harness.tools``) are described by pydantic models; ``bind_app_tool`` writes one
method per tool with a signature and docstring taken from the tool's JSON schema, the way TRL's own
OpenReward spec binds an ORS server's tools (``trl/experimental/openreward/environment.py``,
``_bind_tool_method``). Nothing here imports TRL or transformers.
"""
from __future__ import annotations

import keyword
import re
from typing import Literal, Optional, Union

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SIMPLE = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict}


def py_type(prop: dict):
    """The Python type hint for one JSON-schema property (what get_json_schema turns back into it)."""
    if "enum" in prop:
        return Literal[tuple(prop["enum"])]
    if "anyOf" in prop:                     # pydantic's unions, and Optional as a union with null
        options = prop["anyOf"]
        inner = [py_type(o) for o in options if o.get("type") != "null"]
        hint = inner[0] if len(inner) == 1 else Union[tuple(inner)]
        return Optional[hint] if len(inner) < len(options) else hint
    kind = prop.get("type")
    if kind == "array":
        items = prop.get("items")
        return list[py_type(items)] if isinstance(items, dict) and items else list
    return _SIMPLE.get(kind, dict)        # a sub-object or a $ref: a JSON object


def _one_line(text: str) -> str:
    return " ".join(str(text).replace("``", "`").split())


def bind_app_tool(cls: type, tool) -> None:
    """Bind ``tool`` (a ``harness.tools.registry.Tool``) on ``cls`` as a method named after its MCP
    name (``mail_search``); the method calls ``self._call_app_tool(tool.name, arguments)``."""
    name = tool.mcp_name
    if not NAME.match(name) or keyword.iskeyword(name):
        raise ValueError(f"tool {tool.name!r}: {name!r} is not a Python identifier")
    schema = tool.input_schema
    props: dict = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    order = [n for n in props if n in required] + [n for n in props if n not in required]
    params, annotations, doc_args = [], {}, []
    for pname in order:
        if not NAME.match(pname) or keyword.iskeyword(pname) or pname == "self":
            raise ValueError(f"tool {tool.name!r}: argument {pname!r} is not a Python identifier")
        hint = py_type(props[pname])
        if pname in required:
            params.append(pname)
        else:                       # optional: None means "the tool's own default" (left out of the call)
            params.append(f"{pname}=None")
        annotations[pname] = hint
        doc_args.append(f"    {pname}: {_one_line(props[pname].get('description') or pname.replace('_', ' '))}")
    src = (f"def {name}(self, {', '.join(params)}):\n"
           f"    arguments = {{k: v for k, v in locals().items() if k != 'self' and v is not None}}\n"
           f"    return self._call_app_tool(TOOL, arguments)\n")
    ns: dict = {"TOOL": tool.name}
    exec(src, ns)                   # noqa: S102 — names checked above; no text of the schema is executed
    fn = ns[name]
    doc = _one_line(tool.description)
    if doc_args:
        doc += "\n\nArgs:\n" + "\n".join(doc_args)
    doc += ("\n\nReturns:\n    The screenshot after the call, then the tool's result (JSON) and the page's URL.")
    fn.__doc__ = doc
    fn.__annotations__ = {**annotations, "return": list}
    fn.__qualname__ = f"{cls.__name__}.{name}"
    fn.__module__ = cls.__module__
    setattr(cls, name, fn)

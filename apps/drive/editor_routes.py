"""The routes every Drive-backed editor has: its list of files and New, and the
File menu's rename, download and move to trash.

``add_list_routes`` adds the list (``GET /``, endpoint ``<app>.index``: the
files the user can open, ``?q=`` to filter) and ``POST /new`` (``<app>.new``:
a blank file, then its editor). ``add_file_routes`` adds the File menu under the
file's URL (``/d/<int:doc_id>`` for Docs):

- ``POST …/rename`` (endpoint ``<app>.rename``): the new ``title``; answers with
  the editor's ``<app>/_title.html`` and a "Renamed." toast (a bad name: the
  reason in a toast, 422);
- ``GET …/download?format=…`` (``<app>.download``): the file in one of the
  editor's export formats (the first is the default; another: 422);
- ``POST …/trash`` (``<app>.trash``): to Drive's trash, then to the editor's list.

The editor gives only what differs: its ``Editor`` (``apps.drive.editors``),
its name and icon, how it creates a file, the name its title template gives
the file, and its export formats. ``page_context`` is what the templates of
the editor's own pages need besides their content.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from flask import Blueprint, g, redirect, request, url_for

from apps.core.errors import Invalid
from apps.core.ids import as_id
from apps.core.store.db import Caller, Store
from apps.drive.editors import Editor
from apps.web.render import attachment, flash_toast, go, is_htmx, render, toast, toast_response

Export = Callable[[dict], tuple[bytes, str, str]]
"""An export format: the opened file (``Editor.open``) → (bytes, MIME type, file name)."""


def page_context(app: str, files: Editor, **extra) -> dict:
    """The template context of an editor's pages: the app's name and its search box (``q``), and ``extra``."""
    return {"app_name": app, "search": {"action": url_for(f"{app}.index"), "placeholder": f"Search {files.noun}s",
                                        "q": extra.pop("q", ""), "clear": url_for(f"{app}.index")}, **extra}


def add_list_routes(bp: Blueprint, files: Editor, *, title: str, icon: str, param: str,
                    create: Callable[[Store, Caller, int | None], int]) -> None:
    """Add the list page and New to ``bp``: ``title`` and ``icon`` are the app's, ``param`` names a file
    in the editor's URL (``<app>.editor``), ``create`` makes a blank file in a folder (``None``: My Drive)."""
    def index():
        q = request.args.get("q", "").strip()
        app = {"name": bp.name, "title": title, "logo": bp.name, "icon": icon, "new_url": url_for(f"{bp.name}.new"),
               "new_label": f"Blank {files.noun}", "all_label": f"All {files.noun}s", "noun": f"{files.noun}s"}
        return render("app_list.html", "listing", items=files.listing(g.store, g.caller.user, q), app=app,
                      **page_context(bp.name, files, q=q))

    def new():
        ref = create(g.store, g.caller, as_id(request.form.get("parent", "")))
        return go(url_for(f"{bp.name}.editor", **{param: ref}))

    bp.add_url_rule("/", "index", index, methods=["GET"])
    bp.add_url_rule("/new", "new", new, methods=["POST"])


def add_file_routes(bp: Blueprint, files: Editor, *, prefix: str, param: str, record: str,
                    exports: Mapping[str, Export]) -> None:
    """Add rename, download and trash to ``bp`` under ``<prefix>/<int:<param>>``; ``record`` is the
    name ``<app>/_title.html`` gives the file, ``exports`` maps a format (the file extension) to
    its export, the first being the default."""
    base = f"{prefix}/<int:{param}>"
    formats = list(exports)
    names = [f".{f}" for f in formats]
    choices = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"

    def rename(**ids: int):
        try:
            files.rename(g.store, g.caller, ids[param], request.form.get("title", ""))
        except Invalid as e:
            return toast_response(e.message, 422)
        opened = files.open(g.store, g.caller.user, ids[param])
        if not is_htmx():
            return redirect(url_for(f"{bp.name}.editor", **ids))
        return render(f"{bp.name}/_title.html", oob=[toast("Renamed.")], **{record: opened})

    def download(**ids: int):
        fmt = request.args.get("format", formats[0])
        opened = files.open(g.store, g.caller.user, ids[param])
        if fmt not in exports:
            raise Invalid(f"Download as {choices}.", "format")
        return attachment(*exports[fmt](opened))

    def trash(**ids: int):
        opened = files.trash(g.store, g.caller, ids[param])
        flash_toast(f"“{opened['title']}” moved to trash.")
        return go(url_for(f"{bp.name}.index"))

    bp.add_url_rule(f"{base}/rename", "rename", rename, methods=["POST"])
    bp.add_url_rule(f"{base}/download", "download", download, methods=["GET"])
    bp.add_url_rule(f"{base}/trash", "trash", trash, methods=["POST"])

"""Compile a world's files into a template database, once per content hash.

``template_for(world)`` returns the path of the template for the world as it
is on disk now (``meridian@17``: variant 17, see ``apps.core.variants``),
building it if the cache does not have it. The hash covers
every world file (tasks excepted) and the code that shapes the template, so
editing either rebuilds; nothing else does.
"""
from __future__ import annotations

import hashlib
import importlib
import inspect
import os
import sqlite3
import tempfile
from pathlib import Path

from apps.core.files import guess_mime, put_blob
from apps.core.store.db import SYSTEM, Store, utc_iso
from apps.core.variants import cache_base, source_files
from apps.core.world import World, load_world


def cache_dir() -> Path:
    path = cache_base() / "templates"
    path.mkdir(parents=True, exist_ok=True)
    return path


def world_files(world: World) -> list[Path]:
    return source_files(world.root)


def world_hash(world: World) -> str:
    from apps.core.registry import compiler_sources
    h = hashlib.sha256()
    for mod in compiler_sources():
        h.update(inspect.getsource(importlib.import_module(mod)).encode())
    for path in world_files(world):
        h.update(str(path.relative_to(world.root)).encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def template_for(world: World | str, *, rebuild: bool = False) -> Path:
    if not isinstance(world, World):
        world = load_world(world)
    digest = world_hash(world)
    path = cache_dir() / f"{world.name}{'-v%d' % world.variant if world.variant else ''}-{digest[:16]}.sqlite"
    if path.exists() and not rebuild:
        return path
    fd, tmp = tempfile.mkstemp(prefix=f".{world.name}-", suffix=".sqlite", dir=path.parent)
    os.close(fd)
    try:
        build(world, Path(tmp), digest)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return path


def build(world: World, out: Path, digest: str = "") -> None:
    from apps.core.registry import all_tables, seeders
    out.unlink(missing_ok=True)
    conn = sqlite3.connect(str(out), isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    try:
        store = Store.create(conn, all_tables())
        conn.execute("BEGIN")
        spec = world.spec
        for key, value in {
            "world": world.name, "title": spec.title, "timezone": spec.clock.timezone,
            "locale": spec.clock.locale, "step_seconds": str(spec.clock.step_seconds),
            "default_user": spec.user, "clock": utc_iso(world.start), "template_hash": digest,
            "variant": str(world.variant),
        }.items():
            store.set_meta(key, value)
        seed_core(store, world)
        for seed in seeders():
            seed(store, world)
        conn.execute("DELETE FROM _writes")
        conn.execute("COMMIT")
        conn.execute("VACUUM")
    finally:
        conn.close()


def seed_core(store: Store, world: World) -> None:
    for org in world.spec.orgs:
        store.insert("orgs", SYSTEM, slug=org.id, name=org.name, domain=org.domain, kind=org.kind,
                     adverse=org.adverse)
    for p in world.spec.people:
        store.insert("people", SYSTEM, slug=p.id, name=p.name, email=p.email.lower(), org=p.org,
                     title=p.title, department=p.department, phone=p.phone, note=p.note, adverse=p.adverse)
    local = world.root / "local"
    if local.is_dir():
        for path in sorted(p for p in local.rglob("*") if p.is_file() and not p.name.startswith(".")):
            name, data = built_file(path)
            rel = path.relative_to(local).parent / name
            blob = put_blob(store, data, guess_mime(name))
            store.insert("local_files", SYSTEM, owner=world.spec.user, path=str(rel), name=name, blob=blob)


def built_file(path: Path) -> tuple[str, bytes]:
    """The name and bytes a world file stands for (``x.pdf.md`` renders to ``x.pdf``).

    Rendered PDFs are cached by the hash of their source and of the renderer."""
    if path.name.endswith(".pdf.md"):
        from apps.core import pdfdoc
        name = path.name[: -len(".md")]
        source = path.read_bytes()
        key = hashlib.sha256(source + name.encode() + inspect.getsource(pdfdoc).encode()).hexdigest()
        cached = cache_dir().parent / "built" / f"{key}.pdf"
        if cached.is_file():
            return name, cached.read_bytes()
        data = pdfdoc.render_pdf(source.decode("utf-8"), title=name[: -len(".pdf")])
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, cached)
        return name, data
    return path.name, path.read_bytes()


def source_of(root: Path, rel: str) -> Path | None:
    """The file on disk behind a Drive-style path (``….pdf`` may be ``….pdf.md``)."""
    p = root / rel
    if p.is_file():
        return p
    md = root / (rel + ".md")
    return md if rel.endswith(".pdf") and md.is_file() else None

"""Seed Drive from ``worlds/<w>/drive/<owner>/…`` and ``drive.yaml``."""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from apps.core.files import guess_mime, put_blob
from apps.core.registry import APP_FILES
from apps.core.store.compile import built_file
from apps.core.store.db import SYSTEM, Store, utc_iso
from apps.core.world import World, WorldError, load_yaml, validation_message
from apps.drive.service import FILE, FOLDER, FOLDER_MIME, SHARE_ROLES, seed_item

DEFAULT_TIME = "2026-01-05T09:00:00"


class ItemMeta(BaseModel):
    model_config = ConfigDict(extra="forbid")
    owner: str | None = None
    shared: dict[str, str] = {}
    created: str | None = None
    modified: str | None = None
    starred_by: list[str] = []
    description: str = ""
    # General access: who can open it with the link (restricted | org | anyone), and as what.
    link_access: Literal["restricted", "org", "anyone"] = "restricted"
    link_role: Literal["viewer", "commenter", "editor"] = "viewer"


class DriveMeta(BaseModel):
    model_config = ConfigDict(extra="forbid")
    items: dict[str, ItemMeta] = {}


def load_meta(world: World) -> DriveMeta:
    path = world.root / "drive.yaml"
    if not path.is_file():
        return DriveMeta()
    try:
        return DriveMeta.model_validate(load_yaml(path) or {})
    except ValidationError as e:
        raise WorldError(validation_message(path, e)) from None


def seed(store: Store, world: World) -> None:
    root = world.root / "drive"
    if not root.is_dir():
        return
    meta = load_meta(world)
    path_yaml = world.root / "drive.yaml"
    used: set[str] = set()
    roles = {r.value for r in SHARE_ROLES}

    def when(m: ItemMeta | None, attr: str, key: str) -> str:
        value = getattr(m, attr) if m else None
        return utc_iso(world.local_time(value or DEFAULT_TIME, f"{path_yaml}: items.{key}.{attr}"))

    def app_file(name: str) -> tuple[str, str, str] | None:
        """(title, kind, importer module) for a Doc/Sheet/Deck world file."""
        for suffix, (kind, module) in APP_FILES.items():
            if name.endswith(suffix):
                return name[: -len(suffix)], kind, module
        return None

    def walk(directory: Path, parent: int | None, owner: str, rel: str) -> None:
        for path in sorted(directory.iterdir(), key=lambda p: (p.is_file(), p.name.lower())):
            if path.name.startswith("."):
                continue
            app = app_file(path.name) if path.is_file() else None
            name = app[0] if app else (path.name[:-3] if path.name.endswith(".pdf.md") else path.name)
            key = f"{rel}/{name}"
            m = meta.items.get(key)
            used.add(key)
            item_owner = (m.owner if m and m.owner else owner)
            if item_owner not in world.people:
                raise WorldError(f"{path_yaml}: items.{key}.owner: unknown person {item_owner!r}")
            common = dict(owner=item_owner, parent=parent, description=m.description if m else "",
                          created_at=when(m, "created", key), modified_at=when(m, "modified", key),
                          modified_by=item_owner, link_access=m.link_access if m else "restricted",
                          link_role=m.link_role if m else "viewer")
            if path.is_dir():
                item = seed_item(store, kind=FOLDER, name=name, mime=FOLDER_MIME, **common)
            elif app:
                _, kind, module = app
                mime = f"application/vnd.deskworld.{kind}"
                item = seed_item(store, kind=kind, name=name, mime=mime, **common)
                ref = importlib.import_module(module).import_file(store, world, path, item)
                store.update("drive_items", item, SYSTEM, ref=ref)
            else:
                name, data = built_file(path)
                mime = guess_mime(name)
                blob = put_blob(store, data, mime)
                item = seed_item(store, kind=FILE, name=name, mime=mime, blob=blob, size=len(data),
                                 **common)
            if m:
                for person, role in sorted(m.shared.items()):
                    if person not in world.people:
                        raise WorldError(f"{path_yaml}: items.{key}.shared: unknown person {person!r}")
                    if role not in roles:
                        raise WorldError(f"{path_yaml}: items.{key}.shared.{person}: role must be one of {sorted(roles)}")
                    store.insert("drive_shares", SYSTEM, item=item, person=person, role=role,
                                 shared_by=item_owner, shared_at=common["created_at"])
                for person in m.starred_by:
                    store.insert("drive_stars", SYSTEM, item=item, user=person)
            if path.is_dir():
                walk(path, item, item_owner, key)

    for owner_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        if owner_dir.name not in world.people:
            raise WorldError(f"{owner_dir}: the first folder under drive/ must be a person id")
        walk(owner_dir, None, owner_dir.name, owner_dir.name)
    unknown = sorted(set(meta.items) - used)
    if unknown:
        raise WorldError(f"{path_yaml}: items: no such file or folder: {unknown[0]!r}"
                         + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))

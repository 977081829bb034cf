"""Presentations from world files: ``<Title>.gslides.yaml`` in the Drive tree (see worlds/README.md).

```yaml
slides:
  - {layout: title, title: "…", subtitle: "…"}
  - {layout: title_body, title: "…", body: "- bullet\\n- bullet", notes: "speaker notes"}
  - {layout: two_columns, title: "…", left: "…", right: "…"}
  - {layout: section, title: "…"}
  - {layout: big_number, title: "$160.6m", body: "…"}     # also: title_only, one_column, main_point,
                                                          # section_description, caption (body), blank
```

Text is stored as the editor saves it (``service.clean_text``), so opening a
world deck and saving it unchanged writes nothing.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from apps.core.errors import Invalid
from apps.core.store.db import SYSTEM, Store
from apps.core.world import World, WorldError, validation_message
from apps.slides import service


class SlideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    layout: Literal["title", "section", "title_body", "two_columns", "title_only", "one_column", "main_point",
                    "section_description", "caption", "big_number", "blank"] = "title_body"
    title: str = ""
    subtitle: str = ""
    body: str = ""
    left: str = ""
    right: str = ""
    notes: str = ""


class DeckFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    slides: list[SlideSpec] = Field(min_length=1)


def seed(store: Store, world: World) -> None:
    """Presentations arrive through Drive's seed (``import_file``); nothing else to do."""


def import_file(store: Store, world: World, path: Path, item_id: int) -> int:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        spec = DeckFile.model_validate(raw)
    except yaml.YAMLError as e:
        raise WorldError(f"{path}: invalid YAML: {e}") from None
    except ValidationError as e:
        raise WorldError(validation_message(path, e)) from None
    deck_id = store.insert("slides_decks", SYSTEM, item=item_id, revision=1)
    for i, s in enumerate(spec.slides):
        roles = service.LAYOUTS[s.layout]
        texts = {}
        for role in service.ROLES:
            value = getattr(s, role)
            if value and role not in roles:
                raise WorldError(f"{path}: slides.{i}.{role}: a {s.layout} slide has no {role} box "
                                 f"(its boxes: {', '.join(roles)})")
            try:
                texts[role] = service.clean_text(value, field=role)
            except Invalid as e:
                raise WorldError(f"{path}: slides.{i}.{role}: {e.message}") from None
        try:
            notes = service.clean_text(s.notes, service.MAX_NOTES, "notes")
        except Invalid as e:
            raise WorldError(f"{path}: slides.{i}.notes: {e.message}") from None
        service._insert_slide(store, SYSTEM, deck_id, i + 1, s.layout, texts, notes)
    return deck_id

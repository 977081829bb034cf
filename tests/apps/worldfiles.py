"""A world with one of its files broken: what compiling it says (for the seed tests of each app)."""
from __future__ import annotations

import shutil

import pytest

from apps.core.store.compile import build
from apps.core.world import WorldError, load_world


def compile_error(tmp_path, world, rel: str, old: str, new: str) -> str:
    """The WorldError a copy of ``world`` gives when ``old`` in its file ``rel`` is replaced by ``new``."""
    bad = tmp_path / "bad"
    shutil.copytree(world.root, bad, ignore=shutil.ignore_patterns("tasks"))
    path = bad / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(WorldError) as e:
        build(load_world(bad), tmp_path / "out.sqlite")
    return str(e.value)

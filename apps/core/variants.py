"""World variants: a world's files rendered with another fact set.

``variant_root(source, world, k)`` is a folder with the world's files as variant ``k`` has them:
every text file that uses ``{{ … }}`` rendered with the variant's facts (``facts.py``), every
other file a link to the source. It is built once per content hash in the cache
(``$DESKWORLD_CACHE/variants/``) and then compiled like any world folder, so variant 0 — the
facts' own values — is the published world byte for byte.
"""
from __future__ import annotations

import hashlib
import inspect
import os
import shutil
import tempfile
from pathlib import Path

from apps.core import facts as facts_mod
from apps.core import template
from apps.core.facts import FactsError, load_facts

TEXT_SUFFIXES = {".yaml", ".yml", ".md", ".csv", ".txt", ".json", ".html", ".eml", ".ics", ".tsv"}
SKIP_DIRS = {"tasks", "__pycache__"}
_CODE = hashlib.sha256((inspect.getsource(facts_mod) + inspect.getsource(template)).encode()).hexdigest()


def cache_base() -> Path:
    env = os.environ.get("DESKWORLD_CACHE")
    return Path(env) if env else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "deskworld"


def source_files(source: Path) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(source):
        rel = Path(dirpath).relative_to(source)
        dirnames[:] = sorted(d for d in dirnames if not (rel == Path(".") and d in SKIP_DIRS)
                             and not d.startswith("."))
        out += [Path(dirpath) / f for f in sorted(filenames) if not f.startswith(".")]
    return out


def templated(path: Path) -> bool:
    """Whether a world file is rendered (a text file other than facts.yaml and code)."""
    return path.suffix.lower() in TEXT_SUFFIXES and path.name != facts_mod.FACTS_FILE


def variant_root(source: Path, world: str, variant: int = 0) -> Path:
    """The folder of ``variant`` of the world whose files are in ``source`` (built if needed)."""
    source = Path(source).resolve()
    fs = load_facts(source, world)
    if fs is None:
        if variant:
            raise FactsError(f"{source}: the world '{world}' has no facts.yaml, so only variant 0")
        return source
    env = fs.values(variant)
    files = source_files(source)
    h = hashlib.sha256(f"{_CODE}\0{fs.digest}\0{variant}\0{source}".encode())   # the links point into source
    for p in files:
        h.update(str(p.relative_to(source)).encode() + b"\0")
        st = p.stat()
        h.update(f"{st.st_size}:{st.st_mtime_ns}\0".encode())
    out = cache_base() / "variants" / f"{world}-v{variant}-{h.hexdigest()[:16]}"
    if (out / ".complete").is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{world}-v{variant}-", dir=out.parent))
    try:
        for p in files:
            rel = p.relative_to(source)
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if templated(p):
                text = p.read_text(encoding="utf-8")
                if "{{" in text:
                    where = f"worlds/{world}/{rel}"
                    dest.write_text(template.render(text, env, where), encoding="utf-8")
                    continue
            os.symlink(p, dest)
        (tmp / ".complete").write_text(f"{world} variant {variant}\n")
        try:
            os.rename(tmp, out)
        except OSError:                  # another process built it first
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out

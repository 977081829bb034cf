"""Appearance variants at reset: the screen an episode is seen on (issue 22).

A ``Variant`` is a frozen value on three geometric axes:

- ``viewport``: the browser window, ``1024x768``, ``1280x800`` (default), ``1440x900``, ``1920x1080``;
- ``scale``: the device scale factor, ``1`` (default), ``1.25``, ``1.5``, ``2`` — the screenshot grows
  with it (``1280x800`` at ``2`` is a ``2560x1600`` screenshot);
- ``zoom``: the browser's page zoom, ``1`` (default), ``1.25``, ``1.5``, ``2`` — emulated as Chrome zooms:
  the page is laid out in a CSS viewport of ``viewport / zoom`` and drawn at ``scale * zoom`` device
  pixels per CSS pixel, so the screenshot stays ``viewport * scale``.

Actions are always in the screenshot's pixels (``screen``); ``to_css`` and ``to_px`` map between those and
the page's CSS pixels (what ``getBoundingClientRect`` and Playwright's mouse use), one factor,
``px_per_css = scale * zoom``. Where ``viewport / zoom`` is not a whole number of CSS pixels (1024x768 at
1.25 or 1.5, 1280x800 at 1.5) the page is laid out one CSS pixel wider/taller (rounded up, as Chrome's
``innerWidth`` rounds) and the screenshot is cut to ``screen``.

Three more axes change how the page looks, not its size:

- ``theme``: ``light`` (default) or ``dark`` — Chrome's Auto Dark Mode for web contents (the browser
  darkens every page algorithmically, as a person who turned it on sees them; DevTools'
  ``Emulation.setAutoDarkModeOverride``) with ``prefers-color-scheme: dark``;
- ``density``: ``comfortable`` (default) or ``compact`` — each app's own compact layout, as the products'
  density settings give (``apps.web.density``: the ``deskworld_density`` cookie);
- ``shuffle``: ``0`` (default: off) or a seed from 1 — a seeded arrangement of the lists whose order the
  product leaves to the person (``apps.web.arrange``: the ``deskworld_shuffle`` cookie).

- ``locale``: ``en-US`` (default), ``en-GB`` or ``de-DE`` — the regional formats of dates, times and
  numbers in the apps that format for the person's account (Mail, Drive, Chat, Calendar, the CRM, the
  date pickers: "Apr 3" → "3 Apr", "4:12 PM" → "16:12", "$1,250,000" → "1.250.000 $"), typed dates read
  in the same order; the language stays English, and files (Sheets, Docs, Slides) and the service desk
  keep their own formats (``apps.core.locale``: the ``deskworld_locale`` cookie, and the browser
  context's locale).

Made from a dict (``Variant.of({"viewport": "1440x900", "scale": 2})``), from text
(``Variant.parse("viewport=1440x900,scale=2")``), or drawn (``Variant.sample(rng)``, seeded).
``str(v)`` is the canonical text (non-default axes only, ``"default"`` when none), used as the variant's
name in run folders and tables; ``v.to_dict()`` is what run.json and result rows record.
"""
from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, fields

from apps.core.locale import LOCALES
from apps.core.locale import valid as valid_locale

VIEWPORTS: tuple[tuple[int, int], ...] = ((1024, 768), (1280, 800), (1440, 900), (1920, 1080))
SCALES: tuple[float, ...] = (1.0, 1.25, 1.5, 2.0)
ZOOMS: tuple[float, ...] = (1.0, 1.25, 1.5, 2.0)
THEMES: tuple[str, ...] = ("light", "dark")
DENSITIES: tuple[str, ...] = ("comfortable", "compact")
SHUFFLES: tuple[int, ...] = tuple(range(10))              # 0: off; drawn and listed seeds (any seed 1..MAX works)
MAX_SHUFFLE = 2 ** 31 - 1
AXES: dict[str, tuple] = {"viewport": VIEWPORTS, "scale": SCALES, "zoom": ZOOMS, "theme": THEMES,
                          "density": DENSITIES, "shuffle": SHUFFLES, "locale": LOCALES}
LOCALE_COOKIE = "deskworld_locale"                         # apps.web.regional.COOKIE
DENSITY_COOKIE = "deskworld_density"                       # apps.web.density.COOKIE (the apps read it)
SHUFFLE_COOKIE = "deskworld_shuffle"                       # apps.web.arrange.COOKIE
DEFAULT_VIEWPORT = (1280, 800)
ANY = "any"                                                # DeskEnv(variant="any"): the screen may change at reset


class VariantError(ValueError):
    """A variant that can't be used; the message names the axis and the values it takes."""


def _fmt_num(v: float) -> str:
    return f"{v:g}"


def _fmt_vp(vp: tuple[int, int]) -> str:
    return f"{vp[0]}x{vp[1]}"


def _fmt(axis: str, v) -> str:
    return _fmt_vp(v) if axis == "viewport" else _fmt_num(v) if isinstance(v, float) else str(v)


def _choices(axis: str) -> str:
    if axis == "shuffle":
        return f"0 (off) or a seed from 1 to {MAX_SHUFFLE}"
    return ", ".join(_fmt(axis, v) for v in AXES[axis])


def _unknown_axis(name: str) -> VariantError:
    return VariantError(f"unknown variant axis {name!r}; the axes are: "
                        + "; ".join(f"{a} ({_choices(a)})" for a in AXES))


def _viewport(value) -> tuple[int, int]:
    if isinstance(value, (tuple, list)) and len(value) == 2:
        vp = (value[0], value[1])
    elif isinstance(value, dict) and set(value) == {"width", "height"}:
        vp = (value["width"], value["height"])
    else:
        m = re.fullmatch(r"\s*(\d+)\s*[x×]\s*(\d+)\s*", str(value))
        if not m:
            raise VariantError(f"viewport must be WIDTHxHEIGHT, one of {_choices('viewport')}; got {value!r}")
        vp = (int(m.group(1)), int(m.group(2)))
    try:
        vp = (int(vp[0]), int(vp[1]))
    except (TypeError, ValueError):
        raise VariantError(f"viewport must be WIDTHxHEIGHT, one of {_choices('viewport')}; got {value!r}") from None
    if vp not in VIEWPORTS:
        raise VariantError(f"viewport {_fmt_vp(vp)} is not offered; use one of {_choices('viewport')}")
    return vp


def _factor(axis: str, value) -> float:
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise VariantError(f"{axis} must be a number, one of {_choices(axis)}; got {value!r}") from None
    if isinstance(value, bool) or f not in AXES[axis]:
        raise VariantError(f"{axis} {value!r} is not offered; use one of {_choices(axis)}")
    return f


def _word(axis: str, value) -> str:
    v = str(value).strip().lower() if isinstance(value, str) else value
    if v not in AXES[axis]:
        raise VariantError(f"{axis} {value!r} is not offered; use one of {_choices(axis)}")
    return v


def _locale(value) -> str:
    code = valid_locale(str(value).strip())
    if code:
        return code
    raise VariantError(f"locale {value!r} is not offered; use one of {_choices('locale')}")


def _seed(value) -> int:
    try:
        n = int(str(value).strip()) if not isinstance(value, bool) else None
    except ValueError:
        n = None
    if n is None or not 0 <= n <= MAX_SHUFFLE:
        raise VariantError(f"shuffle must be {_choices('shuffle')}; got {value!r}")
    return n


@dataclass(frozen=True)
class Variant:
    """The screen an episode is seen on (see the module docstring)."""
    viewport: tuple[int, int] = DEFAULT_VIEWPORT
    scale: float = 1.0
    zoom: float = 1.0
    theme: str = "light"
    density: str = "comfortable"
    shuffle: int = 0
    locale: str = "en-US"

    def __post_init__(self):
        object.__setattr__(self, "viewport", _viewport(self.viewport))
        object.__setattr__(self, "scale", _factor("scale", self.scale))
        object.__setattr__(self, "zoom", _factor("zoom", self.zoom))
        object.__setattr__(self, "theme", _word("theme", self.theme))
        object.__setattr__(self, "density", _word("density", self.density))
        object.__setattr__(self, "shuffle", _seed(self.shuffle))
        object.__setattr__(self, "locale", _locale(self.locale))

    # ------------------------------------------------------------------ making one
    @classmethod
    def of(cls, value) -> "Variant":
        """A variant from None (the default), a ``Variant``, a dict of axes or its text."""
        if value is None:
            return cls()
        if isinstance(value, Variant):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if not isinstance(value, dict):
            raise VariantError(f"a variant is a dict of axes or text like 'viewport=1440x900,scale=2', "
                               f"not {type(value).__name__}")
        for key in value:
            if key not in AXES:
                raise _unknown_axis(str(key))
        return cls(**{k: v for k, v in value.items() if v is not None})

    @classmethod
    def parse(cls, text: str) -> "Variant":
        """``"viewport=1440x900,scale=2"`` (``default`` or an empty text: the default)."""
        text = (text or "").strip()
        if text in ("", "default"):
            return cls()
        out: dict = {}
        for part in text.split(","):
            part = part.strip()
            if not part:
                continue
            if "=" not in part:
                raise VariantError(f"a variant is axis=value pairs separated by commas, like "
                                   f"'viewport=1440x900,scale=2'; got {part!r}")
            key, value = (s.strip() for s in part.split("=", 1))
            if key not in AXES:
                raise _unknown_axis(key)
            if key in out:
                raise VariantError(f"variant axis {key!r} given twice in {text!r}")
            out[key] = value
        return cls.of(out)

    @classmethod
    def sample(cls, rng) -> "Variant":
        """A variant drawn uniformly on each axis from ``rng`` (a ``random.Random``, a numpy
        ``Generator`` or an int seed)."""
        if isinstance(rng, int):
            rng = random.Random(rng)
        pick = (lambda n: int(rng.integers(n))) if hasattr(rng, "integers") else (lambda n: rng.randrange(n))
        return cls(viewport=VIEWPORTS[pick(len(VIEWPORTS))], scale=SCALES[pick(len(SCALES))],
                   zoom=ZOOMS[pick(len(ZOOMS))], theme=THEMES[pick(len(THEMES))],
                   density=DENSITIES[pick(len(DENSITIES))], shuffle=SHUFFLES[pick(len(SHUFFLES))],
                   locale=LOCALES[pick(len(LOCALES))])

    @classmethod
    def sample_many(cls, n: int, seed: int) -> list["Variant"]:
        """``n`` different variants drawn from ``seed`` (the default first when ``n`` allows none other)."""
        rng = random.Random(seed)
        out: list[Variant] = []
        total = math.prod(len(v) for v in AXES.values())
        if n > total:
            raise VariantError(f"there are {total} variants; asked for {n}")
        while len(out) < n:
            v = cls.sample(rng)
            if v not in out:
                out.append(v)
        return out

    @classmethod
    def axis_values(cls) -> list[tuple[str, "Variant"]]:
        """One variant per axis value beyond the default (``check --variants``): ``(axis, variant)``."""
        default = cls()
        out = []
        for axis, vals in AXES.items():
            for v in vals:
                if v != getattr(default, axis):
                    out.append((axis, cls(**{axis: v})))
        return out

    # ------------------------------------------------------------------ what it means
    @property
    def is_default(self) -> bool:
        return self == Variant()

    @property
    def screen(self) -> tuple[int, int]:
        """The screenshot's size in pixels (width, height): ``viewport * scale``."""
        return round(self.viewport[0] * self.scale), round(self.viewport[1] * self.scale)

    @property
    def shape(self) -> tuple[int, int, int]:
        """The screenshot array's shape (height, width, 3)."""
        w, h = self.screen
        return h, w, 3

    @property
    def px_per_css(self) -> float:
        """Screenshot pixels per CSS pixel (Chrome's devicePixelRatio under this zoom)."""
        return self.scale * self.zoom

    @property
    def css_viewport(self) -> tuple[int, int]:
        """The layout viewport in CSS pixels: ``viewport / zoom``, rounded up."""
        return (math.ceil(self.viewport[0] / self.zoom - 1e-9), math.ceil(self.viewport[1] / self.zoom - 1e-9))

    def context_args(self) -> dict:
        """What this variant sets in ``browser.new_context`` (the rest is ``harness.env.browser.context_args``)."""
        w, h = self.css_viewport
        return {"viewport": {"width": w, "height": h}, "screen": {"width": w, "height": h},
                "device_scale_factor": self.px_per_css}

    @property
    def auto_dark(self) -> bool:
        """The page is drawn with Chrome's Auto Dark Mode (set on each page over DevTools)."""
        return self.theme == "dark"

    def cookies(self, url: str) -> list[dict]:
        """The cookies that carry this variant's density and arrangement to the apps (none by default)."""
        out = []
        if self.density != "comfortable":
            out.append({"name": DENSITY_COOKIE, "value": self.density, "url": url})
        if self.shuffle:
            out.append({"name": SHUFFLE_COOKIE, "value": str(self.shuffle), "url": url})
        if self.locale != "en-US":
            out.append({"name": LOCALE_COOKIE, "value": self.locale, "url": url})
        return out

    def to_css(self, x: float, y: float) -> tuple[float, float]:
        """Screenshot pixels → CSS pixels of the page."""
        f = self.px_per_css
        return x / f, y / f

    def to_px(self, x: float, y: float) -> tuple[int, int]:
        """CSS pixels of the page → the screenshot pixel it falls in (rounded, inside the screen)."""
        f = self.px_per_css
        w, h = self.screen
        return min(max(int(round(x * f)), 0), w - 1), min(max(int(round(y * f)), 0), h - 1)

    # ------------------------------------------------------------------ recording
    def to_dict(self) -> dict:
        return {"viewport": _fmt_vp(self.viewport), "scale": self.scale, "zoom": self.zoom, "theme": self.theme,
                "density": self.density, "shuffle": self.shuffle, "locale": self.locale}

    def __str__(self) -> str:
        parts = []
        for f in fields(self):
            v = getattr(self, f.name)
            if v != f.default:
                parts.append(f"{f.name}={_fmt(f.name, v)}")
        return ",".join(parts) or "default"


def variant_or_any(value) -> Variant | str:
    """``DeskEnv(variant=…)``: a ``Variant`` (None: the default), or ``"any"``."""
    if isinstance(value, str) and value.strip() == ANY:
        return ANY
    return Variant.of(value)

"""Appearance variants, without a browser: parsing, validation, the screen and the px<->CSS
mapping, bad variants refused naming the axis (Python and CLI), the model screens of the vendor
adapters, and per-variant results."""
from __future__ import annotations

import random

import numpy as np
import pytest
from click.testing import CliRunner

import harness.env.actions as A
from harness.agents.model import LIMITS, Screen
from harness.cli import main
from harness.env import DeskEnv
from harness.env.variant import AXES, SCALES, VIEWPORTS, ZOOMS, Variant, VariantError
from harness.runs.metrics import summarize

TASK = "meridian/gross-tonnage"


def test_default_is_the_old_fixed_screen():
    v = Variant()
    assert v.is_default and str(v) == "default" and v.screen == (1280, 800) and v.shape == (800, 1280, 3)
    assert v.context_args() == {"viewport": {"width": 1280, "height": 800}, "screen": {"width": 1280, "height": 800},
                                "device_scale_factor": 1.0}
    assert Variant.of(None) == Variant.parse("") == Variant.parse("default") == v


@pytest.mark.parametrize("text,screen,css,f", [
    ("viewport=1440x900,scale=2", (2880, 1800), (1440, 900), 2.0),
    ("scale=1.25", (1600, 1000), (1280, 800), 1.25),
    ("zoom=2", (1280, 800), (640, 400), 2.0),
    ("viewport=1024x768,zoom=1.25", (1024, 768), (820, 615), 1.25),         # 819.2 x 614.4 rounded up
    ("viewport=1920x1080,scale=1.5,zoom=1.25", (2880, 1620), (1536, 864), 1.875),
])
def test_screen_css_viewport_and_scale_follow_chrome_zoom(text, screen, css, f):
    v = Variant.parse(text)
    assert v.screen == screen and v.css_viewport == css and v.px_per_css == f
    assert v.context_args()["device_scale_factor"] == f
    assert Variant.parse(str(v)) == v and Variant.of(v.to_dict()) == v


def test_px_and_css_map_both_ways_within_half_a_pixel():
    for vp in VIEWPORTS:
        for s in SCALES:
            for z in ZOOMS:
                v = Variant(viewport=vp, scale=s, zoom=z)
                w, h = v.screen
                for x, y in ((0, 0), (w - 1, h - 1), (w // 3, h // 2)):
                    cx, cy = v.to_css(x, y)
                    assert v.to_px(cx, cy) == (x, y)
                assert v.to_px(-5, 10 ** 6) == (0, h - 1)            # clamped inside the screen


def test_sample_is_seeded_and_covers_the_axes():
    a = [Variant.sample(random.Random(7)) for _ in range(3)]
    b = [Variant.sample(random.Random(7)) for _ in range(3)]
    assert a == b
    rng = np.random.default_rng(1)
    seen = {Variant.sample(rng) for _ in range(300)}
    for axis, values in AXES.items():
        assert {getattr(v, axis) for v in seen} == set(values)
    many = Variant.sample_many(5, seed=3)
    assert len(set(many)) == 5 and many == Variant.sample_many(5, seed=3)


def test_theme_density_and_shuffle_are_words_and_a_seed():
    v = Variant.parse("theme=dark,density=compact,shuffle=42")
    assert (v.theme, v.density, v.shuffle, v.screen) == ("dark", "compact", 42, (1280, 800))
    assert str(v) == "theme=dark,density=compact,shuffle=42" and Variant.parse(str(v)) == v
    assert Variant.of(v.to_dict()) == v and Variant.parse("theme=Dark").theme == "dark"
    assert v.auto_dark and not Variant().auto_dark
    url = "http://127.0.0.1:5000"
    assert v.cookies(url) == [{"name": "deskworld_density", "value": "compact", "url": url},
                              {"name": "deskworld_shuffle", "value": "42", "url": url}]
    assert Variant().cookies(url) == [] and Variant(shuffle=0).is_default
    from apps.web import arrange, density
    assert (density.COOKIE, arrange.COOKIE) == ("deskworld_density", "deskworld_shuffle")   # what the apps read


def test_locale_is_a_word_carried_by_a_cookie_and_the_browsers_own_locale():
    v = Variant.parse("locale=de_de")
    assert v.locale == "de-DE" and str(v) == "locale=de-DE" and Variant.parse(str(v)) == v
    assert Variant.of(v.to_dict()) == v and Variant().to_dict()["locale"] == "en-US"
    url = "http://127.0.0.1:5000"
    assert v.cookies(url) == [{"name": "deskworld_locale", "value": "de-DE", "url": url}]
    from apps.core import locale
    from apps.web import regional
    from harness.env.browser import context_args
    assert regional.COOKIE == "deskworld_locale" and set(locale.LOCALES) == set(AXES["locale"])
    assert context_args(variant=v)["locale"] == "de-DE"
    assert context_args(locale="en-US", variant=Variant())["locale"] == "en-US"


def test_axis_values_are_one_variant_per_value_beyond_the_default():
    got = Variant.axis_values()
    assert len(got) == 9 + 1 + 1 + 9 + 2 and {a for a, _ in got} == set(AXES)
    assert all(not v.is_default for _, v in got)


@pytest.mark.parametrize("bad,named", [
    ("theme=sepia", "theme 'sepia'"), ("density=cozy", "density 'cozy'"), ("locale=fr-FR", "locale 'fr-FR'"),
    ("shuffle=-1", "shuffle must be"), ("shuffle=x", "shuffle must be"), ("colour=red", "'colour'"),
    ("viewport=1000x700", "viewport 1000x700"), ("viewport=big", "viewport must be WIDTHxHEIGHT"),
    ("scale=3", "scale '3'"), ("zoom=0.5", "zoom '0.5'"), ("zoom=abc", "zoom must be a number"),
    ("scale=2,scale=1", "'scale' given twice"), ("zoom", "axis=value pairs"),
])
def test_bad_variants_are_refused_naming_the_axis(bad, named):
    with pytest.raises(VariantError, match=named.replace("(", r"\(")) as e:
        Variant.parse(bad)
    if bad.split("=")[0] == "locale":
        assert "en-US, en-GB, de-DE" in str(e.value)


def test_bad_variants_are_refused_by_the_env_before_any_browser():
    with pytest.raises(VariantError, match="locale 'fr-FR' is not offered"):
        DeskEnv(TASK, variant={"locale": "fr-FR"})
    with pytest.raises(VariantError, match="scale '3'"):
        DeskEnv(TASK, variant="scale=3")
    env = DeskEnv(TASK, variant="viewport=1440x900")
    assert env.observation_space["screenshot"].shape == (900, 1440, 3)
    # Another screen size than the observation space's: refused before the browser starts.
    with pytest.raises(VariantError, match=r"1280x800 screen.*1440x900.*variant='any'"):
        env.reset(options={"variant": "default"})
    with pytest.raises(VariantError, match="density 'tight'"):
        env.reset(options={"variant": {"density": "tight"}})
    assert not env.session.running
    env.close()


@pytest.mark.parametrize("args,named", [
    (["--variant", "locale=en-CA"], "locale 'en-CA'"),
    (["--variant", "viewport=800x600"], "viewport 800x600"),
    (["--variants", "0"], "--variants"),
    (["--variant", "scale=2", "--variants", "2"], "not both"),
])
def test_bad_variants_are_refused_by_the_cli(args, named):
    r = CliRunner().invoke(main, ["run", "--agent", "noop", "--tasks", TASK, *args])
    assert r.exit_code == 2, r.output
    assert named in r.output


def test_actions_are_checked_against_the_episodes_screen():
    big = Variant.parse("viewport=1920x1080,scale=2").screen
    assert A.parse({"type": "click", "x": 3000, "y": 2000}, screen=big).x == 3000
    with pytest.raises(A.ActionError, match=r"x=3840 is outside the screen \(0..3839\)"):
        A.parse({"type": "click", "x": 3840, "y": 0}, screen=big)
    with pytest.raises(A.ActionError, match=r"outside the screen \(0..1279\)"):
        A.parse({"type": "mouse_up", "x": 1300, "y": 0})
    with pytest.raises(A.ActionError, match=r"path.1.y: y=800"):
        A.parse({"type": "drag", "path": [{"x": 1, "y": 1}, {"x": 2, "y": 800}]}, screen=(1024, 768))
    assert "The screen is 2560×1600 pixels" in A.describe(screen=(2560, 1600))


@pytest.mark.parametrize("vendor", ["anthropic", "openai"])
def test_model_screens_fit_the_vendor_limits_and_map_back_per_axis(vendor):
    lim = LIMITS[vendor]
    for vp in VIEWPORTS:
        for s in SCALES:
            v = Variant(viewport=vp, scale=s)
            screen = Screen.of(None, vendor=vendor)
            screen.see(np.zeros(v.shape, np.uint8))
            w, h = screen.size
            assert max(w, h) <= lim["max_long"] and w * h <= lim["max_pixels"]
            assert abs(w / h - v.screen[0] / v.screen[1]) < 0.01          # the aspect ratio is kept
            sx, sy = screen.scale
            assert (round(w * sx), round(h * sy)) == v.screen
    default = Screen.of(None, vendor=vendor)
    default.see(np.zeros((800, 1280, 3), np.uint8))
    assert default.size == (1280, 800) and default.scale == (1.0, 1.0)        # 1280x800 is sent 1:1
    asked = Screen.of("1024x640", vendor=vendor)
    asked.see(np.zeros((1600, 2560, 3), np.uint8))
    assert asked.size == (1024, 640) and asked.scale == (2.5, 2.5)


def test_summary_has_results_per_variant():
    rows = [{"task": "w/a", "sample": i, "variant": v, "passed": p, "score": float(p), "steps": 3,
             "status": "passed" if p else "failed"}
            for i, (v, p) in enumerate([("default", True), ("default", True), ("scale=2", True), ("scale=2", False)])]
    s = summarize(rows, 2)
    assert set(s["per_variant"]) == {"default", "scale=2"}
    assert s["per_variant"]["default"]["pass@1"] == 1.0 and s["per_variant"]["scale=2"]["pass@1"] == 0.5
    assert s["per_variant"]["scale=2"]["pass@2"] == 1.0 and s["per_variant"]["scale=2"]["episodes"] == 2
    assert s["per_task_variant"]["w/a"]["scale=2"]["passes"] == 1
    assert "per_variant" not in summarize([{**r, "variant": None} for r in rows], 2)

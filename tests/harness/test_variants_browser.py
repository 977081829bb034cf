"""Appearance variants in a real browser: the screenshot is the variant's screen, a click at a known
element's centre (its box read from the page, mapped to screenshot pixels) hits it on every axis
value, the vendor adapters' downscaled coordinates land on it at every scale factor and screen size,
resets of one variant give identical screenshots, and a run records its variants."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from harness.agents.anthropic_cu import AnthropicAgent
from harness.agents.openai_cu import OpenAIAgent
from harness.cli import main
from harness.env import DeskEnv
from harness.env.variant import SCALES, VIEWPORTS, Variant

pytestmark = pytest.mark.browser

TASK = "meridian/gross-tonnage"

# A visible control well inside the viewport (the first button or link whose box is whole and not
# covered), its CSS box; and a listener that records where the next click landed and on what.
TARGET_JS = """
() => {
  // Pointer events carry fractional CSS coordinates (a click's clientX is a whole CSS pixel: three
  // screenshot pixels at scale 1.5 x zoom 2).
  window.__hits = [];
  let at = null;
  document.addEventListener('pointerdown', (e) => { at = {x: e.clientX, y: e.clientY}; }, true);
  document.addEventListener('click', (e) => {
    window.__hits.push({...(at || {x: e.clientX, y: e.clientY}),
                        on: e.target.closest('[data-variant-target]') !== null});
    e.preventDefault(); e.stopPropagation();
  }, true);
  for (const el of document.querySelectorAll('button, a[href], [role=button]')) {
    const r = el.getBoundingClientRect();
    if (r.width < 16 || r.height < 12 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) continue;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || !(top === el || el.contains(top))) continue;
    el.setAttribute('data-variant-target', '1');
    return {x: r.left, y: r.top, w: r.width, h: r.height};
  }
  return null;
}
"""


@pytest.fixture(scope="module")
def env():
    e = DeskEnv(TASK, variant="any")
    yield e
    e.close()


def _target(env) -> dict:
    box = env.session.page_call(lambda page: page.evaluate(TARGET_JS))
    assert box is not None, "no visible control to click"
    return box


def _hit(env) -> dict:
    hits = env.session.page_call(lambda page: page.evaluate("() => window.__hits"))
    assert len(hits) == 1, hits
    return hits[0]


AXIS_VALUES = [str(v) for _, v in Variant.axis_values()]


@pytest.mark.parametrize("text", AXIS_VALUES)
def test_each_axis_value_gives_its_screen_and_a_click_at_an_elements_centre_hits_it(env, text):
    v = Variant.parse(text)
    obs, info = env.reset(options={"variant": text})
    assert obs["screenshot"].shape == v.shape and info["variant"] == text
    assert obs in env.observation_space
    # The page is laid out as Chrome lays it out at that zoom and scale.
    inner = env.session.page_call(lambda page: page.evaluate("[innerWidth, innerHeight, devicePixelRatio]"))
    assert inner == [*v.css_viewport, v.px_per_css]
    # The screenshot is drawn to its edges (no black band where a CSS-sized capture would stop).
    shot = obs["screenshot"]
    assert shot[-4:, :].any() and shot[:, -4:].any()
    box = _target(env)
    cx, cy = box["x"] + box["w"] / 2, box["y"] + box["h"] / 2
    x, y = v.to_px(cx, cy)
    obs, *_ = env.step({"type": "click", "x": x, "y": y})
    assert obs["last_action_error"] == ""
    hit = _hit(env)
    assert hit["on"]
    assert abs(hit["x"] - cx) <= 1 and abs(hit["y"] - cy) <= 1          # in CSS px: within one pixel


@pytest.mark.parametrize("text", ["scale=2", "viewport=1024x768,zoom=1.25", "viewport=1920x1080,scale=1.5",
                                  "theme=dark,density=compact,shuffle=3"])
def test_two_resets_of_one_task_and_variant_give_identical_first_screenshots(env, text):
    first, _ = env.reset(options={"variant": text})
    env.reset(options={"variant": "default"})                # another variant in between: a new context
    again, _ = env.reset(options={"variant": text})
    assert first["screenshot"].shape == again["screenshot"].shape
    assert np.array_equal(first["screenshot"], again["screenshot"])
    assert env.session.last_png() == env.session.last_png()


def test_dark_theme_compact_density_and_arrangement_reach_the_page(env):
    light, _ = env.reset(options={"variant": "default"})
    assert env.session.page_call(lambda page: page.evaluate("document.cookie")).count("deskworld_") == 0
    dark, info = env.reset(options={"variant": "theme=dark,density=compact,shuffle=3"})
    assert info["variant"] == "theme=dark,density=compact,shuffle=3"
    # Chrome's Auto Dark Mode: the same page, drawn dark (mean brightness well below the light one's)
    assert dark["screenshot"].mean() < 0.5 * light["screenshot"].mean()
    html = env.session.page_call(lambda page: [page.evaluate("document.documentElement.dataset.density || ''"),
                                               page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches"),
                                               page.evaluate("document.cookie")])
    assert html[0] == "compact" and html[1] is True and "deskworld_shuffle=3" in html[2]
    again, _ = env.reset(options={"variant": "default"})          # and gone again on the default
    assert np.array_equal(again["screenshot"], light["screenshot"])


def test_a_locale_reaches_the_page_and_the_answer_is_read_as_the_page_wrote_it(env):
    """locale=de-DE: the cookie and the browser's own locale reach the page (the clock in German order
    and 24-hour time), and the verifier reads a German-written figure as the page wrote it; the same
    words in an en-US episode are another number."""
    from harness.tasks.registry import load_task
    from harness.verify import expected_answer
    obs, info = env.reset(options={"task": TASK, "variant": "locale=de-DE"})
    assert info["variant"] == "locale=de-DE"
    env.step({"type": "navigate", "url": "/mail/inbox"})
    got = env.session.page_call(lambda page: [page.evaluate("navigator.language"),
                                              page.evaluate("document.documentElement.dataset.locale || ''"),
                                              page.locator("#world-clock").inner_text()])
    assert got[:2] == ["de-DE", "de-DE"]
    assert re.fullmatch(r"[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} · \d{2}:\d{2}", got[2]), got[2]
    desk = env.session.desk()
    gt = int(expected_answer(load_task(TASK), desk.initial_state(), desk.world.root))
    assert gt >= 1000                                    # written with a group separator
    german = f"{gt:,}".replace(",", ".")
    *_, info = env.step({"type": "done", "answer": f"ANSWER: {german} GT"})
    assert info["result"]["passed"], info["result"]
    env.reset(options={"task": TASK, "variant": "default"})
    *_, info = env.step({"type": "done", "answer": f"ANSWER: {german} GT"})
    assert not info["result"]["passed"]


class _Item:
    """An OpenAI ``computer_call`` output item, as the SDK gives it."""

    def __init__(self, action: dict):
        self.call_id = "call_1"
        self._d = {"type": "computer_call", "call_id": "call_1", "action": action}

    def to_dict(self, mode="json"):
        return self._d


SCREENS = [Variant(viewport=vp, scale=s) for vp in VIEWPORTS for s in SCALES] + [
    Variant(viewport=(1440, 900), scale=2.0, zoom=1.25), Variant(viewport=(1024, 768), scale=1.5, zoom=2.0)]


@pytest.mark.parametrize("vendor", ["anthropic", "openai"])
def test_the_vendor_adapters_downscaled_coordinates_land_on_the_element(env, vendor):
    """What a model answers is in the pixels of the image it was sent (fitted within the vendor's
    limits, ``Screen``); the adapter maps it back. The element's centre, in the model's image,
    sent through the adapter, lands on the element within one model pixel."""
    for v in SCREENS:
        obs, _ = env.reset(options={"variant": v})
        box = _target(env)
        cx, cy = box["x"] + box["w"] / 2, box["y"] + box["h"] / 2         # CSS px
        agent = (AnthropicAgent("claude-sonnet-5-5", client=object()) if vendor == "anthropic"
                 else OpenAIAgent("gpt-5.4", client=object()))
        agent.screen.see(obs)
        from PIL import Image
        import io
        sent = Image.open(io.BytesIO(agent.screen.png(obs["screenshot"])))
        assert sent.size == agent.screen.size
        sx, sy = agent.screen.scale
        f = v.px_per_css
        mx, my = round(cx * f / sx), round(cy * f / sy)                # where the model points, in its image
        if vendor == "anthropic":
            agent.reset(None)
            agent.screen.see(obs)
            (p,) = agent._convert({"type": "tool_use", "id": "t1", "name": "left_click",
                                   "input": {"coordinate": [mx, my]}, "toolset_name": "computer"})
        else:
            (p,) = agent._convert(_Item({"type": "click", "button": "left", "x": mx, "y": my}))
        obs2, *_ = env.step(p.action)
        assert obs2["last_action_error"] == "", (str(v), p.action)
        hit = _hit(env)
        assert hit["on"], (str(v), p.action, box)
        # Back in the model's image: within one of its pixels of where it pointed.
        assert abs(hit["x"] * f / sx - mx) <= 1 and abs(hit["y"] * f / sy - my) <= 1, (str(v), hit, mx, my)


def test_a_fixed_variant_env_runs_on_it_and_refuses_another_screen():
    e = DeskEnv(TASK, variant="viewport=1024x768,scale=1.25")
    try:
        obs, info = e.reset()
        assert obs["screenshot"].shape == (960, 1280, 3) and info["variant"] == "viewport=1024x768,scale=1.25"
        obs, info = e.reset(options={"variant": "viewport=1280x800,scale=1"})  # 1280x800 != 1280x960
        pytest.fail("a reset to another screen size must be refused")
    except Exception as err:
        assert "variant='any'" in str(err)
    finally:
        e.close()


def test_a_run_records_its_variants_and_reports_per_variant(tmp_path):
    out = tmp_path / "run"
    res = CliRunner().invoke(main, ["run", "--agent", "noop", "--tasks", TASK, "--variant", "scale=1.5",
                                    "--variant", "viewport=1024x768,zoom=2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "appearance" in res.output                    # the per-variant table (rich may wrap its title)
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert sorted((r["sample"], r["variant"]) for r in rows) == [(0, "scale=1.5"), (1, "viewport=1024x768,zoom=2")]
    run = json.loads((out / "run.json").read_text())
    assert [v["name"] for v in run["variants"]] == ["scale=1.5", "viewport=1024x768,zoom=2"]
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["per_variant"]) == {"scale=1.5", "viewport=1024x768,zoom=2"}
    world, name = TASK.split("/")
    result = json.loads((out / "episodes" / world / name / "1" / "result.json").read_text())
    assert result["variant"]["name"] == "viewport=1024x768,zoom=2" and result["variant"]["screen"] == [1024, 768]
    from PIL import Image
    assert Image.open(out / "episodes" / world / name / "0" / "screens" / "0000.png").size == (1920, 1200)
    # A resume with other variants is another run.
    res = CliRunner().invoke(main, ["run", "--agent", "noop", "--tasks", TASK, "--variant", "scale=2",
                                    "--out", str(out), "--resume"])
    assert res.exit_code != 0 and "variants" in res.output


def test_check_variants_on_todays_sample_of_tasks():
    """``deskworld check --variants`` on two tasks a day (of the short ones, by the day of the year, so
    the days go round them all): each oracle also scores 1 on one value of every variant axis.
    ``make check-variants`` runs every task."""
    import datetime

    from harness.qc.check import VARIANT_AXES, check
    from harness.tasks.registry import all_tasks
    pool = sorted(t.id for t in all_tasks() if len(t.oracle) <= 12 and not t.infeasible)
    day = datetime.date.today().timetuple().tm_yday
    tasks = [pool[(2 * day) % len(pool)], pool[(2 * day + 1) % len(pool)]]
    reports, overall = check(tasks, workers=2, variants=list(VARIANT_AXES))
    assert not overall and [r.task for r in reports] == tasks
    for r in reports:
        assert set(r.variants) == set(VARIANT_AXES) and not r.problems, (r.task, r.problems, r.variants)
        assert all(v["score"] == 1.0 for v in r.variants.values())

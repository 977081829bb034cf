"""Browser discovery and launch: the one place that decides which Chromium
runs and with which flags, so tests, the env and the CLI behave the same.

Discovery order:
1. ``$DESKWORLD_CHROMIUM`` (a path to a Chromium binary);
2. Playwright's own Chromium, when ``playwright install chromium`` was run;
3. the system's Chromium (Debian/Ubuntu ``chromium``, others' ``chromium-browser``).

``python -m harness.env.browser ensure`` installs the system Chromium and fonts
with apt-get when nothing is found and it can (root or passwordless sudo);
otherwise it prints the exact command to run.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

VIEWPORT = {"width": 1280, "height": 800}
APT_PACKAGES = ("chromium", "fonts-liberation", "fonts-dejavu-core", "fonts-noto-color-emoji")
SYSTEM_CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser",
                     "/snap/bin/chromium", "/usr/bin/google-chrome")
# No request leaves the machine: everything but loopback goes to a proxy that
# refuses connections (port 9, discard). See harness/env/containment.py.
DEAD_PROXY = "--proxy-server=http://127.0.0.1:9"
EXTRA_ARGS = (DEAD_PROXY, "--disable-gpu", "--disable-quic", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run",
              "--disable-default-apps", "--disable-extensions", "--mute-audio",
              "--font-render-hinting=none", "--force-color-profile=srgb",
              # Whole-tile raster: partial raster anti-aliases curve edges by which part of a tile was
              # invalidated when, so the same page gave different pixels under load (harness/env/settle.py).
              "--disable-partial-raster",
              # Scrollbars stay: with them hidden, a list wider or longer than its panel was cut off with
              # no cue that more was there. The apps style them as their products do (deskworld.css).
              "--disable-features=Translate,MediaRouter,OptimizationHints,InterestFeedContentSuggestions")


class BrowserNotFound(RuntimeError):
    """No Chromium could be found; the message says what to install."""


def playwright_chromium() -> str | None:
    """Path of Playwright's own Chromium if it is installed."""
    try:
        from playwright._impl._driver import compute_driver_executable  # noqa: F401
    except ImportError:
        return None
    roots = [os.environ.get("PLAYWRIGHT_BROWSERS_PATH"), str(Path.home() / ".cache" / "ms-playwright")]
    for root in filter(None, roots):
        base = Path(root)
        if not base.is_dir():
            continue
        for d in sorted(base.glob("chromium-*"), reverse=True):
            for exe in (d / "chrome-linux" / "chrome", d / "chrome-linux64" / "chrome"):
                if exe.is_file() and os.access(exe, os.X_OK):
                    return str(exe)
    return None


def system_chromium() -> str | None:
    for cand in SYSTEM_CANDIDATES:
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    return found


def find_chromium() -> str | None:
    """The Chromium executable to launch, or None (Playwright's default)."""
    env = os.environ.get("DESKWORLD_CHROMIUM")
    if env:
        return env
    return playwright_chromium() or system_chromium()


def executable_path() -> str | None:
    """What to pass as ``executable_path``: None when Playwright's own browser
    is installed (it finds it), else the system binary."""
    if os.environ.get("DESKWORLD_CHROMIUM"):
        return os.environ["DESKWORLD_CHROMIUM"]
    if playwright_chromium():
        return None
    exe = system_chromium()
    if exe is None:
        raise BrowserNotFound(install_hint())
    return exe


def install_hint() -> str:
    return ("No Chromium found. Install one of:\n"
            f"  sudo apt-get update && sudo apt-get install -y {' '.join(APT_PACKAGES)}\n"
            "  .venv/bin/playwright install chromium      (where the internet is reachable)\n"
            "or point DESKWORLD_CHROMIUM at a Chromium binary.")


def launch_args(*, headed: bool = False) -> dict:
    """Keyword arguments for ``playwright.chromium.launch`` (``headed``: a real window, for a person:
    ``deskworld record --direct``)."""
    args = {"headless": not headed, "args": list(EXTRA_ARGS),
            "ignore_default_args": ["--hide-scrollbars"]}       # Playwright hides them in headless mode
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args["chromium_sandbox"] = False
    exe = executable_path()
    if exe:
        args["executable_path"] = exe
    return args


def context_args(*, timezone: str = "America/New_York", locale: str = "en-US", variant=None) -> dict:
    """Keyword arguments for ``browser.new_context``: the viewport and scale (1280×800 at 1, or
    those of ``variant``, a ``harness.env.variant.Variant``), the world's time zone and locale,
    no motion, no service workers."""
    geometry = variant.context_args() if variant is not None else {
        "viewport": dict(VIEWPORT), "screen": dict(VIEWPORT), "device_scale_factor": 1}
    return {
        **geometry,
        "locale": variant.locale if variant is not None and variant.locale != "en-US" else locale,
        "timezone_id": timezone,
        "reduced_motion": "reduce",
        "color_scheme": variant.theme if variant is not None else "light",
        "service_workers": "block",
        "accept_downloads": True,
    }


def _can_install() -> list[str] | None:
    if not shutil.which("apt-get"):
        return None
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return []
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0:
        return ["sudo", "-n"]
    return None


def fonts_present() -> bool:
    """Text fonts and a colour emoji font (chat reactions) are installed."""
    text = any(Path(p).exists() for p in ("/usr/share/fonts/truetype/liberation",
                                           "/usr/share/fonts/truetype/liberation2",
                                           "/usr/share/fonts/truetype/dejavu"))
    return text and Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf").exists()


def ensure() -> int:
    """Make sure a browser (and fonts) are there; install with apt-get if we can."""
    exe = find_chromium()
    if exe and fonts_present():
        print(f"deskworld: browser {exe}")
        return 0
    prefix = _can_install()
    if prefix is None:
        print(install_hint(), file=sys.stderr)
        return 0 if exe else 1
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    print(f"deskworld: installing {' '.join(APT_PACKAGES)} with apt-get …", flush=True)
    subprocess.run([*prefix, "apt-get", "update", "-qq"], check=False, env=env)
    r = subprocess.run([*prefix, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *APT_PACKAGES],
                       env=env)
    exe = find_chromium()
    if r.returncode != 0 or not exe:
        print(install_hint(), file=sys.stderr)
        return 1
    print(f"deskworld: browser {exe}")
    return 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "which"
    if cmd == "ensure":
        sys.exit(ensure())
    exe = find_chromium()
    print(exe or install_hint())
    sys.exit(0 if exe else 1)

"""Where the vendored front-end packages keep their files: htmx and the Roboto fonts.

The shell serves them (``/_vendor/htmx.min.js``, ``/_fonts/<name>``); the run viewer serves the
same htmx.
"""
from __future__ import annotations

from pathlib import Path

import font_roboto
import js_lib_htmx

HTMX_DIR = Path(js_lib_htmx.__file__).parent / "static" / "htmx"
FONT_DIR = Path(font_roboto.__file__).parent / "files"
FONTS = {"Roboto-Regular.ttf", "Roboto-Medium.ttf", "Roboto-Bold.ttf", "Roboto-Italic.ttf",
         "Roboto-Light.ttf"}

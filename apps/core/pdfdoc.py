"""Render a world's Markdown source (``*.pdf.md``) to a PDF, byte-stable.

Supports what documents in a data room use: headings, paragraphs with bold
and italics, bulleted and numbered lists (nested), pipe tables and rules.
Fonts are Roboto from the ``font-roboto`` package, so the output is the same
on every machine; the creation date is fixed so the bytes are too.
"""
from __future__ import annotations

import copy
import hashlib
import os
from io import BytesIO
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

import font_roboto
from fontTools import subset as ftsubset
from fontTools import ttLib
from fpdf import output as fpdf_output
from fpdf import FPDF
from fpdf.fonts import FontFace, PDFFontDescriptor, SubsetMap, TTFFont, get_color_font_object
from markdown_it import MarkdownIt

FONT_DIR = Path(font_roboto.__file__).parent / "files"
BODY_PT = 10.5
LINE_MM = 5.2
HEADING_PT = {1: 16, 2: 13, 3: 11.5, 4: 10.5, 5: 10.5, 6: 10.5}
EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)


# Parsing a TrueType font's cmap and metrics is half of rendering a page; a world variant renders
# dozens of documents, so each process parses each font once and later documents get a copy of it:
# the parsed metrics shared (read only), a fresh lazily-read font file to subset and a fresh
# descriptor (both changed by fpdf2 when it writes the document). The bytes are the same.
_FONTS: dict[str, tuple[TTFFont, PDFFontDescriptor]] = {}


class _FastTTF(TTFFont):
    """fpdf2's TrueType font, measuring text without a generator per character (line breaking
    measures every prefix of a line: most of the time spent laying out a page). The same integers
    are summed, so the widths — and the bytes — are the same."""
    __slots__ = ()

    def get_text_width(self, text, font_size_pt, text_shaping_params):
        if text_shaping_params or self.is_symbol:
            return super().get_text_width(text, font_size_pt, text_shaping_params)
        if font_size_pt > self.biggest_size_pt:
            self.biggest_size_pt = font_size_pt
        return len(text), sum(map(self.cw.__getitem__, map(ord, text))) * font_size_pt * 0.001


def _add_font(pdf: FPDF, style: str, path: str) -> None:
    key = f"roboto{style}"
    proto = _FONTS.get(path)
    if proto is None:
        pdf.add_font("Roboto", style, path)
        font = pdf.fonts[key]
        font.__class__ = _FastTTF
        _FONTS[path] = (font, copy.deepcopy(font.desc))
        return
    base, desc = proto
    font = object.__new__(_FastTTF)
    for name in TTFFont.__slots__:
        if hasattr(base, name):
            setattr(font, name, getattr(base, name))
    font.i = len(pdf.fonts) + 1
    font.fontkey = key
    font.ttfont = ttLib.TTFont(BytesIO(_trimmed(path)), recalcTimestamp=False, fontNumber=0, lazy=True)
    font.ttfont._deskworld_source = path
    font._hbfont = None
    font.biggest_size_pt = 0
    font.missing_glyphs = []
    font.cw = defaultdict(base.cw.default_factory, base.cw)
    font.desc = copy.deepcopy(desc)
    font.subset = SubsetMap(font)
    font.color_font = None if base.color_font is None else get_color_font_object(pdf, font, font.palette_index)
    pdf.fonts[key] = font


# fpdf2 drops these tables from every subset it embeds (fpdf/output.py, _add_fonts) — the layout
# tables are most of the work of reading the font; a copy of the font file without them subsets to
# the same bytes.
_DROPPED = ("FFTM", "GDEF", "GPOS", "GSUB", "MATH", "hdmx", "meta", "sbix", "CBDT", "CBLC", "EBDT", "EBLC",
            "EBSC", "SVG ", "CPAL", "COLR")
_TRIMMED: dict[str, bytes] = {}


def _trimmed(path: str) -> bytes:
    if path not in _TRIMMED:
        f = ttLib.TTFont(path, recalcTimestamp=False)
        for tag in _DROPPED:
            if tag in f:
                del f[tag]
        out = BytesIO()
        f.save(out)
        _TRIMMED[path] = out.getvalue()
    return _TRIMMED[path]


# Subsetting a font for a document costs more than laying it out, and depends only on the font and
# the glyphs the document uses: a variant's documents use the glyphs the published ones did, so
# the subset font is kept (memory and ``$DESKWORLD_CACHE/built/``) by font and glyph set. fpdf2
# calls ``ftsubset.Subsetter(options).populate(glyphs=…)`` then ``.subset(ttfont)`` and reads the
# font afterwards; ``_Subsetter`` turns our fonts into the kept subset instead of subsetting again.
class _Subsetter:
    def __init__(self, options):
        self._real = ftsubset.Subsetter(options)
        self._glyphs: tuple = ()

    def populate(self, glyphs=(), **kw):
        self._glyphs = tuple(sorted(glyphs))
        self._real.populate(glyphs=glyphs, **kw)

    def subset(self, font) -> None:
        source = getattr(font, "_deskworld_source", None)
        if source is None or not self._glyphs:
            return self._real.subset(font)
        key = hashlib.sha256(_font_digest(source).encode() + "\0".join(self._glyphs).encode()
                             + repr(sorted(vars(self._real.options).items())).encode()).hexdigest()
        data = _subset_cache(key)
        if data is None:
            self._real.subset(font)
            out = BytesIO()
            font.save(out)
            data = out.getvalue()
            _subset_cache(key, data)
        kept = ttLib.TTFont(BytesIO(data), recalcTimestamp=False)
        font.__dict__.clear()
        font.__dict__.update(kept.__dict__)


class _SubsetModule:
    """What fpdf2's output sees as ``fontTools.subset``: the same, with the caching subsetter."""
    Options = ftsubset.Options
    Subsetter = _Subsetter

    def __getattr__(self, name):
        return getattr(ftsubset, name)


fpdf_output.ftsubset = _SubsetModule()
_SUBSETS: dict[str, bytes] = {}
_DIGESTS: dict[str, str] = {}


def _font_digest(path: str) -> str:
    if path not in _DIGESTS:
        _DIGESTS[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return _DIGESTS[path]


def _subset_cache(key: str, data: bytes | None = None) -> bytes | None:
    from apps.core.variants import cache_base
    path = cache_base() / "built" / f"subset-{key[:32]}.ttf"
    if data is None:
        if key not in _SUBSETS and path.is_file():
            _SUBSETS[key] = path.read_bytes()
        return _SUBSETS.get(key)
    _SUBSETS[key] = data
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return data


class _Doc(FPDF):
    def __init__(self, title: str):
        super().__init__(format="letter", unit="mm")
        self.doc_title = title
        for style, file in (("", "Regular"), ("B", "Bold"), ("I", "Italic"), ("BI", "BoldItalic")):
            _add_font(self, style, str(FONT_DIR / f"Roboto-{file}.ttf"))
        self.set_margins(22, 20, 22)
        self.set_auto_page_break(True, margin=20)
        self.set_creation_date(EPOCH)
        self.set_title(title)
        self.set_producer("deskworld")
        self.alias_nb_pages()

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font("Roboto", "", 8)
        self.set_text_color(110, 110, 110)
        self.cell(0, 5, f"{self.doc_title}  ·  Page {self.page_no()} of {{nb}}", align="C")
        self.set_text_color(0, 0, 0)


def _inline(pdf: _Doc, children, size: float, base: str = "") -> None:
    bold = "B" in base
    italic = "I" in base
    for c in children:
        if c.type == "strong_open":
            bold = True
        elif c.type == "strong_close":
            bold = "B" in base
        elif c.type == "em_open":
            italic = True
        elif c.type == "em_close":
            italic = "I" in base
        elif c.type in ("text", "code_inline"):
            pdf.set_font("Roboto", ("B" if bold else "") + ("I" if italic else ""), size)
            h = LINE_MM * size / BODY_PT
            text = c.content
            # fpdf2 splits a word that starts a chunk at the end of a line; move it down whole.
            first = text.split(" ", 1)[0]
            room = pdf.w - pdf.r_margin - pdf.get_x()
            if first and pdf.get_x() > pdf.l_margin + 0.1 and pdf.get_string_width(first) > room:
                pdf.ln(h)
            pdf.write(h, text)
        elif c.type in ("softbreak", "hardbreak"):
            pdf.ln(LINE_MM * size / BODY_PT)
    pdf.set_font("Roboto", "", BODY_PT)


def _plain(token) -> str:
    return "".join(c.content for c in (token.children or []) if c.type in ("text", "code_inline"))


def render_pdf(markdown: str, title: str) -> bytes:
    md = MarkdownIt("commonmark").enable("table")
    tokens = md.parse(markdown)
    pdf = _Doc(title)
    pdf.add_page()
    pdf.set_font("Roboto", "", BODY_PT)
    lists: list[list] = []          # stack of [ordered, counter]
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.type == "heading_open":
            level = int(t.tag[1])
            size = HEADING_PT[level]
            pdf.ln(2 if pdf.get_y() > 30 else 0)
            pdf.set_x(pdf.l_margin)
            _inline(pdf, tokens[i + 1].children, size, "B")
            pdf.ln(LINE_MM * size / BODY_PT + 1.5)
            i += 3
            continue
        if t.type == "paragraph_open":
            inline = tokens[i + 1]
            if lists:
                ordered, _ = lists[-1]
                indent = 6 * len(lists)
                pdf.set_left_margin(22 + indent)
                pdf.set_x(22 + indent - 5)
                if not tokens[i - 1].type == "list_item_open":
                    pdf.set_x(22 + indent)
                else:
                    lists[-1][1] += 1
                    marker = f"{lists[-1][1]}." if ordered else "•"
                    pdf.cell(5, LINE_MM, marker)
                _inline(pdf, inline.children, BODY_PT)
                pdf.ln(LINE_MM + 0.8)
                pdf.set_left_margin(22)
            else:
                pdf.set_x(pdf.l_margin)
                _inline(pdf, inline.children, BODY_PT)
                pdf.ln(LINE_MM + 2.2)
            i += 3
            continue
        if t.type in ("bullet_list_open", "ordered_list_open"):
            start = int(t.attrGet("start") or 1) - 1
            lists.append([t.type == "ordered_list_open", start])
        elif t.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
            if not lists:
                pdf.ln(1.5)
        elif t.type == "hr":
            y = pdf.get_y() + 1.5
            pdf.set_draw_color(160, 160, 160)
            pdf.line(pdf.l_margin, y, pdf.w - pdf.r_margin, y)
            pdf.ln(4.5)
        elif t.type == "table_open":
            rows: list[list[str]] = []
            j = i + 1
            while tokens[j].type != "table_close":
                if tokens[j].type == "tr_open":
                    rows.append([])
                elif tokens[j].type == "inline":
                    rows[-1].append(_plain(tokens[j]))
                j += 1
            _table(pdf, rows)
            i = j + 1
            continue
        i += 1
    return bytes(pdf.output())


def _table(pdf: _Doc, rows: list[list[str]]) -> None:
    if not rows:
        return
    pdf.set_font("Roboto", "", 9.5)
    pdf.set_draw_color(190, 190, 190)
    head = FontFace(emphasis="BOLD", fill_color=(235, 238, 242))
    with pdf.table(line_height=5, padding=1.4, headings_style=head,
                   first_row_as_headings=True, text_align="LEFT") as table:
        for r in rows:
            row = table.row()
            for cell in r:
                row.cell(cell)
    pdf.set_font("Roboto", "", BODY_PT)
    pdf.ln(3)

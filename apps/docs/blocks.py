"""A document as structured blocks, and the conversions around it.

A block is ``{"type", "level", "text", "marks"}``: ``type`` is ``title``,
``heading`` (level 1–3), ``paragraph``, ``bullet`` or ``numbered`` (level =
list depth, 1-based), ``rule`` (a horizontal line), ``page_break`` or ``image`` (a Drive image: mark ``image``, value the
Drive item's id; all three with no text), or ``table`` (its text is the
cells, tab between cells and a line break between rows — ``table_rows`` splits it — so marks,
comments and suggestions in cells are ranges like anywhere else); ``marks`` are ``[start, end, kind, value]`` ranges over
``text`` with ``kind`` in ``bold``, ``italic``, ``underline``, ``link`` (value:
the URL) and ``comment`` (value: the comment id).

Suggestions (suggesting mode) are not part of a block: the editor shows a suggested insertion as
``<ins data-suggestion="ID">text</ins>`` (its text is not the block's) and a suggested deletion as
``<del data-suggestion="ID">text</del>`` (its text still is); ``parse`` returns them beside the
blocks, ``to_html`` draws them back.

HTML from the editor is sanitised with nh3 first (``sanitize``), then parsed
into blocks; blocks render back to exactly one HTML form, so a document
opened and saved unchanged is unchanged.
"""
from __future__ import annotations

import html as html_lib
from html.parser import HTMLParser

import nh3

import apps.docs.styles as ST
from apps.core.ids import as_id
from apps.docs.tableparse import TableParsing

BLOCK_TAGS = {"p": ("paragraph", 0), "div": ("paragraph", 0), "h1": ("heading", 1), "h2": ("heading", 2),
              "h3": ("heading", 3), "h4": ("heading", 4), "h5": ("heading", 5), "h6": ("heading", 6), "li": (None, 0)}
PARAGRAPH_STYLES = ("title", "subtitle")               # <p data-style="title">: block types of their own
ALLOWED_TAGS = {"p", "div", "br", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "b", "strong", "i", "em",
                "u", "a", "span", "font", "hr", "ins", "del", "img", "table", "thead", "tbody", "tr", "td", "th"}
IMAGE_SRC = "/drive/file/{}/raw"                      # Drive's own address for an image file's bytes
MARK_ORDER = ("image", "align", "link", "comment", "font", "size", "color", "highlight", "bold", "italic", "underline", "sdel")    # sdel: a suggested deletion (drawing only)
MAX_HTML = 2_000_000


def sanitize(html: str) -> str:
    """Only the tags and attributes a document can hold; scripts, event
    handlers, styles and ``javascript:`` links are dropped (nh3 / ammonia)."""
    return nh3.clean(html[:MAX_HTML], tags=ALLOWED_TAGS,
                     attributes={"a": {"href"}, "span": {"data-comment", "style"}, "hr": {"data-break"},
                                 "ins": {"data-suggestion", "data-author"}, "del": {"data-suggestion", "data-author"},
                                 "font": {"color", "face", "size", "style"}, "img": {"data-drive", "alt", "src"}, "p": {"style", "align", "data-style"},
                                 **{t: {"style", "align"} for t in ("div", "h1", "h2", "h3", "h4", "h5", "h6", "li")}},
                     filter_style_properties=ST.STYLE_PROPERTIES,
                     url_schemes={"http", "https", "mailto"}, link_rel=None,
                     strip_comments=True).replace(' style=""', "")


def _normalize_marks(marks: list, length: int) -> list:
    """Clip, drop empty, merge touching ranges of the same kind and value, sort. An alignment covers the
    whole block (an empty one too); the last one given holds."""
    align = [m[3] for m in marks if m[2] == "align"]
    image = [i for m in marks if m[2] == "image" for i in [as_id(m[3])] if i is not None]
    out: list = [[0, length, "image", image[-1]]] if image else []
    out += [[0, length, "align", align[-1]]] if align and align[-1] in ST.ALIGNS else []
    for start, end, kind, value in sorted(((int(s), int(e), k, v) for s, e, k, v in marks if k not in ("align", "image")),
                                          key=lambda m: (m[0], m[1], m[2], str(m[3]))):
        start, end = max(0, start), min(length, end)
        if end <= start or (kind == "link" and not value):
            continue
        for m in out:
            if m[2] == kind and m[3] == value and m[0] <= end and start <= m[1]:
                m[0], m[1] = min(m[0], start), max(m[1], end)
                break
        else:
            out.append([start, end, kind, value])
    return sorted(out, key=lambda m: (m[0], MARK_ORDER.index(m[2]), m[1], str(m[3])))


def block(type_: str, text: str = "", level: int = 0, marks: list | None = None) -> dict:
    text = text.replace("\u00a0", " ")
    return {"type": type_, "level": level, "text": text, "marks": _normalize_marks(marks or [], len(text))}


class _Parser(TableParsing, HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: list[dict] = []
        self.cur: dict | None = None
        self.active: list[tuple[str, str, object]] = []      # (tag, kind, value)
        self.lists: list[str] = []
        self.open_marks: list[list] = []
        self.ins: dict | None = None                          # the suggested insertion being read
        self.table: dict | None = None                        # the table being read: cells per row, in a cell
        self.suggestions: list[dict] = []

    def _start_block(self, type_: str, level: int) -> None:
        self._end_block()
        self.cur = {"type": type_, "level": level, "text": "", "marks": []}

    def _end_block(self) -> None:
        if self.cur is not None and not self.cur.get("seen"):
            self.cur = None                  # an element with nothing in it (not even <br>) shows nothing
        if self.cur is not None:
            text = self.cur["text"]
            # Trailing line breaks are how editors keep an empty line open; they are not content.
            stripped = text.rstrip("\n") if self.cur["type"] != "table" else self._square()
            for m in self.open_marks:          # marks still open at the block's end close there
                if m[1] is None:
                    self.cur["marks"].append([m[0], len(stripped), m[2], m[3]])
                    m[0] = 0
            if self.ins is not None:           # so does a suggested insertion
                self._end_ins()
                self.ins = {"id": self.ins["id"], "start": 0, "text": ""}
            marks = [m for m in self.cur["marks"] if m[2] != "sdel"]
            if self.cur.get("align"):
                marks.append([0, len(stripped), "align", self.cur["align"]])
            self._suggestions(len(stripped), [m for m in self.cur["marks"] if m[2] == "sdel"])
            self.blocks.append(block(self.cur["type"], stripped, self.cur["level"], marks))
        self.cur = None

    def _end_ins(self) -> None:
        if self.ins["text"]:
            self.cur.setdefault("ins", []).append(self.ins)

    def _suggestions(self, length: int, dels: list) -> None:
        """The block's suggestions, offsets clipped to its text; pieces of one suggestion that touch merge."""
        out: list[dict] = []
        for ins in self.cur.get("ins", []):
            at = min(ins["start"], length)
            prev = out[-1] if out else None
            if prev and prev["id"] == ins["id"] and prev["start"] == at:
                prev["text"] += ins["text"]
            else:
                out.append({"index": len(self.blocks), "id": ins["id"], "kind": "insert", "start": at, "end": at,
                            "text": ins["text"]})
        spans: list[list] = []
        for s, e, _, sid in sorted(dels, key=lambda m: (m[0], m[1])):
            s, e = min(s, length), min(e, length)
            if e <= s:
                continue
            if spans and spans[-1][2] == sid and spans[-1][1] >= s:
                spans[-1][1] = max(spans[-1][1], e)
            else:
                spans.append([s, e, sid])
        text = self.cur["text"]
        out += [{"index": len(self.blocks), "id": sid, "kind": "delete", "start": s, "end": e, "text": text[s:e]}
                for s, e, sid in spans]
        self.suggestions += out

    def _ensure_block(self) -> None:
        if self.cur is None:
            if self.lists:
                kind = "numbered" if self.lists[-1] == "ol" else "bullet"
                self.cur = {"type": kind, "level": len(self.lists), "text": "", "marks": []}
            else:
                self.cur = {"type": "paragraph", "level": 0, "text": "", "marks": []}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._table_tag(tag, True):
            return
        if tag == "img":                     # an image from Drive: a block of its own (not in a table cell)
            iid = as_id(attrs.get("data-drive") or "")
            if self.table is None and iid is not None:
                self._end_block()
                self.blocks.append(block("image", "", 0, [[0, 0, "image", iid]]))
            return
        if tag == "hr":                      # a horizontal line, or a page break (<hr data-break="page">)
            self._end_block()
            self.blocks.append(block("page_break" if attrs.get("data-break") == "page" else "rule"))
            return
        if tag in ("ul", "ol"):
            self._end_block()
            self.lists.append(tag)
            return
        if tag == "li":
            kind = "numbered" if self.lists and self.lists[-1] == "ol" else "bullet"
            self._start_block(kind, max(1, len(self.lists)))
            self.cur["align"] = ST.block_align(attrs)
            return
        if tag in BLOCK_TAGS:
            type_, level = BLOCK_TAGS[tag]
            if self.lists and tag in ("p", "div") and self.cur is not None and not self.cur["text"]:
                return                       # <li><p>…</p></li>: the list item is the block
            if tag == "p" and attrs.get("data-style") in PARAGRAPH_STYLES:
                type_ = attrs["data-style"]
            self._start_block(type_, level)
            self.cur["align"] = ST.block_align(attrs)
            return
        if tag == "br":
            self._ensure_block()
            if self.ins is not None:
                self.ins["text"] += "\n"
            else:
                self.cur["text"] += "\n"
            self.cur["seen"] = True
            return
        if tag == "ins" and attrs.get("data-suggestion"):
            self._ensure_block()
            self.cur["seen"] = True
            if self.ins is None:
                self.ins = {"id": attrs["data-suggestion"], "start": len(self.cur["text"]), "text": ""}
            return
        kind = {"b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline"}.get(tag)
        pairs: list[tuple[str, object]] = [(kind, True)] if kind else []
        if tag == "a":
            pairs = [("link", attrs.get("href") or "")]
        elif tag == "del" and attrs.get("data-suggestion"):
            pairs = [("sdel", attrs.get("data-suggestion"))]
        elif tag in ("span", "font"):
            pairs = ([("comment", attrs["data-comment"])] if attrs.get("data-comment") else []) + ST.inline_marks(tag, attrs)
        if not pairs:
            self.active.append((tag, []))
            return
        self._ensure_block()
        self.active.append((tag, pairs))
        self.open_marks += [[len(self.cur["text"]), None, k, v] for k, v in pairs]

    def handle_endtag(self, tag):
        if self._table_tag(tag, False):
            return
        if tag == "ins":
            if self.ins is not None and self.cur is not None:
                self._end_ins()
            self.ins = None
            return
        if tag in ("ul", "ol"):
            self._end_block()
            if self.lists:
                self.lists.pop()
            return
        if tag == "li" or tag in BLOCK_TAGS:
            if tag in ("p", "div") and self.lists and self.cur is not None and self.cur["type"] in ("bullet", "numbered"):
                return
            self._end_block()
            return
        for i in range(len(self.active) - 1, -1, -1):
            if self.active[i][0] == tag:
                _, pairs = self.active.pop(i)
                for kind, value in pairs:
                    for j in range(len(self.open_marks) - 1, -1, -1):
                        m = self.open_marks[j]
                        if m[2] == kind and m[3] == value and m[1] is None:
                            m[1] = len(self.cur["text"]) if self.cur else m[0]
                            if self.cur is not None:
                                self.cur["marks"].append([m[0], m[1], kind, value])
                            self.open_marks.pop(j)
                            break
                break

    def handle_data(self, data):
        if not data.strip() and self.cur is None:
            return                          # whitespace between blocks
        if self.table is not None:
            if not self.table["in"]:
                return                      # between a table's cells
            data = data.replace("\t", " ")
        self._ensure_block()
        if self.ins is not None:
            self.ins["text"] += data.replace("\r", "").replace("\n", " ").replace("\u00a0", " ")
        else:
            self.cur["text"] += data.replace("\r", "").replace("\n", " ")
        self.cur["seen"] = True

    def close(self):
        super().close()
        self._end_block()


def parse(html: str) -> tuple[list[dict], list[dict]]:
    """Blocks and suggestions from (already sanitised) editor HTML. A suggestion is ``{"index"`` (its
    block's position), ``"id"`` (the editor's ``data-suggestion``), ``"kind"`` (insert | delete),
    ``"start"``, ``"end"``, ``"text"}``; offsets are into the block's text."""
    p = _Parser()
    p.feed(html)
    p.close()
    # An editor always holds at least one (maybe empty) paragraph.
    return p.blocks or [block("paragraph")], p.suggestions


def from_html(html: str) -> list[dict]:
    """Blocks from (already sanitised) editor HTML."""
    return parse(html)[0]


# ---------------------------------------------------------------- rendering
def _segments(b: dict, cuts_at: tuple = ()) -> list[tuple[str, list]]:
    text, marks = b["text"], b["marks"]
    cuts = sorted({0, len(text), *(m[0] for m in marks), *(m[1] for m in marks), *cuts_at})
    out = []
    for a, z in zip(cuts, cuts[1:]):
        active = [m for m in marks if m[0] <= a and z <= m[1]]
        out.append((text[a:z], sorted(active, key=lambda m: MARK_ORDER.index(m[2]))))
    return out


def _ins_html(s: dict) -> str:
    text = html_lib.escape(s["text"], quote=False).replace("\n", "<br>")
    return (f'<ins data-suggestion="{html_lib.escape(str(s["id"]))}" '
            f'data-author="{html_lib.escape(str(s.get("author") or ""))}">{text}</ins>')


def _inline_html(b: dict, suggestions: list[dict] | None = None) -> str:
    suggestions = suggestions or []
    if suggestions:
        b = {**b, "marks": b["marks"] + [[s["start"], s["end"], "sdel", s] for s in suggestions
                                         if s["kind"] == "delete"]}
    inserts = sorted((s for s in suggestions if s["kind"] == "insert"), key=lambda s: (s["start"], str(s["id"])))
    parts = []
    pos = 0
    for seg, active in _segments(b, tuple(s["start"] for s in inserts)):
        parts += [_ins_html(s) for s in inserts if s["start"] == pos]
        pos += len(seg)
        s = html_lib.escape(seg, quote=False).replace("\n", "<br>")
        for m in reversed(active):
            kind = m[2]
            if kind == "align":
                continue                     # the block's, drawn on its element
            if kind in ST.INLINE:
                s = ST.span(kind, m[3], s)
            elif kind == "link":
                s = f'<a href="{html_lib.escape(str(m[3]))}">{s}</a>'
            elif kind == "comment":
                s = f'<span data-comment="{html_lib.escape(str(m[3]))}">{s}</span>'
            elif kind == "sdel":
                s = (f'<del data-suggestion="{html_lib.escape(str(m[3]["id"]))}" '
                     f'data-author="{html_lib.escape(str(m[3].get("author") or ""))}">{s}</del>')
            else:
                tag = {"bold": "strong", "italic": "em", "underline": "u"}[kind]
                s = f"<{tag}>{s}</{tag}>"
        parts.append(s)
    parts += [_ins_html(s) for s in inserts if s["start"] >= pos]
    inner = "".join(parts)
    return inner or "<br>"


def table_rows(b: dict) -> list[list[str]]:
    """A table block's cells, row by row."""
    return [row.split("\t") for row in b["text"].split("\n")]


def _cells(b: dict, suggestions: list[dict] | None = None):
    """Each cell of a table block as a block of its own, with its marks and suggestions: (row, sub-block,
    suggestions), row by row."""
    pos = 0
    for r, row in enumerate(table_rows(b)):
        for cell in row:
            end = pos + len(cell)
            marks = [[max(m[0], pos) - pos, min(m[1], end) - pos, m[2], m[3]] for m in b["marks"]
                     if m[0] < end and m[1] > pos]
            sg = [{**x, "start": max(x["start"], pos) - pos, "end": min(x["end"], end) - pos}
                  for x in suggestions or []
                  if (x["kind"] == "insert" and pos <= x["start"] <= end) or (x["kind"] == "delete" and x["start"] < end and x["end"] > pos)]
            yield r, {"type": "paragraph", "level": 0, "text": cell, "marks": marks}, sg
            pos = end + 1


def _table_html(b: dict, suggestions: list[dict] | None) -> str:
    rows: list[list[str]] = []
    for r, cell, sg in _cells(b, suggestions):
        if r == len(rows):
            rows.append([])
        rows[r].append(f"<td>{_inline_html(cell, sg)}</td>")
    return "<table><tbody>" + "".join(f"<tr>{''.join(r)}</tr>" for r in rows) + "</tbody></table>"


def to_html(blocks: list[dict], suggestions: dict[int, list[dict]] | None = None) -> str:
    """The one HTML form of a document (what the editor is loaded with); ``suggestions``: by block
    position, the pending suggestions to draw in it."""
    out: list[str] = []
    stack: list[str] = []                    # open list tags
    suggestions = suggestions or {}
    for i, b in enumerate(blocks):
        sg = suggestions.get(i)
        if b["type"] in ("bullet", "numbered"):
            tag = "ol" if b["type"] == "numbered" else "ul"
            level = max(1, b["level"])
            while len(stack) > level:
                out.append(f"</{stack.pop()}>")
            while len(stack) < level:
                stack.append(tag)
                out.append(f"<{tag}>")
            if stack[-1] != tag:
                out.append(f"</{stack.pop()}>")
                stack.append(tag)
                out.append(f"<{tag}>")
            out.append(f"<li{ST.block_style_attr(b)}>{_inline_html(b, sg)}</li>")
            continue
        while stack:
            out.append(f"</{stack.pop()}>")
        if b["type"] == "table":
            out.append(_table_html(b, sg))
        elif b["type"] == "image":
            iid = next((m[3] for m in b["marks"] if m[2] == "image"), 0)
            out.append(f'<p{ST.block_style_attr(b)}><img data-drive="{iid}" src="{IMAGE_SRC.format(iid)}" alt=""></p>')
        elif b["type"] == "rule":
            out.append("<hr>")
        elif b["type"] == "page_break":
            out.append('<hr data-break="page">')
        elif b["type"] == "heading":
            out.append(f"<h{b['level']}{ST.block_style_attr(b)}>{_inline_html(b, sg)}</h{b['level']}>")
        elif b["type"] in PARAGRAPH_STYLES:
            out.append(f'<p data-style="{b["type"]}"{ST.block_style_attr(b)}>{_inline_html(b, sg)}</p>')
        else:
            out.append(f"<p{ST.block_style_attr(b)}>{_inline_html(b, sg)}</p>")
    while stack:
        out.append(f"</{stack.pop()}>")
    return "".join(out)


# ---------------------------------------------------------------- Markdown
def from_markdown(md: str) -> list[dict]:
    from markdown_it import MarkdownIt
    tokens = MarkdownIt("commonmark").parse(md)
    blocks: list[dict] = []
    lists: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.type in ("bullet_list_open", "ordered_list_open"):
            lists.append("numbered" if t.type == "ordered_list_open" else "bullet")
        elif t.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif t.type == "heading_open":
            text, marks = _md_inline(tokens[i + 1])
            blocks.append(block("heading", text, min(3, int(t.tag[1])), marks))
            i += 3
            continue
        elif t.type == "paragraph_open":
            text, marks = _md_inline(tokens[i + 1])
            if lists:
                blocks.append(block(lists[-1], text, len(lists), marks))
            else:
                blocks.append(block("paragraph", text, 0, marks))
            i += 3
            continue
        elif t.type == "hr":
            blocks.append(block("paragraph", ""))
        i += 1
    return blocks or [block("paragraph")]


def _md_inline(tok) -> tuple[str, list]:
    text = ""
    marks: list = []
    open_: list = []
    for c in tok.children or []:
        if c.type in ("text", "code_inline"):
            text += c.content
        elif c.type in ("softbreak",):
            text += " "
        elif c.type == "hardbreak":
            text += "\n"
        elif c.type in ("strong_open", "em_open", "link_open"):
            kind = {"strong_open": "bold", "em_open": "italic", "link_open": "link"}[c.type]
            open_.append([len(text), None, kind, c.attrGet("href") if kind == "link" else True])
        elif c.type in ("strong_close", "em_close", "link_close"):
            kind = {"strong_close": "bold", "em_close": "italic", "link_close": "link"}[c.type]
            for m in reversed(open_):
                if m[2] == kind and m[1] is None:
                    m[1] = len(text)
                    marks.append(m)
                    open_.remove(m)
                    break
        elif c.type == "html_inline":
            continue
    return text, marks


def _md_text(b: dict) -> str:
    text = ""
    for seg, active in _segments(b):
        s = seg
        kinds = {m[2] for m in active}
        if "italic" in kinds:
            s = f"*{s}*"
        if "bold" in kinds:
            s = f"**{s}**"
        link = next((m for m in active if m[2] == "link"), None)
        if link:
            s = f"[{s}]({link[3]})"
        text += s
    return text


def to_markdown(blocks: list[dict]) -> str:
    out = []
    counters: dict[int, int] = {}
    for b in blocks:
        text = _md_text(b)
        if b["type"] == "table":
            rows: list[list[str]] = []
            for r, cell, _ in _cells(b):
                if r == len(rows):
                    rows.append([])
                rows[r].append(_md_text(cell).replace("|", "\\|"))
            lines = [f"| {' | '.join(row)} |" for row in rows]
            out.append("\n".join(lines[:1] + ["|" + " --- |" * len(rows[0])] + lines[1:]))
            counters.clear()
        elif b["type"] == "image":
            iid = next((m[3] for m in b["marks"] if m[2] == "image"), 0)
            out.append(f"![image]({IMAGE_SRC.format(iid)})")
            counters.clear()
        elif b["type"] == "rule":
            out.append("---")
            counters.clear()
        elif b["type"] == "page_break":
            out.append('<div style="page-break-after: always"></div>')
            counters.clear()
        elif b["type"] in ("heading", "title"):
            out.append("#" * max(1, b["level"]) + " " + text)
            counters.clear()
        elif b["type"] == "bullet":
            out.append("  " * (b["level"] - 1) + "- " + text)
        elif b["type"] == "numbered":
            counters[b["level"]] = counters.get(b["level"], 0) + 1
            out.append("   " * (b["level"] - 1) + f"{counters[b['level']]}. " + text)
        else:
            counters.clear()
            out.append(text)
    # Blank lines between blocks, but list items stay together.
    lines = []
    for i, (b, line) in enumerate(zip(blocks, out)):
        prev = blocks[i - 1] if i else None
        same_list = prev is not None and b["type"] in ("bullet", "numbered") and prev["type"] in ("bullet", "numbered") \
            and (prev["type"] == b["type"] or b["level"] > 1 or prev["level"] > 1)
        if i and not same_list:
            lines.append("")
        lines.append(line)
    return "\n".join(lines) + "\n"


def plain_text(blocks: list[dict]) -> str:
    return "\n".join(b["text"] for b in blocks)

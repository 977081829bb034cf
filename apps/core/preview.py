"""File previews rendered by the server: the browser never shows its own
PDF viewer or download bar, so what the agent sees is in the page.

- images: the image itself;
- PDFs: each page rendered to PNG (pdfium) at a fixed width;
- Markdown: sanitised HTML;  CSV: a table;  other text: preformatted.
"""
from __future__ import annotations

import functools
import io

import markdown as md
import nh3

from apps.core.files import is_text, read_csv

PDF_WIDTH = 816          # px: a Letter page at 96 dpi
MAX_PAGES = 40
MAX_TEXT = 400_000

ALLOWED_TAGS = {"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "b", "i", "u",
                "s", "del", "code", "pre", "blockquote", "ul", "ol", "li", "table", "thead", "tbody",
                "tr", "th", "td", "a", "span", "sup", "sub"}
ALLOWED_ATTRS = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}


def kind(mime: str, name: str = "") -> str:
    if mime.startswith("image/") and mime != "image/svg+xml":
        return "image"
    if mime == "application/pdf":
        return "pdf"
    if mime == "text/markdown":
        return "markdown"
    if mime == "text/csv":
        return "csv"
    if is_text(mime):
        return "text"
    return "none"


def markdown_html(text: str) -> str:
    """Markdown to HTML that is safe to put in a page (nh3, not regexes)."""
    html = md.markdown(text[:MAX_TEXT], extensions=["tables", "sane_lists"])
    return nh3.clean(html, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRS,
                     url_schemes={"http", "https", "mailto"}, link_rel="noopener noreferrer")


def context(name: str, mime: str, data: bytes) -> dict:
    """What a preview template needs: ``kind`` plus the rendered content."""
    k = kind(mime, name)
    out: dict = {"kind": k, "name": name, "mime": mime, "size": len(data)}
    if k == "pdf":
        out["pages"] = pdf_page_count(data)
    elif k == "markdown":
        out["html"] = markdown_html(data.decode("utf-8", errors="replace"))
    elif k == "csv":
        rows = read_csv(data.decode("utf-8", errors="replace"))
        out["header"], out["rows"] = (rows[0], rows[1:]) if rows else ([], [])
    elif k == "text":
        out["text"] = data[:MAX_TEXT].decode("utf-8", errors="replace")
    return out


@functools.lru_cache(maxsize=64)
def _pdf_pages(data: bytes) -> int:
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(data)
    try:
        return len(doc)
    finally:
        doc.close()


def pdf_page_count(data: bytes) -> int:
    try:
        return min(_pdf_pages(data), MAX_PAGES)
    except Exception:            # a broken PDF previews as "no preview"
        return 0


@functools.lru_cache(maxsize=256)
def pdf_page_png(data: bytes, page: int, width: int = PDF_WIDTH) -> bytes:
    """PNG of one page (0-based), rendered at ``width`` pixels."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(data)
    try:
        if not 0 <= page < len(doc):
            raise IndexError(page)
        p = doc[page]
        scale = width / p.get_width()
        img = p.render(scale=scale).to_pil()
        buf = io.BytesIO()
        img.save(buf, format="PNG", optimize=False)
        return buf.getvalue()
    finally:
        doc.close()

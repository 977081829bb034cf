"""File bytes in the store: content-addressed blobs, MIME types, extracted text.

Drive items, mail attachments and the user's local files all point at rows
of ``blobs``; attaching a Drive file to a mail shares the bytes, it does not
copy them.
"""
from __future__ import annotations

import csv
import hashlib
import io
import mimetypes
import zipfile
from datetime import datetime

from apps.core import locale
from apps.core.store.db import SYSTEM, Store

_EXTRA = {
    ".md": "text/markdown", ".csv": "text/csv", ".txt": "text/plain", ".json": "application/json",
    ".yaml": "text/yaml", ".yml": "text/yaml", ".eml": "message/rfc822",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}
TEXT_MIMES = {"text/plain", "text/markdown", "text/csv", "application/json", "text/yaml"}


def guess_mime(name: str) -> str:
    lower = name.lower()
    for ext, mime in _EXTRA.items():
        if lower.endswith(ext):
            return mime
    return mimetypes.guess_type(lower)[0] or "application/octet-stream"


def is_text(mime: str) -> bool:
    return mime in TEXT_MIMES or mime.startswith("text/")


def extract_text(mime: str, data: bytes) -> str:
    """Searchable text of a file (empty when it has none)."""
    if is_text(mime):
        return data.decode("utf-8", errors="replace")
    if mime == "application/pdf":
        import pypdfium2 as pdfium
        try:
            doc = pdfium.PdfDocument(data)
        except pdfium.PdfiumError:
            return ""
        try:
            return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
        finally:
            doc.close()
    return ""


def put_blob(store: Store, data: bytes, mime: str, *, actor: str = SYSTEM,
             text: str | None = None) -> int:
    """Store bytes once; return the blob id (existing when the bytes are known)."""
    sha = hashlib.sha256(data).hexdigest()
    found = store.scalar("SELECT id FROM blobs WHERE sha256=?", (sha,))
    if found is not None:
        return found
    if text is None:
        text = extract_text(mime, data)
    return store.insert("blobs", actor, sha256=sha, size=len(data), mime=mime, data=data, text=text)


def blob_bytes(store: Store, blob_id: int) -> bytes:
    return store.scalar("SELECT data FROM blobs WHERE id=?", (blob_id,))


def blob_text(store: Store, blob_id: int) -> str:
    return store.scalar("SELECT text FROM blobs WHERE id=?", (blob_id,)) or ""


def human_size(n: int | None) -> str:
    if n is None:
        return "—"
    if n < 1024:
        return f"{n} bytes"
    for unit in ("KB", "MB", "GB"):
        n /= 1024
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if n >= 10 else f"{n:.1f}".replace(".", locale.decimal_sep()) + f" {unit}"
    return f"{n:.1f}".replace(".", locale.decimal_sep()) + " GB"


def read_csv(text: str, limit: int = 1000) -> list[list[str]]:
    rows = []
    for i, row in enumerate(csv.reader(io.StringIO(text))):
        if i >= limit:
            break
        rows.append(row)
    return rows


def stamped_zip(data: bytes, stamp: datetime) -> bytes:
    """An Office file (a zip) with every entry dated ``stamp``: the libraries that write
    them date entries by the wall clock, which would make a download differ by when
    (to the two seconds) it was made."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            entry = zipfile.ZipInfo(info.filename, date_time=stamp.timetuple()[:6])
            entry.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(entry, src.read(info.filename))
    return out.getvalue()

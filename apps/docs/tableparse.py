"""Reading tables out of the editor's HTML (a part of ``apps.docs.blocks``' parser): a ``table`` is one
block whose text is its cells, a tab between cells and a line break between rows; every row is made as
wide as the widest. The parser keeps ``cur`` (the block being read), ``table``, ``open_marks``."""
from __future__ import annotations

TABLE_PARTS = {"table", "thead", "tbody", "tr", "td", "th"}
# A cell holds one line of text: paragraphs, lists and line breaks inside it are not kept.
IN_CELL_DROPPED = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "hr", "br"}


class TableParsing:
    cur: dict | None
    table: dict | None
    open_marks: list

    def _end_block(self) -> None:                      # the parser's own
        raise NotImplementedError

    def _square(self) -> str:
        """A table's text with every row as wide as the widest (cells added at row ends; offsets move)."""
        rows = self.cur["text"].split("\n")
        width = max(r.count("\t") for r in rows)
        if all(r.count("\t") == width for r in rows):
            return self.cur["text"]
        starts, out, pos = [], [], 0
        for r in rows:
            starts.append((pos, sum(len(x) + 1 for x in out)))
            out.append(r + "\t" * (width - r.count("\t")))
            pos += len(r) + 1

        def move(p: int) -> int:
            old, new = next(st for st in reversed(starts) if st[0] <= p)
            return new + p - old
        for m in self.cur["marks"] + self.open_marks:
            m[0] = move(m[0])
            if m[1] is not None:
                m[1] = move(m[1])
        for ins in self.cur.get("ins", []):
            ins["start"] = move(ins["start"])
        self.cur["text"] = "\n".join(out)
        return self.cur["text"]

    def _table_tag(self, tag: str, start: bool) -> bool:
        """Tables: a ``table`` block; rows and cells add line breaks and tabs; a cell holds one line of
        text (paragraphs, lists and line breaks inside it are not kept). True when the tag was used."""
        t = self.table
        if start and tag == "table" and t is None:
            self._end_block()
            self.cur = {"type": "table", "level": 0, "text": "", "marks": []}
            self.table = {"rows": 0, "cells": 0, "in": False}
            return True
        if t is None:
            return False
        if tag == "table" and not start:
            self._end_block()
            self.table = None
        elif tag == "tr" and start:
            if t["rows"]:
                self.cur["text"] += "\n"
            t["rows"] += 1
            t["cells"] = 0
        elif tag in ("td", "th"):
            if start:
                if not t["rows"]:
                    t["rows"] = 1
                if t["cells"]:
                    self.cur["text"] += "\t"
                t["cells"] += 1
                self.cur["seen"] = True
            t["in"] = start
        elif tag in TABLE_PARTS or tag in IN_CELL_DROPPED:
            pass
        else:
            return False
        return True

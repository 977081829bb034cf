"""Documents as blocks: sanitising, HTML and Markdown round trips."""
from __future__ import annotations

import pytest

from apps.docs import blocks as B


def parse(html: str) -> list[dict]:
    return B.from_html(B.sanitize(html))


@pytest.mark.parametrize("evil", [
    '<p>hi<script>alert(1)</script></p>',
    '<p onclick="alert(1)">hi</p>',
    '<p><a href="javascript:alert(1)">hi</a></p>',
    '<p><img src=x onerror="alert(1)">hi</p>',
    '<p style="background:url(javascript:alert(1))">hi</p>',
    '<p><iframe src="https://evil.example"></iframe>hi</p>',
])
def test_sanitizer_leaves_nothing_executable(evil):
    clean = B.sanitize(evil)
    for bad in ("script", "onclick", "onerror", "javascript:", "iframe", "style="):
        assert bad not in clean.lower()
    out = B.to_html(parse(evil))
    assert "alert" not in out and "javascript" not in out
    assert parse(evil)[0]["text"].startswith("hi") or parse(evil)[0]["text"] == "hi"


def test_links_keep_safe_urls_only():
    [b] = parse('<p><a href="https://example.com/x">site</a> and <a href="mailto:a@b.com">mail</a></p>')
    assert [m for m in b["marks"] if m[2] == "link"] == [[0, 4, "link", "https://example.com/x"],
                                                         [9, 13, "link", "mailto:a@b.com"]]


def test_blocks_from_editor_html():
    blocks = parse('<h2>The <b>Shortfall</b></h2><p>First <i>line</i><br>second</p>'
                   '<ul><li>one</li><li>two<ul><li>deep</li></ul></li></ul><ol><li>first</li></ol><div>plain</div>')
    assert [(b["type"], b["level"], b["text"]) for b in blocks] == [
        ("heading", 2, "The Shortfall"), ("paragraph", 0, "First line\nsecond"),
        ("bullet", 1, "one"), ("bullet", 1, "two"), ("bullet", 2, "deep"), ("numbered", 1, "first"),
        ("paragraph", 0, "plain")]
    assert blocks[0]["marks"] == [[4, 13, "bold", True]]
    assert blocks[1]["marks"] == [[6, 10, "italic", True]]


def test_to_html_is_a_fixed_point():
    html = ('<h1>Title</h1><p>A <strong>bold <em>and italic</em></strong> '
            '<a href="https://x.org">link</a> <span data-comment="7">noted</span></p>'
            '<ul><li>a</li><li>b</li></ul><ol><li>c</li></ol><p><br></p>')
    once = B.to_html(parse(html))
    assert B.to_html(parse(once)) == once
    assert parse(once) == parse(html)


def test_what_chromium_produces_parses_to_the_same_blocks():
    # Chromium's contenteditable wraps differently from our renderer (b vs strong, &nbsp;, trailing <br>).
    ours = parse("<p>Total <strong>USD 1,000</strong> due</p>")
    theirs = parse("<p>Total&nbsp;<b>USD 1,000</b> due<br></p>")
    assert ours == theirs


def test_empty_editor_is_one_empty_paragraph():
    assert parse("") == [B.block("paragraph")]
    assert B.to_html(parse("")) == "<p><br></p>"


def test_marks_are_normalised():
    b = B.block("paragraph", "abcdef", marks=[[0, 3, "bold", True], [3, 5, "bold", True], [4, 99, "italic", True],
                                             [2, 2, "underline", True]])
    assert b["marks"] == [[0, 5, "bold", True], [4, 6, "italic", True]]


def test_markdown_round_trip():
    md = ("# Heading\n\nA paragraph with **bold**, *italic* and [a link](https://example.com).\n\n"
          "- one\n- two\n  - nested\n\n1. first\n2. second\n")
    blocks = B.from_markdown(md)
    assert [(b["type"], b["level"]) for b in blocks] == [("heading", 1), ("paragraph", 0), ("bullet", 1),
                                                          ("bullet", 1), ("bullet", 2), ("numbered", 1),
                                                          ("numbered", 1)]
    assert B.from_markdown(B.to_markdown(blocks)) == blocks


def test_plain_text():
    assert B.plain_text(parse("<h1>T</h1><p>x</p>")) == "T\nx"


def test_a_list_chromium_nested_in_an_empty_paragraph_is_just_a_list():
    assert [(b["type"], b["text"]) for b in parse("<h1>T</h1><p><ul><li>one</li></ul></p><p>after</p>")] == [
        ("heading", "T"), ("bullet", "one"), ("paragraph", "after")]


def test_a_horizontal_line_and_a_page_break_are_blocks_of_their_own():
    html = '<p>Above</p><hr><p>Between</p><hr data-break="page"><h2>Next page</h2>'
    got = B.from_html(B.sanitize(html))
    assert [b["type"] for b in got] == ["paragraph", "rule", "paragraph", "page_break", "heading"]
    assert B.to_html(got) == html.replace("<h2>", "<h2>")                 # the one HTML form round-trips
    assert B.from_html(B.to_html(got)) == got
    # a stray attribute is dropped, so an <hr> is a line unless it says it is a page break
    assert B.from_html(B.sanitize('<hr data-break="x" onclick="alert(1)">'))[0]["type"] == "rule"
    md = B.to_markdown(got)
    assert "---" in md and "page-break-after" in md

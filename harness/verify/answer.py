"""Typed matching of the agent's final answer.

Reads the text after the last ``ANSWER:`` when there is one, normalises
Unicode (NFKC, non-breaking spaces), and accepts exactly one candidate value:
"3, 4 or 5" is a hedge and fails. Numbers lose currency signs, thousands
separators and units, and understand "million"/"bn"/"k"; dates are read in
any common format; strings compare without case, spacing or punctuation.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from harness.verify.dates import find_dates, parse_date

NUMBER = re.compile(
    r"(?<![\w.])[-−]?\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(%|(?:million|mn|m|billion|bn|b|thousand|k)\b)?",
    re.I)
SCALE = {"million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9, "thousand": 1e3, "k": 1e3}
JUNK = {"", "n/a", "na", "none", "null", "unknown", "-", "?", "i don't know", "idk"}


@dataclass
class AnswerResult:
    passed: bool
    expected: str
    found: str

    def line(self) -> str:
        mark = "✓" if self.passed else "✗"
        return f"{mark} answer: expected {self.expected}; found {self.found}"


def answer_text(answer: str | None) -> str:
    text = unicodedata.normalize("NFKC", answer or "").replace("\u00a0", " ")
    idx = text.upper().rfind("ANSWER:")
    if idx >= 0:
        text = text[idx + len("ANSWER:"):]
    return text.strip().strip("*_`").strip()


def numbers_in(text: str) -> list[float]:
    # Dates are not amounts: take them out first.
    for d in re.findall(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b", text):
        text = text.replace(d, " ")
    out: list[float] = []
    for m in NUMBER.finditer(text):
        whole, frac, unit = m.group(1), m.group(2) or "", (m.group(3) or "").lower()
        v = float(whole.replace(",", "") + frac)
        if m.group(0).lstrip().startswith(("-", "−")):
            v = -v
        if unit in SCALE:
            v *= SCALE[unit]
        if v not in out:
            out.append(v)
    return out


def _norm_str(s: str) -> str:
    s = unicodedata.normalize("NFKC", s).lower()
    s = re.sub(r"^(the|a|an)\s+", "", s.strip())
    return re.sub(r"[\W_]+", "", s)


def _items(text: str) -> list[str]:
    parts = re.split(r",|;|/|\band\b|&|\+|\n", text, flags=re.I)
    return [p.strip(" .") for p in parts if p.strip(" .")]


def match_answer(spec, given: str | None, expected_value=None) -> AnswerResult:
    """``spec`` is the task's AnswerSpec; ``expected_value`` overrides ``spec.value``
    (computed from the world by ``value_from``)."""
    text = answer_text(given)
    expected = spec.value if expected_value is None else expected_value
    if text.lower() in JUNK:
        return AnswerResult(False, _show(spec, expected), repr(text) if text else "no answer")
    if spec.type == "number":
        nums = numbers_in(text)
        exp = float(str(expected).replace(",", "").replace("$", ""))
        if len(nums) != 1:
            return AnswerResult(False, _show(spec, expected),
                                f"{len(nums)} numbers in {text!r}" if nums else f"no number in {text!r}")
        ok = abs(nums[0] - exp) <= spec.tolerance
        return AnswerResult(ok, _show(spec, expected), _fmt(nums[0]))
    if spec.type == "date":
        exp = parse_date(str(expected))
        dates = find_dates(text) or ([parse_date(text)] if parse_date(text) else [])
        if len(dates) != 1:
            return AnswerResult(False, str(exp), f"{len(dates)} dates in {text!r}")
        return AnswerResult(dates[0] == exp, str(exp), str(dates[0]))
    if spec.type == "string":
        accepted = {_norm_str(str(expected))} | {_norm_str(a) for a in spec.aliases}
        ok = _norm_str(text) in accepted
        return AnswerResult(ok, _show(spec, expected), repr(text))
    if spec.type == "set":
        want = {_norm_str(v) for v in spec.values}
        got = {_norm_str(i) for i in _items(text)}
        return AnswerResult(got == want, ", ".join(spec.values), ", ".join(sorted(_items(text))) or repr(text))
    raise ValueError(f"unknown answer type {spec.type}")


def _fmt(v: float) -> str:
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,}"


def _show(spec, expected) -> str:
    if spec.type == "number":
        e = float(str(expected).replace(",", "").replace("$", ""))
        return _fmt(e) + (f" ± {spec.tolerance:g}" if spec.tolerance else "")
    if spec.type == "set":
        return ", ".join(spec.values)
    return repr(str(expected))

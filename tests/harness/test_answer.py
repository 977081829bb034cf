"""Typed answer matching: one candidate value, normalised; hedges and junk fail."""
from __future__ import annotations

import pytest

from harness.tasks.schema import AnswerSpec
from harness.verify.answer import match_answer, numbers_in

NUM = AnswerSpec(type="number", value=8760000)


@pytest.mark.parametrize("given", ["8760000", "$8,760,000", "ANSWER: $8,760,000", "USD 8,760,000",
                                   "8.76 million", "$8.76M", "The shortfall is\u00a0$8,760,000.",
                                   "Working: 160.6m - 151.84m.\nANSWER: 8,760,000 USD", "８,７６０,０００",
                                   # an explanation after the value offers no competing candidate
                                   "$8,760,000 (58,400 × $150)", "$8,760,000 (not $8,716,000)",
                                   "The limit is $160.6M and the fund $151.84M, so the shortfall is $8,760,000."])
def test_numbers_match(given):
    assert match_answer(NUM, given).passed, given


@pytest.mark.parametrize("given", ["", "0", "N/A", "unknown", "8,760,000 or 8,700,000", "8,000,000",
                                   "$8,760,000 — or nil if the 2022 rate applies", "$18,760,000",
                                   "$8,760,000 / $8,716,000", "0, 5, 8,760,000", "$8.7M–$8.8M",
                                   "somewhere between 8 and 9 million", None])
def test_number_junk_and_hedges_fail(given):
    assert not match_answer(NUM, given).passed, given


def test_tolerance_and_dates_in_text_are_not_amounts():
    spec = AnswerSpec(type="number", value=17950, tolerance=50)
    assert match_answer(spec, "17,990 bbl").passed
    assert not match_answer(spec, "18,400 bbl").passed
    assert numbers_in("as of 2026-03-06: 17,950") == [17950.0]


TOP = AnswerSpec(type="number", value=423750000)


@pytest.mark.parametrize("given, ok", [
    # the answer is the figure it leads with, or the result of its working; what follows explains it
    ("ANSWER: $423,750,000", True),
    ("ANSWER: $423,750,000 (Rheinwerk, EUR 375m at 1.1300; not Granite's $420m)", True),
    ("ANSWER: EUR 375m × 1.1300 = $423,750,000", True),
    ("ANSWER: 375 × 1.13 = 423.75 → $423,750,000", True),
    ("Rheinwerk's EUR 375m at 1.1300 tops Granite's $420m. ANSWER: 423.75 million dollars", True),
    ("ANSWER: 8 bids; the top is $423,750,000", True),      # a count first is not a rival figure
    ("ANSWER: $420,000,000 (Granite; Rheinwerk's $423,750,000 needs FX sign-off)", False),
    ("ANSWER: $416,250,000 (at FX!B2 it would be $423,750,000)", False),
    ("ANSWER: $423,750,000 − $3,750,000 = $420,000,000", False),
    ("ANSWER: $423,750,000 → $416,250,000", False),
    ("ANSWER: $440m; Rheinwerk $423.75m", False),
    # in another currency it is another amount, however the currency is written
    ("ANSWER: EUR 423.75m", False), ("ANSWER: GBP 423,750,000", False), ("ANSWER: CHF423.75m", False),
    ("ANSWER: 423,750,000 euros", False), ("ANSWER: €423.75m", False), ("ANSWER: USD 423.75m", True),
    ("ANSWER: 423,750,000 USD", True),
])
def test_the_answer_is_the_figure_it_leads_with(given, ok):
    assert match_answer(TOP, given).passed is ok, given


def test_a_tolerance_includes_its_edge_despite_float_error():
    """423.8 rounds 423.75 to a tenth; the floats differ by 0.0500000000000114, and that is within ± 0.05."""
    from harness.verify.answer import states_by_label
    spec = AnswerSpec(type="number", value=423.75, tolerance=0.05)
    assert match_answer(spec, "ANSWER: 423.8").passed and match_answer(spec, "ANSWER: 423.7").passed
    assert not match_answer(spec, "ANSWER: 423.81").passed
    assert states_by_label("Top bid 423.8", {"top": (r"top bid", 423.75)}, tolerance=0.05)[0]
    assert not states_by_label("Top bid 423.9", {"top": (r"top bid", 423.75)}, tolerance=0.05)[0]
    assert not match_answer(NUM, "8,760,001").passed          # no tolerance: the next dollar is wrong


@pytest.mark.parametrize("given", ["2026-04-22", "April 22, 2026", "Wednesday, April 22, 2026", "22 April 2026",
                                   "4/22/2026", "ANSWER: Apr 22 2026", "2026/04/22"])
def test_dates(given):
    assert match_answer(AnswerSpec(type="date", value="2026-04-22"), given).passed, given


def test_dates_without_a_year_read_against_the_world_clock():
    from datetime import date
    spec = AnswerSpec(type="date", value="2026-04-22")
    for given in ("April 22", "Wed 22 Apr", "the 22nd of April"):
        assert match_answer(spec, given, today=date(2026, 4, 6)).passed, given
    assert not match_answer(AnswerSpec(type="date", value="2027-04-22"), "April 22", today=date(2026, 4, 6)).passed


def test_date_hedges_and_wrong_dates_fail():
    spec = AnswerSpec(type="date", value="2026-04-22")
    assert not match_answer(spec, "April 22, 2026 or May 29, 2026").passed
    assert not match_answer(spec, "Apr 22 or 28", today=__import__("datetime").date(2026, 4, 6)).passed
    assert not match_answer(spec, "2026-05-29").passed
    assert not match_answer(spec, "soon").passed


def test_strings_and_sets():
    s = AnswerSpec(type="string", value="Imelda Rourke", aliases=["Hon. Imelda Rourke"])
    assert match_answer(s, "imelda  rourke.").passed
    assert match_answer(s, "ANSWER: Hon. Imelda Rourke").passed
    assert not match_answer(s, "Brian Walsh").passed
    assert not match_answer(s, "Imelda Rourke or Brian Walsh").passed
    t = AnswerSpec(type="set", values=["3P", "4P"])
    for ok in ("3P, 4P", "4P and 3P", "3p & 4p", "ANSWER: 3P/4P"):
        assert match_answer(t, ok).passed, ok
    for bad in ("3P", "3P, 4P, 5S", "3S, 4S", ""):
        assert not match_answer(t, bad).passed, bad


@pytest.mark.parametrize("given,ok", [
    ("ANSWER: $8,760,000 if the 2025 notice applies; $0 if the 2022 one does", False),
    ("ANSWER: $8,760,000 (could be $75,000,000)", False),
    ("ANSWER: $0 (2022 notice)\nANSWER: $8,760,000 (2025 notice)", False),
    ("ANSWER: $151,840,000\n\nWait, that's the fund. ANSWER: $8,760,000", True),
    ("ANSWER: at least $8,760,000", False),
    ("ANSWER: $8,760,000?", False),
    ("ANSWER: -$8,760,000", False),
    ("ANSWER: €8,760,000", False),
    ("ANSWER: $8,760,000 o\u200br $0", False),
    ("ANSWER: $8,760,000 \u043er $0", False),            # a Cyrillic "o"
    ("ANSWER: 8 760 000 USD", True),
    ("ANSWER: $8.76 mm", True),
    ("The fund applies the superseded 2022 rate and is short by $8,760,000.", True),
    ("$160,600,000 − $151,840,000 = $8,760,000", True),
])
def test_hedges_without_or_and_what_a_reader_accepts(given, ok):
    assert match_answer(NUM, given).passed is ok, given


def test_units_names_and_ids():
    from datetime import date
    bbl = AnswerSpec(type="number", value=17950, unit="bbl")
    assert match_answer(bbl, "17,950 barrels").passed
    assert not match_answer(bbl, "17,950 litres").passed
    assert not match_answer(bbl, "17,950 barrels; 18,400 barrels; 12,000 barrels").passed
    exact = AnswerSpec(type="number", value=424490000, exact=True)      # "…in US dollars, exactly"
    for ok in ("ANSWER: $424,490,000", "ANSWER: $424.49m (roughly 11.66x QoE EBITDA)",
               "About $424.5m at first sight; exactly: ANSWER: $424,490,000"):
        assert match_answer(exact, ok).passed, ok
    for bad in ("ANSWER: approximately $424,490,000", "ANSWER: ~$424.49m", "ANSWER: c. $424.49m", "ANSWER: roughly 424.49 million"):
        assert not match_answer(exact, bad).passed, bad
    assert match_answer(AnswerSpec(type="number", value=424490000), "ANSWER: approximately $424,490,000").passed
    multiple = AnswerSpec(type="number", value=11.66, tolerance=0.005, unit="x")     # a multiple, not a rate
    for ok in ("ANSWER: 11.66x", "ANSWER: 11.66", "11.66 times QoE EBITDA", "ANSWER: 11.66x (10.94x on management's)"):
        assert match_answer(multiple, ok).passed, ok
    assert match_answer(multiple, "36.4 x 11.66 = 424.49. ANSWER: 11.66x").passed         # a product, not a list
    for bad in ("ANSWER: 11.66%", "ANSWER: 11.66 percent of EBITDA", "ANSWER: 11.66 x; 10.94 x; 9.94 x",
                "ANSWER: 11.66 times or 10.94 times"):
        assert not match_answer(multiple, bad).passed, bad
    judge = AnswerSpec(type="string", value="Imelda Rourke")
    for ok in ("Rourke, Imelda", "Imelda M. Rourke", "Judge Rourke", "The Honorable Imelda Rourke, Port Calder Admiralty Court"):
        assert match_answer(judge, ok).passed, ok
    for bad in ("Imelda Rourke, Harold Abernathy", "Imelda Rourke — with Judge Abernathy standing in",
                "Imelda Rourke (the clerk) — judge unknown"):
        assert not match_answer(judge, bad).passed, bad
    incs = AnswerSpec(type="set", values=["INC0010421", "INC0010433", "INC0010440"])
    assert match_answer(incs, "10421, 10433 and 10440").passed
    assert not match_answer(incs, "10421, 10433, 10440 and 10441").passed
    tanks = AnswerSpec(type="set", values=["3P", "4P"])
    assert not match_answer(tanks, "3P 4P 5S").passed and not match_answer(tanks, "3P and 4P (also 5S)").passed
    assert match_answer(tanks, "3P, 4P — the preliminary report's 5S was not breached").passed
    close = AnswerSpec(type="date", value="2026-06-30")
    assert match_answer(close, "6/30", today=date(2026, 6, 9)).passed
    assert not match_answer(AnswerSpec(type="date", value="2026-05-29"),
                            "May 29, 2026 (June 12, 2026 if the draft order's date stands)").passed


@pytest.mark.parametrize("text, ok", [
    ("Laura, the deductible is $2,500,000 per occurrence.", True),
    ("$2.5 million is the deductible; the limit above it is $75 million.", True),
    ("Laura: USD 2500000 per occurrence, per Item 2.", True),             # never named: stated is enough
    ("The deductible is $2,750,000. $2.5 million is another figure.", False),
    ("The limit is $2.5 million and the deductible $75 million.", False),
])
def test_says_about_reads_the_figure_its_label_names(text, ok):
    from harness.verify.conditions import says
    assert says(text, {"number": 2500000, "about": "deductible"}) is ok, text


@pytest.mark.parametrize("text, kind, value, ok", [
    ("The shortfall is not $8,760,000.", "number", 8760000, False),          # denied, nothing in its place
    ("The fund is not short by $8,760,000.", "number", 8760000, False),
    ("It is short by $8,760,000.", "number", 8760000, True),
    ("We will NOT be at Harbour Exchange.", "string", "Harbour Exchange", False),
    ("The mediation is not at Harbour Exchange.", "string", "Harbour Exchange", False),
    ("Mediation: Harbour Exchange, not the court.", "string", "Harbour Exchange", True),
    ("Not surprisingly, we meet at Harbour Exchange.", "string", "Harbour Exchange", True),
])
def test_a_value_named_only_to_be_denied_is_not_stated(text, kind, value, ok):
    from harness.verify.answer import states
    assert states(text, kind, value)[0] is ok, text


def test_negation_instead_of_and_a_parenthetical_the_value_opens():
    from harness.verify.answer import Cand, negated, states
    assert not states("Instead of Harbour Exchange we meet at Corvane HQ.", "string", "Harbour Exchange")[0]
    assert not states("We meet at Corvane HQ rather than Harbour Exchange.", "string", "Harbour Exchange")[0]
    t = "Venue (Harbour Exchange, 6th floor — not Corvane HQ)"
    assert not negated(t, Cand(t.index("Harbour"), t.index("Harbour") + 16, "Harbour Exchange"))
    t = "Open incidents (INC0010342 and INC0010389 are closed)"
    assert negated(t, Cand(t.index("INC0010342"), t.index("INC0010342") + 10, "INC0010342"))


@pytest.mark.parametrize("text, value", [("$16.1K", 16100), ("$4.169 million", 4169000), ("0.3M", 300000),
                                         ("$1.15 billion", 1150000000), ("2.675 mn", 2675000)])
def test_scaled_figures_are_read_exactly(text, value):
    """A figure with a scale word is the exact number it names (no float drift to compare with a tolerance)."""
    from harness.verify.reading import numbers_in
    assert numbers_in(text) == [value]


@pytest.mark.parametrize("text, ok", [
    ("We're filing the objection on Wednesday 15 April at 3:00 pm (the e-filing portal is down on the 16th).", True),
    ("Heads up: the portal is down on 16 April, so we file the objection on 15 April at 3 pm.", True),
    ("Objection: we file Wed 15 Apr 2026 at 15:00.", True),
    ("We file the objection on 22 April; not 15 April.", False),
    ("Objection to the fund: we file April 22, 2026 (Wed 15 Apr 2026 is another date).", False),
])
def test_says_about_reads_a_date_without_a_year_in_the_expected_year(text, ok):
    from harness.verify.conditions import says
    assert says(text, {"date": "2026-04-15", "about": r"\bfil(?:e|es|ing)\b"}) is ok, text


@pytest.mark.parametrize("given, ok", [("11.66x", True), ("11.66×", True), ("ANSWER: 11.66x EV / QoE EBITDA", True),
                                       ("11.66 x", True), ("10.94x", False), ("11.66x or 10.94x", False),
                                       ("a 4x4 grid", False)])
def test_a_multiple_is_read_with_its_x(given, ok):
    """Bankers write multiples as "11.66x": the x marks a multiple, not a letter run into the number."""
    spec = AnswerSpec(type="number", value=11.66, tolerance=0.005)
    assert match_answer(spec, given).passed is ok, given


@pytest.mark.parametrize("given, ok", [("ANSWER: 401.5", True), ("$401.5m", True), ("$401,548,000", True),
                                       ("401.5 million", True), ("375.3", False), ("401.5 or 403.4", False)])
def test_a_figure_asked_in_millions_is_read_in_millions(given, ok):
    """``scale``: asked for $m, a bare "401.5" is $401.5m; figures written out or with their scale as written."""
    spec = AnswerSpec(type="number", value=401_548_240, tolerance=50_000, scale=1e6)
    assert match_answer(spec, given).passed is ok, given


ORGS = ["Granite Harbor Partners", "Kestrel Industrial Group", "Rheinwerk Armaturen GmbH", "Marlow Peak Partners"]


@pytest.mark.parametrize("value, given, ok", [
    ("Granite Harbor", "Granite Harbor", True),
    ("Granite Harbor", "Granite Harbor Partners ($420.0m)", True),
    ("Granite Harbor", "Granite Harbor, Kestrel", False),                 # a second firm, by its first word
    ("Granite Harbor", "Granite Harbor or Rheinwerk", False),
    ("Elise Monroe", "Ms. Elise Monroe, Granite Harbor", True),           # her firm, not another person
])
def test_a_firm_competes_with_the_worlds_other_firms_but_not_with_a_person(value, given, ok):
    spec = AnswerSpec(type="string", value=value)
    assert match_answer(spec, given, names=["Elise Monroe", "Kevin Tran"], orgs=ORGS).passed is ok, given


@pytest.mark.parametrize("given, ok", [("$362.6m, $403.4m", True), ("- LBO low: 362.6\n- LBO high: 403.4", True),
                                       ("362.6, 403.4, 401.5", False), ("$375.3m, $403.4m", False)])
def test_a_set_of_figures_reads_currency_and_labels(given, ok):
    assert match_answer(AnswerSpec(type="set", values=["362.6", "403.4"]), given).passed is ok, given


# The red team's probes of 2026-12-06 (harness/verify/reading.py): each misread, kept as a case.
MED = AnswerSpec(type="number", value=11.0667, decimals=1, unit="x")      # asked "to one decimal"
DCF = AnswerSpec(type="number", value=401548240.1, decimals=1, scale=1e6)  # asked "in $m to one decimal"


@pytest.mark.parametrize("spec, given, ok", [
    # a figure taken back right after it is not the answer
    (MED, "ANSWER: 11.1x is wrong; it's 11.2x", False), (MED, "ANSWER: 11.1x. Actually no, the right figure is 11.4x.", False),
    (MED, "ANSWER: 11.1x. Correction: use 10.7x instead.", False), (DCF, "ANSWER: $401.5m — no, wait, $375.3m", False),
    (DCF, "ANSWER: $401.5m (scratch that: $375.3m)", False), (MED, "ANSWER: 11.1x would be incorrect here — the right figure is 11.2x.", False),
    (MED, "ANSWER: 11.2x — sorry, that's the wrong one; the right figure is 11.1x", True),
    # high-to-low ranges; hedges in words the lists lacked
    (DCF, "ANSWER: $431.5m to $401.5m", False), (MED, "ANSWER: 11.2–11.1x", False), (DCF, "ANSWER: $401.5–375.3m", False),
    (MED, "ANSWER: 11.1x, though 11.4x is also defensible", False), (MED, "ANSWER: 11.1x (11.2x would be equally defensible)", False),
    (DCF, "ANSWER: $401.5m, could equally be $375.3m", False), (DCF, "ANSWER: $401.5m (I'd show $403.4m)", False),
    (MED, "ANSWER: 11.1x — 10.3x also fine", False), (MED, "ANSWER: presumably 11.1x", False),
    (MED, "ANSWER: my guess is 11.1x", False), (MED, "ANSWER: 11.0x (11.2x on the other basis)", False),
    (DCF, "ANSWER: $424.5m − $58.3m − $11.5m = $401.5m", True),          # a subtraction is no range
    # two ANSWER: markers are two answers unless the first is withdrawn
    (DCF, "ANSWER: On the other case it is $375.3m\nANSWER: In the base case it is $401.5m", False),
    (MED, "ANSWER: 10.5x (I'd rather show this one)\nANSWER: 11.1x", False),
    (MED, "ANSWER: 10.5x\nSorry, wrong figure.\nANSWER: 11.1x", True),
    # right answers that were failed: a bullet, a count, a label, the model's $000s
    (MED, "ANSWER:\n- 11.1x", True), (DCF, "ANSWER: - $401.5m", True), (MED, "ANSWER: Median of the 6 deals: 11.1x", True),
    (MED, "ANSWER: Across the 8 peers, the median is 11.1x", True), (MED, "ANSWER: For calendar 2025, 11.1x", True),
    (MED, "ANSWER: Calendarised as ¼ of FY Mar-25 plus ¾ of FY Mar-26, 11.1x", True),
    (DCF, "ANSWER: 401,548 ($000s)", True), (DCF, "ANSWER: $000s 401,548", True),
    (DCF, "ANSWER: PV of FCF $104.9m plus PV of TV $296.7m, so EV is $401.5m", True),
    # asked to one decimal: rounded right, or right to the decimals written
    (MED, "ANSWER: 11.07x", True), (MED, "ANSWER: 11.0667", True), (MED, "ANSWER: 11.03x", False), (MED, "ANSWER: 11.0x", False),
    (MED, "ANSWER: 11", False), (DCF, "ANSWER: $401,548,000", True), (DCF, "ANSWER: $401,500,000", True),
    (DCF, "ANSWER: $401.6m", False), (DCF, "ANSWER: $401,560,000", False), (DCF, "ANSWER: -$401.5m", False),
])
def test_the_red_teams_probes_read_as_a_person_reads_them(spec, given, ok):
    assert match_answer(spec, given).passed is ok, match_answer(spec, given).line()


def test_decimals_sets_the_tolerance_and_refuses_a_contradicting_one():
    assert MED.tolerance == pytest.approx(0.05) and DCF.tolerance == pytest.approx(50000)
    with pytest.raises(ValueError, match="decimals"):
        AnswerSpec(type="number", value=1, decimals=1, tolerance=0.5)
    with pytest.raises(ValueError, match="decimals"):
        AnswerSpec(type="string", value="x", decimals=1)
    # without decimals a tolerance is a tolerance: any figure within it passes, however written
    assert match_answer(AnswerSpec(type="number", value=17950, tolerance=50), "17,990 bbl").passed


# The second review's probes (realistic answers the first version of those rules misread).
FUND = AnswerSpec(type="number", value=8760000)
BBL = AnswerSpec(type="number", value=17950, unit="bbl")
DAY = AnswerSpec(type="date", value="2026-04-22")
HEAD = AnswerSpec(type="number", value=742)


@pytest.mark.parametrize("spec, given, ok", [
    (FUND, "ANSWER: $8,760,000. It is incorrect to use the $2,600 rate, which the 2025 notice superseded.", True),
    (FUND, "ANSWER: $8,760,000 — sorry it took a few steps to find the declarations page.", True),
    (DAY, "ANSWER: April 22, 2026 (wait for the clerk's confirmation before filing)", True),
    (FUND, "ANSWER: $8,760,000 (the $8,716,000 in Tom's draft presumably used the wrong tonnage)", True),
    (BBL, "ANSWER: 17,950 bbl (I suspect the 18,400 in the press release came from the interim survey)", True),
    (DAY, "ANSWER: April 22, 2026 (courtroom pending confirmation)", True),
    (MED, "ANSWER: 11.1x, though the mean is lower at 10.9x", True),
    (MED, "ANSWER: 11.1x (10.61x on a different basis — its March fiscal year — which isn't comparable)", True),
    (FUND, "ANSWER: $8,760,000 — $8,716,000 was the draft's figure", True),
    (AnswerSpec(type="date", value="2026-05-04"), "ANSWER: May 4, 2026 — April 30 was the deadline", True),
    (BBL, "ANSWER: 18,400 bbl\nHold on — the final survey report supersedes the interim figure.\nFinal ANSWER: 17,950 bbl", True),
    (HEAD, "ANSWER: 742 employees — Rockford 318, Greenville 196, Monterrey 171, field 32, corporate 25", True),
    (HEAD, "ANSWER: 731 employees. The latest file shows 742.", False),
    (MED, "ANSWER: 10.9x, so slightly below the 11.1x median", False),
    (MED, "ANSWER: 11.1x, so slightly above the 10.9x trading median", True),
    (DCF, "ANSWER: 401.5 ($m; the model itself is in $000s)", True),
    (DCF, "ANSWER: $401.50m", True), (MED, "ANSWER: 11.10", True),
    (MED, "ANSWER:\n- 11.1x\n- 10.9x", False), (MED, "ANSWER: 11.1x or mid-11x", False),
    (MED, "ANSWER: 10.9x (final if you use the other basis)\nANSWER: 11.1x", False),
    (MED, "ANSWER: 11.1x. Hmm, on second thoughts 11.2x.", False), (MED, "ANSWER: pending confirmation, 11.1x", False),
])
def test_the_second_reviews_probes(spec, given, ok):
    assert match_answer(spec, given).passed is ok, match_answer(spec, given).line()


# ---------------------------------------------------------------------------- the episode's locale
@pytest.mark.parametrize("code,given,ok", [
    ("de-DE", "ANSWER: 8.760.000 $", True), ("de-DE", "8.760.000,00", True), ("de-DE", "$8,760,000", True),
    ("de-DE", "8,76 Mio.", False), ("de-DE", "8.760", False), ("en-US", "8.760.000 $", False),
    ("en-GB", "$8,760,000", True), ("de-DE", "8.760.000 or 8.716.000", False),
])
def test_numbers_are_read_as_the_episodes_locale_writes_them(code, given, ok):
    """In a de-DE episode a figure with German separators is the page's own writing; an English one
    (a spreadsheet keeps its own formats) is read as before; a hedge is still a hedge."""
    from harness.verify.dates import reading_locale
    with reading_locale(code):
        assert match_answer(NUM, given).passed is ok, given


def test_a_german_decimal_comma_and_english_scaled_figures_in_a_german_episode():
    from harness.verify.dates import reading_locale
    with reading_locale("de-DE"):
        assert numbers_in("12,5 and 1,250 and $4.169 million and 3.5") == [12.5, 1250.0, 4169000.0, 3.5]
    assert numbers_in("12,5") != [12.5]                 # not in an en-US episode


@pytest.mark.parametrize("code,given,ok", [
    ("en-GB", "22/04/2026", True), ("en-GB", "04/22/2026", True), ("en-GB", "22 April 2026", True),
    ("en-GB", "04/05/2026", False), ("de-DE", "22.04.2026", True), ("en-US", "4/22/2026", True),
])
def test_an_ambiguous_numeric_date_is_read_in_the_episodes_order(code, given, ok):
    from harness.verify.dates import reading_locale
    with reading_locale(code):
        assert match_answer(AnswerSpec(type="date", value="2026-04-22"), given).passed is ok, given
    with reading_locale("en-GB"):
        assert match_answer(AnswerSpec(type="date", value="2026-05-04"), "04/05/2026").passed
    assert match_answer(AnswerSpec(type="date", value="2026-04-05"), "04/05/2026").passed   # en-US: April 5

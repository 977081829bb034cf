"""Reading a list sent to a colleague over several messages, as the colleague would (worlds/lumen/checks_lists.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness.verify.checks import world_module

L = world_module(Path(__file__).resolve().parents[2] / "worlds" / "lumen", "checks_lists")
NAMES = {n: n for n in ("Bluewater Shipping Co.", "Palisade 3PL", "Stackhouse Systems", "Atlas Outdoor Advertising",
                        "Northstar Behavioral Health", "Northpass Distribution")}
DANA = ["Dana", "Dana Whitaker"]


@pytest.mark.parametrize("messages, want", [
    (["Yours from Monday: Bluewater Shipping Co.; Northpass Distribution."], {"Bluewater Shipping Co.", "Northpass Distribution"}),
    (["Yours: Bluewater Shipping and Palisade."], {"Bluewater Shipping Co.", "Palisade 3PL"}),              # short names
    (["Yours: Northstar Behavioral, Stackhouse Systems.",
      "Update: Stackhouse Systems goes to Dana instead, so it's no longer yours. The rest stands."], {"Northstar Behavioral Health"}),
    (["Yours: Palisade 3PL.", "Also Atlas Outdoor Advertising, on top of that."], {"Palisade 3PL", "Atlas Outdoor Advertising"}),
    (["Yours: Palisade 3PL and Stackhouse Systems.", "Ignore my earlier note — the corrected list: Palisade 3PL."], {"Palisade 3PL"}),
    (["Yours: Palisade 3PL. (Farah moved Stackhouse Systems to Dana, so that one isn't yours.)"], {"Palisade 3PL"}),
    (["Yours: Palisade 3PL. Dana takes Northpass Distribution."], {"Palisade 3PL"}),                      # another's
    (["Yours: Palisade 3PL. PS: Palisade is the biggest, so maybe start there."], {"Palisade 3PL"}),     # advice, no doubt
])
def test_what_the_colleague_was_told(messages, want):
    assert L.told(messages, NAMES, DANA) == (want, "")


@pytest.mark.parametrize("messages", [
    ["Yours: Palisade 3PL and possibly Stackhouse Systems."],
    ["Yours: Palisade 3PL.", "And Atlas Outdoor Advertising too, not sure yet."],
])
def test_a_name_offered_with_doubt_is_a_hedge(messages):
    got, problem = L.told(messages, NAMES, DANA)
    assert problem.startswith("a hedge")


def test_a_status_that_is_not_the_list_s_sets_names_aside():
    import re
    off = re.compile(r"\bworking\b|\bunqualified\b", re.I)
    assert L.told(["Qualified: Palisade 3PL. Still Working: Stackhouse Systems."], NAMES, [], off) == ({"Palisade 3PL"}, "")

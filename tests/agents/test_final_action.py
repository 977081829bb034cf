"""A model agent's closing text read as its last action (``harness.agents.model.final_action``): how an
infeasible verdict is recognised — also in markdown, as chat models often write it."""
from __future__ import annotations

import pytest

from harness.agents.model import final_action


@pytest.mark.parametrize("text", [
    "INFEASIBLE: there is no such policy.",
    "infeasible: there is no such file in the Drive",
    "I looked everywhere.\nINFEASIBLE — no such file",
    "ANSWER: INFEASIBLE",
    "**INFEASIBLE:** no such file",
    "I looked everywhere.\n**INFEASIBLE** — no such file",
    "__INFEASIBLE__: the meeting was cancelled",
    "**ANSWER:** INFEASIBLE",
    "ANSWER: **INFEASIBLE**",
])
def test_a_line_beginning_infeasible_ends_as_infeasible(text):
    assert final_action(text) == {"type": "done", "status": "infeasible", "answer": text}


@pytest.mark.parametrize("text", [
    "The file is not infeasible to find.\nANSWER: $2,500,000",
    "ANSWER: $2,500,000 (it was **not** INFEASIBLE after all)",
    "Done: I pinned the message.",
])
def test_infeasible_inside_a_line_is_not_a_verdict(text):
    assert final_action(text) == {"type": "done", "status": "complete", "answer": text}

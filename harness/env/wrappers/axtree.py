"""``AddAxTree``: the page's accessibility tree in the observation (``axtree=True``)."""
from __future__ import annotations

from gymnasium import spaces

from harness.env.observe import axtree
from harness.env.spaces import AnyText
from harness.env.wrappers.base import AddObservationKey


class AddAxTree(AddObservationKey):
    """Adds ``axtree``: Playwright's ARIA snapshot of the page (``harness.env.observe.axtree``).

    Example::

        env = AddAxTree(DeskEnv("meridian/gross-tonnage"))   # or gym.make(ENV_ID, task=..., axtree=True)
        obs, info = env.reset()
        print(obs["axtree"])                                  # the ARIA snapshot, as YAML
    """

    key = "axtree"

    @staticmethod
    def key_space() -> spaces.Space:
        return AnyText(max_length=2_000_000, min_length=0)

    def read(self, obs: dict) -> str:
        return self._session.page_call(axtree)

    def blank(self) -> str:
        return ""

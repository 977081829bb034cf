"""``AddSetOfMarks``: set-of-marks in the observation (``som=True``)."""
from __future__ import annotations

import numpy as np
from gymnasium import spaces

from harness.env.observe import draw_marks, marks, marks_text
from harness.env.spaces import SCREEN_SHAPE, AnyText, screen_space
from harness.env.wrappers.base import AddObservationKey


class AddSetOfMarks(AddObservationKey):
    """Adds ``som``: ``image``, the screenshot with numbered boxes over the page's interactive
    elements, and ``elements``, the matching list (``[3] button "Compose" at (120, 88)``).

    Example::

        env = AddSetOfMarks(DeskEnv("meridian/gross-tonnage"))   # or gym.make(ENV_ID, task=..., som=True)
        obs, info = env.reset()
        obs["som"]["image"]                                       # (800, 1280, 3) uint8, boxes drawn
        print(obs["som"]["elements"])                             # one line per box: [id] role "name" at (x, y)
    """

    key = "som"

    @staticmethod
    def key_space() -> spaces.Space:
        return spaces.Dict({"image": screen_space(), "elements": AnyText(max_length=500_000, min_length=0)})

    def read(self, obs: dict) -> dict:
        els = self._session.page_call(marks)
        return {"image": draw_marks(obs["screenshot"], els), "elements": marks_text(els)}

    def blank(self) -> dict:
        return {"image": np.zeros(SCREEN_SHAPE, np.uint8), "elements": ""}

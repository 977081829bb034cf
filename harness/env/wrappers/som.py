"""``AddSetOfMarks``: set-of-marks in the observation (``som=True``)."""
from __future__ import annotations

import numpy as np
from gymnasium import spaces

from harness.env.observe import draw_marks, marks, marks_text
from harness.env.spaces import AnyText, screen_space
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
    def key_space(screenshot: spaces.Box | None = None) -> spaces.Space:
        """The image has the screenshot's space (the variant's screen)."""
        return spaces.Dict({"image": screenshot if screenshot is not None else screen_space(),
                            "elements": AnyText(max_length=500_000, min_length=0)})

    @classmethod
    def space(cls, inner: spaces.Dict) -> spaces.Dict:
        return spaces.Dict({**inner.spaces, cls.key: cls.key_space(inner.spaces.get("screenshot"))})

    def read(self, obs: dict) -> dict:
        """Boxes and points in screenshot pixels (the page's CSS boxes mapped through the episode's variant)."""
        variant = self._session.variant
        els = self._session.page_call(lambda page: marks(page, variant))
        return {"image": draw_marks(obs["screenshot"], els), "elements": marks_text(els)}

    def blank(self) -> dict:
        shape = self.env.observation_space["screenshot"].shape
        return {"image": np.zeros(shape, np.uint8), "elements": ""}

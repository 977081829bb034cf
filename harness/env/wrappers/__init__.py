"""Gymnasium wrappers over ``DeskEnv``, one per observation it can have beyond the base dict.

``HybridTools`` (``tools.py``: ``tool_call`` actions, ``tool_result``, an MCP server),
``AddAxTree`` (``axtree.py``), ``AddSetOfMarks`` (``som.py``) and ``PixelsOnly``
(``pixels.py``). ``harness.env.make.make_env`` applies them, in that order, for the
``tools=``, ``axtree=``, ``som=`` and ``obs_mode="pixels"`` arguments of
``gym.make("deskworld/Desk-v0", ...)``; ``base.py`` holds what the first three share.
"""
from harness.env.wrappers.axtree import AddAxTree
from harness.env.wrappers.pixels import PixelsOnly
from harness.env.wrappers.som import AddSetOfMarks
from harness.env.wrappers.tools import HybridTools

__all__ = ["AddAxTree", "AddSetOfMarks", "HybridTools", "PixelsOnly"]

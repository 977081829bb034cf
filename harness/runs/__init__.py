"""Runs: many episodes, their recording, metrics, reports, exports and media.

``layout`` owns the run folder (every path, reader and writer, ``Unreadable``); ``episode`` is the
one episode loop; ``runner`` (local worker processes) and ``ray_backend`` (Ray actors) run many
episodes through it; ``lifetime`` makes workers die with their run; ``recorder`` writes one episode
all or nothing; ``metrics`` and ``report`` summarise; ``regrade``, ``export`` and ``media`` read a
recorded run; ``overlay`` is what the viewer and the media draw for an action.
"""

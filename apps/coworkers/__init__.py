"""Virtual co-workers: people in the world who answer (DESIGN.md, "Co-workers and other actors").

A co-worker is defined in ``worlds/<world>/coworkers.yaml`` (``spec.py``): a
persona, what they know and won't do, a scripted brain of **triggers** and
**actions**, and a fallback reply for messages no trigger matches.

Triggers are evaluated from the store's write log (``_writes``) when
``engine.tick(store)`` runs — once after each agent step (the harness) or
request (``deskworld serve``) — so every app's writes can trigger without the
app knowing about co-workers. Only writes made by the actor ``agent`` trigger;
co-workers never trigger each other, so a tick always ends. Actions run
through the apps' service layers as ``Caller(user=<co-worker>,
actor=<co-worker>)``: the write log and the diff say who did what.

The compiled spec lives in the slot (``_meta``), with the queue of delayed
actions (``coworker_queue``), so a restored slot replays identically.
"""

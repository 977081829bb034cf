"""Co-worker bookkeeping in the slot. Not exported: what co-workers *did* is in
the apps' own tables (with their actor); this is only the machinery."""
from apps.core.store.schema import Kind, Table, content, key

QUEUE = Table("coworker_queue", (
    key(),
    content("due", Kind.INT),                 # the agent step (tick number) it runs at
    content("coworker"),
    content("trigger"),                       # trigger id, or "fallback" / "model"
    content("action", Kind.JSON),
    content("context", Kind.JSON),            # what caused it: the message, event or record
    content("done", Kind.BOOL, default=False),
    content("error"),
), indexes=("done, due",), exported=False)

FIRED = Table("coworker_fired", (
    key(),
    content("coworker"),
    content("trigger"),
    content("step", Kind.INT),
    content("cause"),                         # "chat_messages:12"
), indexes=("coworker, trigger",), exported=False)

TABLES = (QUEUE, FIRED)

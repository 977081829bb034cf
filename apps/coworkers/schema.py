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

# The agent's questions to its principal (``ask_user``), exported so a task can count them
# ("don't ask more than once"). Written with the actor ``ask_user``: asking is never collateral damage.
ASKS = Table("user_asks", (
    key(),
    content("step", Kind.INT),                # the agent step it was asked at
    content("principal"),                     # who was asked
    content("text"),
    content("trigger"),                       # the principal's trigger that answered, or "cant_help" / "model"
))

TABLES = (QUEUE, FIRED, ASKS)

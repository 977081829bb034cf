"""The co-workers file: ``worlds/<world>/coworkers.yaml``.

```yaml
coworkers:
  - id: sofia.marchetti                 # a person in world.yaml
    persona: "Paralegal; keeps the data room. Brisk, friendly."
    knows: ["where every file in the matter's data room is"]
    wont: ["give legal advice"]
    brain: scripted                     # scripted (default) | model (an optional chat-completion backend)
    fallback:                           # replies to a message no trigger matches, used in turn
      - "Happy to help — which document do you need, and for which matter?"
    triggers:
      - id: latest-survey
        when: message                   # message | invite | steps | record
        via: [chat, mail]               # message: where the agent's message must be (default both)
        match: [[survey, inspection], [latest, newest, send, copy]]   # every group needs one word
        examples: ["Could you send me the latest survey report?"]     # phrasings it must accept
        counterexamples: ["Thanks for the survey!"]                   # phrasings it must not
        once: false
        do:
          - reply: "Sure — just emailed it to you."
            via: chat                   # an action may be limited to how the agent asked
          - mail: {to: [agent], subject: "…", body: "…", attach: ["drive/sofia.marchetti/…/X.pdf"]}
```

``when: invite`` fires when the agent invites the co-worker to an event (or
moves an event they are a guest of); its ``respond`` action answers
(``accepted`` / ``declined`` / ``tentative`` / ``auto``: accept when free,
decline when busy). ``when: steps`` fires once after ``steps`` agent steps.
``when: record`` fires when an agent write to ``table`` (optionally only the
``fields`` listed) leaves a row matching ``where``.

Conversations have state: what this co-worker has already said in the episode.
``after: [ids]`` makes a trigger a turn that follows others (every one of them
must have fired): the answer to the question they asked back, the rest of a
partial answer, the file they send when reminded. ``until: [ids]`` retires a
turn once any of those has fired ("still on it" stops when the promise is
kept). ``wait: N`` (with ``after``) holds a turn until N agent steps have passed
since the last of ``after`` fired — a colleague in a meeting, who needs
reminding later rather than at once; on a ``when: steps`` trigger with
``after``, ``steps`` counts from that moment (a colleague who chases you N
steps after asking). Triggers are tried in file order, so a follow-up that
shares words with its opener comes before it (``deskworld check`` reports an
example taken by another turn in the state where its own turn is live).

A trigger marked ``scenario: true`` is part of one task's story (a partner
who messages after three steps, say): it fires only in episodes of tasks
that list it as ``coworkers: ["<person>:<trigger id>"]``.
"""
from __future__ import annotations

from typing import Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


Via = Literal["chat", "mail"]


class ReplyAction(_Model):
    reply: str
    attach: list[str] = []              # drive paths; mail: attachments, chat: shared Drive files
    via: Via | None = None
    delay_steps: int = Field(0, ge=0, le=100)


class PostAction(_Model):
    post: str                            # text
    channel: str | None = None           # a channel name; else a DM with ``to``
    to: list[str] = []                   # person ids ("agent" = the signed-in user)
    attach: list[str] = []
    via: Via | None = None
    delay_steps: int = Field(0, ge=0, le=100)

    @model_validator(mode="after")
    def _where(self):
        if bool(self.channel) == bool(self.to):
            raise ValueError("post needs exactly one of channel or to")
        return self


class MailSpec(_Model):
    to: list[str]
    cc: list[str] = []
    subject: str
    body: str
    attach: list[str] = []


class MailAction(_Model):
    mail: MailSpec
    via: Via | None = None
    delay_steps: int = Field(0, ge=0, le=100)


class ReactAction(_Model):
    react: str                           # an emoji on the agent's message (chat only)
    via: Via | None = None
    delay_steps: int = Field(0, ge=0, le=100)


class RespondAction(_Model):
    respond: Literal["accepted", "declined", "tentative", "auto"]
    note: str = ""
    busy_note: str = ""                  # auto: the note when declining because busy
    # Declining with a note also mails it to the organizer, as a calendar does ("Declined: <title> @ <when>").
    mail_organizer: bool = False
    via: Via | None = None
    delay_steps: int = Field(0, ge=0, le=100)


class ShareAction(_Model):
    share: str                           # a drive path
    with_: list[str] = Field(alias="with")
    role: Literal["viewer", "commenter", "editor"] = "viewer"
    via: Via | None = None
    delay_steps: int = Field(0, ge=0, le=100)
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class CallAction(_Model):
    """Update a record through an app's service layer: ``call: apps.chat.service.set_topic``
    with ``args``. An argument may name a record instead of its key: ``{channel: name}``,
    ``{drive: "drive/<owner>/<path>"}``, ``{event_titled: "…"}``, ``{incident_titled: "<short
    description>"}`` (the newest such incident: one a customer filed earlier in the episode), or ``$event`` /
    ``$message`` (what triggered it)."""
    call: str = Field(pattern=r"^apps\.[a-z_]+\.service\.[a-z_]+$")
    args: dict[str, object] = {}
    via: Via | None = None
    delay_steps: int = Field(0, ge=0, le=100)


Action = Union[ReplyAction, PostAction, MailAction, ReactAction, RespondAction, ShareAction, CallAction]


class Trigger(_Model):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    when: Literal["message", "invite", "steps", "record"]
    # message
    via: list[Via] = ["chat", "mail"]
    match: list[list[str]] = []
    unless: list[str] = []               # any of these words blocks the match
    examples: list[str] = []
    counterexamples: list[str] = []
    channel: str | None = None           # message: only in this channel (by name)
    # invite
    title: list[list[str]] = []          # invite: keyword groups the event title must match
    # steps
    steps: int | None = Field(None, ge=1)
    # record
    table: str | None = None
    fields: list[str] = []
    where: dict[str, object] = {}
    once: bool = False
    scenario: bool = False               # fires only in tasks that list it (task field ``coworkers``)
    # conversation state: this co-worker's triggers that have fired in the episode
    after: list[str] = []                # all of these fired first (a follow-up turn)
    until: list[str] = []                # none of these fired yet (a turn that retires)
    wait: int = Field(0, ge=0, le=500)   # agent steps since the last of ``after`` fired
    do: list[Action]

    @model_validator(mode="after")
    def _shape(self):
        if self.when == "message":
            if not self.match:
                raise ValueError("a message trigger needs match (keyword groups)")
            if not self.examples:
                raise ValueError("a message trigger needs examples: the phrasings it accepts")
        if self.when == "steps" and self.steps is None:
            raise ValueError("a steps trigger needs steps")
        if self.when == "record" and not self.table:
            raise ValueError("a record trigger needs table")
        if self.wait and not self.after:
            raise ValueError("wait counts steps since the triggers in after; add after")
        if self.id in self.after or self.id in self.until:
            raise ValueError("a trigger cannot follow or retire itself")
        if self.when in ("steps", "record"):
            for a in self.do:
                if isinstance(a, (ReplyAction, ReactAction, RespondAction)):
                    raise ValueError(f"{self.when} triggers have no message or invite to reply to; use post or mail")
        return self


class Coworker(_Model):
    id: str
    persona: str
    knows: list[str] = []
    wont: list[str] = []
    brain: Literal["scripted", "model"] = "scripted"
    fallback: list[str] = Field(min_length=1)
    triggers: list[Trigger] = []

    @model_validator(mode="after")
    def _unique(self):
        ids = [t.id for t in self.triggers]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError(f"duplicate trigger id {sorted(dup)[0]!r}")
        for t in self.triggers:
            for ref in t.after + t.until:
                if ref not in ids:
                    raise ValueError(f"trigger {t.id!r}: after/until names {ref!r}, not a trigger of {self.id}")
        return self


class CoworkersFile(_Model):
    coworkers: list[Coworker] = []

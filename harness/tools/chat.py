"""Chat tools: channels and direct messages, reading, posting, reacting, pinning, searching,
creating channels and managing who is in them.

A conversation is named by its id or, for a channel, by its name
(``general`` or ``#general``).
"""
from __future__ import annotations

from apps.chat import service as chat
from apps.core.errors import Invalid, NotFound
from apps.core.store.db import Caller, Store
from harness.tools.registry import read, write


def conversation_id(store: Store, user: str, ref: str | int) -> int:
    """A conversation id from an id or a channel name the user can see."""
    ref = str(ref).strip()
    if ref.isdigit():
        return int(ref)
    conv = chat.conversation_by_name(store, user, ref)
    if conv is None:
        raise NotFound(f"There is no channel #{ref.lstrip('#')} you can see; chat.channels lists them.")
    return conv["id"]


def read_conversation(store: Store, caller: Caller, channel: str | int, limit: int = 50) -> dict:
    """Open a channel or direct message: the conversation (members, topic) and its latest messages,
    oldest first, with reactions, files and thread reply counts. Opening marks it read."""
    conv_id = conversation_id(store, caller.user, channel)
    messages = chat.messages(store, caller.user, conv_id)
    chat.mark_read(store, caller, conv_id)
    return {"conversation": chat.conversation(store, caller.user, conv_id), "messages": messages[-limit:]}


def post(store: Store, caller: Caller, channel: str | int, text: str, thread: int | None = None,
         also_channel: bool = False, drive_items: list[int] = (), local_files: list[int] = ()) -> dict:
    """Post a message in a channel or direct message you are a member of (`@person.id` mentions
    someone). Returns the posted message."""
    mid = chat.post_message(store, caller, conversation_id(store, caller.user, channel), text, thread=thread,
                            also_channel=also_channel, drive_items=drive_items, local=local_files)
    return chat.get_message(store, caller.user, mid)


def dm(store: Store, caller: Caller, people: list[str], text: str) -> dict:
    """Send a direct message to one person, or a group message to several (the conversation is
    opened if it is new). Returns the posted message."""
    conv_id = chat.open_dm(store, caller, people)
    return chat.get_message(store, caller.user, chat.post_message(store, caller, conv_id, text))


def join(store: Store, caller: Caller, channel: str | int) -> dict:
    """Join a public channel (you need to be a member to post). Returns the channel."""
    conv_id = conversation_id(store, caller.user, channel)
    chat.join(store, caller, conv_id)
    return chat.conversation(store, caller.user, conv_id)


def create_channel(store: Store, caller: Caller, name: str, private: bool = False, topic: str = "",
                   purpose: str = "", members: list[str] = ()) -> dict:
    """Create a channel (you are its first member), optionally private, with a topic, a purpose and
    the people to add. Returns the channel."""
    conv_id = chat.create_channel(store, caller, name, private=private, topic=topic, purpose=purpose,
                                  members=members)
    return chat.conversation(store, caller.user, conv_id)


def invite(store: Store, caller: Caller, channel: str | int, people: list[str]) -> list[str]:
    """Add people to a channel you are in. Returns the people newly added."""
    return chat.invite(store, caller, conversation_id(store, caller.user, channel), people)


def set_topic(store: Store, caller: Caller, channel: str | int, topic: str | None = None,
              purpose: str | None = None, name: str | None = None, archived: bool | None = None) -> dict:
    """Change a channel's settings: its topic (shown in its header), its purpose, its name, or archive
    it (read-only for everyone, gone from sidebars) / unarchive it; an empty topic or purpose clears
    it. Returns the channel."""
    conv_id = conversation_id(store, caller.user, channel)
    if topic is None and purpose is None and name is None and archived is None:
        raise Invalid("Give a topic or a purpose (or a name, or archived).", "topic")
    if archived is False:
        chat.archive_channel(store, caller, conv_id, False)
    if topic is not None:
        chat.set_topic(store, caller, conv_id, topic)
    if purpose is not None:
        chat.set_purpose(store, caller, conv_id, purpose)
    if name is not None:
        chat.rename_channel(store, caller, conv_id, name)
    if archived:
        chat.archive_channel(store, caller, conv_id, True)
    return chat.conversation(store, caller.user, conv_id)


def mark(store: Store, caller: Caller, message_id: int, saved: bool | None = None,
         unread: bool | None = None) -> dict:
    """Save a message for later (or take it off the Later list), and/or mark it unread (its
    conversation shows unread from that message on). Returns the message."""
    if saved is None and not unread:
        raise Invalid("Say saved (true or false) or unread (true).", "saved")
    if saved is not None:
        chat.save_for_later(store, caller, message_id, bool(saved))
    if unread:
        chat.mark_unread(store, caller, message_id)
    return chat.get_message(store, caller.user, message_id)


CHANNEL = "A channel name (`general`, `#general`) or a conversation id (DMs: see chat.channels)."

TOOLS = [
    read(chat.list_conversations, "chat.channels",
         "The user's conversations: the channels they are in and their direct messages, each with its id, "
         "name or title, and unread and mention counts."),
    read(chat.browse_channels, "chat.browse_channels",
         "Every channel the user can join or is in, with topic, purpose and members.",
         args={"q": "Only channels whose name, topic or purpose contains this."}),
    read(read_conversation, "chat.read", args={"channel": CHANNEL, "limit": "At most this many recent messages."}),
    read(chat.thread, "chat.thread", "A thread: its parent message and every reply, oldest first.",
         args={"message_id": "The id of the thread's parent message, or of any reply in it."}),
    read(chat.search, "chat.search",
         "Search messages the user can see, newest first: words and \"quoted phrases\" (all must match), "
         "from:@person.id, in:#channel or in:@person.id, before:/after:/on: YYYY-MM-DD, is:saved (the "
         "user's saved-for-later messages).",
         args={"q": "The query, e.g. `from:@priya.raman deductible in:#general`.", "limit": "At most this many."}),
    write(post, "chat.post",
          args={"channel": CHANNEL, "text": "The message (plain text; `@person.id` mentions).",
                "thread": "Reply in the thread of this message id.",
                "also_channel": "With thread: also send the reply to the channel.",
                "drive_items": "Drive item ids to share with the message.",
                "local_files": "Ids of files on the user's computer (the world's local files) to upload "
                               "into the message."}),
    write(dm, "chat.dm", args={"people": "Person ids (like `priya.raman`) or email addresses.",
                               "text": "The message."}),
    write(chat.react, "chat.react",
          "Toggle the user's emoji reaction on a message. Returns true if the reaction is now on.",
          args={"message": "The message id.", "emoji": "The emoji, e.g. 👍 ✅ 👀."}),
    write(join, "chat.join", args={"channel": CHANNEL}),
    write(chat.pin, "chat.pin", "Pin a message to its conversation, or un-pin it (you must be a member).",
          args={"message_id": "The message id.", "pinned_": "False to un-pin it."}),
    write(create_channel, "chat.create_channel",
          args={"name": "The channel name: lowercase letters, digits and hyphens (like `q3-launch`).",
                "private": "Only members can see and join it.", "topic": "The topic (shown in the header).",
                "purpose": "What the channel is for.",
                "members": "People to add besides you: person ids (like `priya.raman`) or email addresses."}),
    write(invite, "chat.invite", args={"channel": CHANNEL, "people": "Person ids (like `priya.raman`) or email "
                                                                    "addresses."}),
    write(set_topic, "chat.set_topic", args={"channel": CHANNEL, "topic": "The new topic (\"\" clears it).",
                                             "purpose": "The new purpose (\"\" clears it).",
                                             "name": "A new name for the channel (Slack's rules: lowercase, "
                                                     "no spaces or periods).",
                                             "archived": "True archives the channel, false unarchives it."}),
    write(mark, "chat.mark", args={"message_id": "The message id.",
                                   "saved": "True saves it for later, false takes it off the Later list.",
                                   "unread": "True marks it unread (for you)."}),
]

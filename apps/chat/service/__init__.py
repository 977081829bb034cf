"""Chat service layer: conversations, messages, threads, reactions, pins, search.

Reads take ``(store, user, ...)``, writes ``(store, caller, ...)`` and record
``caller.actor``. Visibility: a public channel is visible to everyone in the
workspace (they can preview it and join); a private channel, a DM or a group
DM only to its members — to anyone else it is ``NotFound``, as if it did not
exist. Writing in a conversation needs membership (``Forbidden``). Bad input
raises ``Invalid`` and writes nothing.

Read markers (``chat_members.last_read``) hold the id of the newest message a
member has seen; unread counts are over top-level messages (thread replies
count only when also sent to the channel) written by someone else.

The package re-exports its modules' public names, so ``service.X`` is the API:
``base`` (kinds, limits, names and mentions, conversation access shared by the
others), ``conversations``, ``messages``, ``channels`` (channels and DMs), ``personal`` (saved for
later, mark unread, the Threads and Activity views) and ``search``.
"""
from apps.chat.service.base import (BROADCAST, CHANNEL, DM, EMOJIS, GROUP, KINDS, MAX_GROUP, MAX_NAME, MAX_TEXT,
                                    MAX_TOPIC, MENTION_RE, MSG_NOT_FOUND, NAME_RE, NOT_FOUND, channel_name_error,
                                    is_member, member_ids, mentions_in)
from apps.chat.service.channels import (archive_channel, create_channel, drive_choices, invite, join, leave,
                                        mention_candidates, open_dm, people_to_invite, rename_channel, set_purpose,
                                        set_topic)
from apps.chat.service.conversations import (browse_channels, conversation, conversation_by_name, last_read,
                                             list_conversations, mark_read)
from apps.chat.service.messages import (PAGE, delete_message, edit_message, get_message, has_older, latest_page,
                                        message, messages, pin, pinned, post_message, react, thread)
from apps.chat.service.personal import activity, mark_unread, save_for_later, saved_items, threads
from apps.chat.service.search import (OPERATORS, TOKEN_RE, SearchError, parse_query, search, search_files,
                                      search_people, search_terms)

__all__ = [
    "BROADCAST", "CHANNEL", "DM", "EMOJIS", "GROUP", "KINDS", "MAX_GROUP", "MAX_NAME", "MAX_TEXT", "MAX_TOPIC",
    "MENTION_RE", "MSG_NOT_FOUND", "NAME_RE", "NOT_FOUND", "OPERATORS", "TOKEN_RE", "SearchError", "activity",
    "PAGE", "archive_channel", "browse_channels", "has_older", "latest_page", "mark_unread", "rename_channel",
    "save_for_later", "saved_items", "search_files", "search_people", "threads",
    "channel_name_error", "conversation", "conversation_by_name", "create_channel", "delete_message",
    "drive_choices", "edit_message", "get_message", "invite", "is_member", "join", "last_read", "leave",
    "list_conversations", "mark_read", "member_ids", "mention_candidates", "mentions_in", "message", "messages",
    "open_dm", "parse_query", "people_to_invite", "pin", "pinned", "post_message", "react", "search", "search_terms",
    "set_purpose", "set_topic", "thread",
]

"""Chat tools for issue 21: renaming and archiving through chat.set_topic, saving for later and
marking unread through chat.mark, uploads from the computer through chat.post, is:saved in search."""
from __future__ import annotations

import pytest

from apps.chat import service as S
from harness.tools.registry import ToolError, get_tool


def call(st, name, args, user="alex.chen"):
    return get_tool(name).call(st, user, args)


def test_rename_archive_save_unread_upload(slot_of):
    with slot_of("meridian").store() as st:
        out = call(st, "chat.create_channel", {"name": "tool-room", "members": ["priya.raman"]})
        cid = out["id"]
        msg = call(st, "chat.post", {"channel": cid, "text": "first"})
        local = st.one("SELECT id, name FROM local_files WHERE owner='alex.chen' ORDER BY id")
        up = call(st, "chat.post", {"channel": cid, "text": "", "local_files": [local["id"]]})
        assert up["uploads"] == [local["name"]]
        saved = call(st, "chat.mark", {"message_id": msg["id"], "saved": True})
        assert saved["saved"]
        assert [m["id"] for m in call(st, "chat.search", {"q": "is:saved"})] == [msg["id"]]
        call(st, "chat.mark", {"message_id": msg["id"], "unread": True})
        assert S.last_read(st, "alex.chen", cid) < msg["id"]
        assert call(st, "chat.set_topic", {"channel": "tool-room", "name": "tool-room-2"})["name"] == "tool-room-2"
        assert call(st, "chat.set_topic", {"channel": "tool-room-2", "archived": True})["archived"]
        assert cid not in [c["id"] for c in S.list_conversations(st, "alex.chen")["channels"]]
        with pytest.raises(ToolError) as e:
            call(st, "chat.post", {"channel": cid, "text": "late"})
        assert "archived" in e.value.message
        assert not call(st, "chat.set_topic", {"channel": "tool-room-2", "archived": False})["archived"]


@pytest.mark.parametrize("name,args,message", [
    ("chat.mark", {"message_id": 1}, "Say saved"),
    ("chat.mark", {"message_id": 999999, "saved": True}, "doesn't exist"),
    ("chat.set_topic", {"channel": "general", "name": "Has Spaces"}, "can't contain spaces"),
    ("chat.post", {"channel": "general", "text": "x", "local_files": [999999]}, "isn't on this computer"),
])
def test_bad_input_is_a_clear_error(name, args, message, slot_of):
    with slot_of("meridian").store() as st:
        with pytest.raises(ToolError) as e:
            call(st, name, args)
        assert message in e.value.message

"""The emoji Chat offers in its picker and ``:shortcode:`` autocomplete, with Slack's short names and
categories. Any emoji can still be used as a reaction; these are the ones the picker shows."""
from __future__ import annotations

CATEGORIES = (
    ("people", "Smileys & People"), ("nature", "Animals & Nature"), ("food", "Food & Drink"),
    ("activity", "Activity"), ("travel", "Travel & Places"), ("objects", "Objects"), ("symbols", "Symbols"),
)

# (emoji, short name, category, extra search words)
EMOJI = (
    ("😀", "grinning", "people", "smile happy"), ("😃", "smiley", "people", "happy"),
    ("😄", "smile", "people", "happy"), ("😁", "grin", "people", ""), ("😆", "laughing", "people", "satisfied"),
    ("😅", "sweat_smile", "people", ""), ("🤣", "rolling_on_the_floor_laughing", "people", "rofl"),
    ("😂", "joy", "people", "tears laugh"), ("🙂", "slightly_smiling_face", "people", ""),
    ("😉", "wink", "people", ""), ("😊", "blush", "people", ""), ("😇", "innocent", "people", "halo"),
    ("😍", "heart_eyes", "people", "love"), ("😘", "kissing_heart", "people", ""),
    ("😋", "yum", "people", ""), ("😎", "sunglasses", "people", "cool"), ("🤓", "nerd_face", "people", ""),
    ("🤔", "thinking_face", "people", "hmm"), ("🤨", "face_with_raised_eyebrow", "people", ""),
    ("😐", "neutral_face", "people", ""), ("😑", "expressionless", "people", ""),
    ("🙄", "face_with_rolling_eyes", "people", ""), ("😏", "smirk", "people", ""),
    ("😬", "grimacing", "people", "awkward"), ("😌", "relieved", "people", ""), ("😔", "pensive", "people", ""),
    ("😴", "sleeping", "people", ""), ("😷", "mask", "people", "sick"), ("🤯", "exploding_head", "people", "mind blown"),
    ("🥳", "partying_face", "people", "celebrate"), ("😕", "confused", "people", ""),
    ("😟", "worried", "people", ""), ("😮", "open_mouth", "people", "wow"), ("😲", "astonished", "people", ""),
    ("😳", "flushed", "people", ""), ("🥺", "pleading_face", "people", ""), ("😢", "cry", "people", "sad"),
    ("😭", "sob", "people", "sad"), ("😱", "scream", "people", ""), ("😤", "triumph", "people", ""),
    ("😡", "rage", "people", "angry"), ("🤝", "handshake", "people", "deal"),
    ("👍", "thumbsup", "people", "+1 yes like approve"), ("👎", "thumbsdown", "people", "-1 no"),
    ("👏", "clap", "people", "applause"), ("🙌", "raised_hands", "people", "hooray"),
    ("👋", "wave", "people", "hello bye"), ("👌", "ok_hand", "people", ""), ("✌️", "v", "people", "peace"),
    ("🤞", "crossed_fingers", "people", "luck"), ("💪", "muscle", "people", "strong"),
    ("🙏", "pray", "people", "thanks please"), ("👀", "eyes", "people", "looking"),
    ("👉", "point_right", "people", ""), ("👆", "point_up_2", "people", ""), ("🫡", "saluting_face", "people", ""),
    ("🤷", "shrug", "people", ""), ("🙋", "raising_hand", "people", ""), ("🧠", "brain", "people", ""),
    ("❤️", "heart", "symbols", "love"), ("🧡", "orange_heart", "symbols", ""),
    ("💛", "yellow_heart", "symbols", ""), ("💚", "green_heart", "symbols", ""),
    ("💙", "blue_heart", "symbols", ""), ("💜", "purple_heart", "symbols", ""), ("💔", "broken_heart", "symbols", ""),
    ("✅", "white_check_mark", "symbols", "done check yes"), ("☑️", "ballot_box_with_check", "symbols", ""),
    ("✔️", "heavy_check_mark", "symbols", "done"), ("❌", "x", "symbols", "no cross"),
    ("❗", "exclamation", "symbols", "important"), ("❓", "question", "symbols", ""),
    ("⚠️", "warning", "symbols", "caution"), ("🚫", "no_entry_sign", "symbols", ""),
    ("💯", "100", "symbols", "hundred perfect"), ("➕", "heavy_plus_sign", "symbols", "plus"),
    ("➖", "heavy_minus_sign", "symbols", ""), ("🔴", "red_circle", "symbols", ""),
    ("🟢", "large_green_circle", "symbols", ""), ("🟡", "large_yellow_circle", "symbols", ""),
    ("⭐", "star", "symbols", "favourite"), ("✨", "sparkles", "symbols", "new"), ("💤", "zzz", "symbols", "sleep"),
    ("🆗", "ok", "symbols", ""), ("🆕", "new", "symbols", ""), ("🔁", "repeat", "symbols", ""),
    ("🐶", "dog", "nature", "puppy"), ("🐱", "cat", "nature", ""), ("🦊", "fox_face", "nature", ""),
    ("🐻", "bear", "nature", ""), ("🐼", "panda_face", "nature", ""), ("🦁", "lion_face", "nature", ""),
    ("🐸", "frog", "nature", ""), ("🐝", "bee", "nature", ""), ("🦄", "unicorn_face", "nature", ""),
    ("🐢", "turtle", "nature", "slow"), ("🐙", "octopus", "nature", ""), ("🌱", "seedling", "nature", ""),
    ("🌲", "evergreen_tree", "nature", ""), ("🌵", "cactus", "nature", ""), ("🍀", "four_leaf_clover", "nature", "luck"),
    ("🌸", "cherry_blossom", "nature", "flower"), ("🌻", "sunflower", "nature", ""), ("🌞", "sun_with_face", "nature", ""),
    ("🌈", "rainbow", "nature", ""), ("⚡", "zap", "nature", "lightning fast"), ("🔥", "fire", "nature", "hot lit"),
    ("❄️", "snowflake", "nature", "cold"), ("🌊", "ocean", "nature", "wave"),
    ("☕", "coffee", "food", "cafe"), ("🍵", "tea", "food", ""), ("🍺", "beer", "food", ""),
    ("🍷", "wine_glass", "food", ""), ("🥂", "clinking_glasses", "food", "cheers"), ("🍕", "pizza", "food", ""),
    ("🍔", "hamburger", "food", "burger"), ("🌮", "taco", "food", ""), ("🍣", "sushi", "food", ""),
    ("🍩", "doughnut", "food", "donut"), ("🍪", "cookie", "food", ""), ("🎂", "birthday", "food", "cake"),
    ("🍎", "apple", "food", ""), ("🥑", "avocado", "food", ""), ("🍿", "popcorn", "food", ""),
    ("🎉", "tada", "activity", "party celebrate hooray"), ("🎊", "confetti_ball", "activity", ""),
    ("🎈", "balloon", "activity", ""), ("🎁", "gift", "activity", "present"), ("🏆", "trophy", "activity", "win"),
    ("🥇", "first_place_medal", "activity", ""), ("⚽", "soccer", "activity", "football"),
    ("🏀", "basketball", "activity", ""), ("🎯", "dart", "activity", "target bullseye"),
    ("🎮", "video_game", "activity", ""), ("🎵", "musical_note", "activity", "music"), ("🎨", "art", "activity", ""),
    ("🚀", "rocket", "travel", "launch ship"), ("✈️", "airplane", "travel", "flight"), ("🚗", "car", "travel", ""),
    ("🚕", "taxi", "travel", ""), ("🚆", "train2", "travel", ""), ("🚲", "bike", "travel", ""),
    ("🏠", "house", "travel", "home"), ("🏢", "office", "travel", "building"), ("🏦", "bank", "travel", ""),
    ("🏛️", "classical_building", "travel", "court"), ("🌍", "earth_africa", "travel", "world globe"),
    ("🗺️", "world_map", "travel", ""), ("⛵", "boat", "travel", "sailboat"), ("🚧", "construction", "travel", "wip"),
    ("💻", "computer", "objects", "laptop"), ("⌨️", "keyboard", "objects", ""), ("📱", "iphone", "objects", "phone"),
    ("📞", "telephone_receiver", "objects", "call"), ("📧", "email", "objects", "mail"),
    ("📨", "incoming_envelope", "objects", ""), ("📎", "paperclip", "objects", "attachment"),
    ("📌", "pushpin", "objects", "pin"), ("📍", "round_pushpin", "objects", ""), ("🔖", "bookmark", "objects", ""),
    ("📝", "memo", "objects", "note write"), ("📄", "page_facing_up", "objects", "document"),
    ("📁", "file_folder", "objects", ""), ("📂", "open_file_folder", "objects", ""),
    ("📅", "date", "objects", "calendar"), ("📆", "calendar", "objects", ""), ("📊", "bar_chart", "objects", "graph"),
    ("📈", "chart_with_upwards_trend", "objects", "growth up"), ("📉", "chart_with_downwards_trend", "objects", "down"),
    ("🔍", "mag", "objects", "search"), ("🔒", "lock", "objects", "secure"), ("🔑", "key", "objects", ""),
    ("🔔", "bell", "objects", "notification"), ("💡", "bulb", "objects", "idea"), ("⏰", "alarm_clock", "objects", ""),
    ("⏳", "hourglass_flowing_sand", "objects", "waiting"), ("💰", "moneybag", "objects", "money"),
    ("💵", "dollar", "objects", "money"), ("💶", "euro", "objects", "money"), ("🧾", "receipt", "objects", ""),
    ("⚖️", "scales", "objects", "law balance"), ("🔨", "hammer", "objects", ""), ("🛠️", "hammer_and_wrench", "objects", "tools"),
    ("📦", "package", "objects", "box"), ("🗂️", "card_index_dividers", "objects", ""), ("📣", "mega", "objects", "announce"),
)

_BY_NAME = {name: ch for ch, name, _, _ in EMOJI}
ALIASES = {"+1": "👍", "-1": "👎", "thumbs_up": "👍", "thumbs_down": "👎", "heavy_heart": "❤️", "smiley_face": "🙂",
           "check": "✅", "raised_hand": "🙋", "laugh": "😂", "party": "🎉", "cake": "🎂", "fire_emoji": "🔥"}


def by_shortcode(code: str) -> str | None:
    """The emoji for a short name written with or without colons (``:thumbsup:``, ``+1``), else None."""
    code = (code or "").strip().strip(":").lower()
    return _BY_NAME.get(code) or ALIASES.get(code)


def as_emoji(value: str) -> str:
    """A reaction as typed: a short name becomes its emoji, anything else stays as it is."""
    return by_shortcode(value) or (value or "").strip()


def grouped() -> list[dict]:
    """The picker's categories, each with its emoji (``char``, ``name``, ``words``)."""
    out = []
    for key, label in CATEGORIES:
        out.append({"key": key, "label": label,
                    "emoji": [{"char": c, "name": n, "words": w} for c, n, k, w in EMOJI if k == key]})
    return out


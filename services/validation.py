"""A request body that fails its schema, said as an organiser reads it: the field by one path
spelling (``tables[0].seats``, as the domain names ``items[1].code``) and the reason in zh-TW
first, then marshmallow's English.
"""
from __future__ import annotations

import re
from typing import Any

#: marshmallow's and webargs' messages (marshmallow 4) → zh-TW; ``{…}`` groups carry over
_ZH = [
    (r"Missing data for required field\.", "必填，未填寫"),
    (r"Field may not be null\.", "不可為空值（null）"),
    (r"Unknown field\.", "不是此處的欄位"),
    (r"Not a valid integer\.", "須為整數"),
    (r"Not a valid number\.", "須為數字"),
    (r"Not a valid string\.", "須為字串"),
    (r"Not a valid boolean\.", "須為 true 或 false"),
    (r"Not a valid list\.", "須為清單"),
    (r"Not a valid tuple\.", "須為清單"),
    (r"Not a valid mapping type\.", "須為物件"),
    (r"Invalid input type\.", "型別不正確：須為物件"),
    (r"Not a valid datetime\.", "須為 ISO 8601 時間"),
    (r"Not a valid date\.", "須為 ISO 8601 日期"),
    (r"Not a valid email address\.", "須為電子郵件地址"),
    (r"Invalid value\.", "值不正確"),
    (r"Length must be (\d+)\.", r"長度須為 \1"),
    (r"Shorter than minimum length (\d+)\.", r"長度不得少於 \1"),
    (r"Longer than maximum length (\d+)\.", r"長度不得超過 \1"),
    (r"Length must be between (\d+) and (\d+)\.", r"長度須在 \1 到 \2 之間"),
    (r"Must be greater than or equal to (\S+) and less than or equal to (\S+)\.", r"須在 \1 到 \2 之間"),
    (r"Must be greater than or equal to (\S+)\.", r"須大於或等於 \1"),
    (r"Must be less than or equal to (\S+)\.", r"須小於或等於 \1"),
    (r"Must be greater than (\S+)\.", r"須大於 \1"),
    (r"Must be less than (\S+)\.", r"須小於 \1"),
    (r"Must be one of: (.*)\.", r"須為下列之一：\1"),
    (r"Must be equal to (.*)\.", r"須等於 \1"),
    (r"String does not match expected pattern\.", "格式不符"),
    (r"Number too large\.", "數字過大"),
]
_ZH = [(re.compile(f"^{pattern}$"), zh) for pattern, zh in _ZH]
_CJK = re.compile(r"[\u3400-\u9fff]")


def first_error(messages: Any, path: str = "") -> tuple[str | None, str]:
    """The first invalid field's path and its first message in marshmallow's nested messages
    (list items by index: ``tables[0].seats``)."""
    if isinstance(messages, dict) and messages:
        key, value = next(iter(messages.items()))
        if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            step = f"{path}[{key}]"
        else:
            step = f"{path}.{key}" if path else str(key)
        return first_error(value, step)
    if isinstance(messages, list) and messages:
        first = messages[0]
        if isinstance(first, (dict, list)):
            return first_error(first, path)
        return path or None, str(first)
    return path or None, str(messages) if messages else ""


def reason_zh(message: str) -> str:
    """``message`` in zh-TW: a known marshmallow message translated (English kept after it);
    a message of our own that already has its zh-TW text, as it is."""
    if _CJK.search(message):
        return message
    for pattern, zh in _ZH:
        if pattern.match(message):
            return f"{pattern.sub(zh, message)}（{message}）"
    return message


__all__ = ["first_error", "reason_zh"]

"""Request-check errors as an organiser reads them (services/validation.py, issue #15)."""
from __future__ import annotations

import pytest

from services.validation import first_error, reason_zh


@pytest.mark.parametrize("messages, path, first", [
    ({"tables": {0: {"seats": ["Length must be 4."]}}}, "tables[0].seats", "Length must be 4."),
    ({"tables": {"0": {"seats": ["Length must be 4."]}}}, "tables[0].seats", "Length must be 4."),
    ({"items": {1: {"code": ["Missing data for required field."]}}}, "items[1].code",
     "Missing data for required field."),
    ({"payments": {3: ["Not a valid integer."]}}, "payments[3]", "Not a valid integer."),
    ({"body": ["Invalid input type."]}, "body", "Invalid input type."),
])
def test_one_path_spelling(messages, path, first):
    assert first_error(messages) == (path, first)


@pytest.mark.parametrize("message, zh", [
    ("Length must be 4.", "長度須為 4（Length must be 4.）"),
    ("Must be greater than or equal to 1 and less than or equal to 100.",
     "須在 1 到 100 之間（Must be greater than or equal to 1 and less than or equal to 100.）"),
    ("Must be one of: finish_hand, finish_circle.",
     "須為下列之一：finish_hand, finish_circle（Must be one of: finish_hand, finish_circle.）"),
    ("Missing data for required field.", "必填，未填寫（Missing data for required field.）"),
    ("台數項目須為名堂代碼 an item is a code", "台數項目須為名堂代碼 an item is a code"),  # our own: already zh-TW
    ("Something else.", "Something else."),
])
def test_reasons_in_zh_tw_first(message, zh):
    assert reason_zh(message) == zh

"""Names in Taiwan's order, by strokes (筆畫; web/name_order.py, docs/rulings.md R-tour-33),
held to stroke counts written out here (the 教育部 counts, as Unihan's kTotalStrokes has them)."""
from __future__ import annotations

from web.name_order import by_name, name_key

#: surnames and their total strokes
STROKES = {"丁": 2, "王": 4, "石": 5, "江": 6, "李": 7, "林": 8, "洪": 9, "孫": 10, "陳": 11, "黃": 12, "楊": 13,
           "趙": 14, "劉": 15}


def test_surnames_go_by_their_strokes_not_their_code_points():
    names = [s + "小明" for s in STROKES]
    shown = by_name(sorted(names))  # from code point order
    assert [STROKES[n[0]] for n in shown] == sorted(STROKES.values())
    assert shown != sorted(names)


def test_one_surname_goes_on_by_the_next_character_and_latin_names_come_after():
    # 小 (3 strokes, U+5C0F) before 世 (5, U+4E16): code points would say the opposite
    assert by_name(["王世豪", "王小明", "Alice", "陳一"]) == ["王小明", "王世豪", "陳一", "Alice"]
    assert name_key("王小明") == name_key("王小明") and name_key("王") < name_key("王小明")


def test_objects_are_sorted_by_the_name_given_and_keep_their_order_when_equal():
    rows = [("p2", "林志強"), ("p1", "王小明"), ("p3", "林志強")]
    assert by_name(rows, lambda r: r[1]) == [("p1", "王小明"), ("p2", "林志強"), ("p3", "林志強")]


def test_without_icu_names_go_by_code_point_and_nothing_fails(monkeypatch):
    """A machine without the system's ICU lists names by code point (logged), never a 500."""
    from web import name_order

    name_order._collator.cache_clear()
    name_order.name_key.cache_clear()
    monkeypatch.setattr(name_order.ctypes.util, "find_library", lambda name: None)  # the system's part
    try:
        assert by_name(["陳一", "王小明", "Alice", "丁一"]) == ["Alice", "丁一", "王小明", "陳一"]
    finally:
        name_order._collator.cache_clear()
        name_order.name_key.cache_clear()

"""marshmallow schemas of the clock endpoints (``/api/v1/tournaments/{id}/clock``, what
/openapi.json shows), shared with the clock page (:mod:`web.clock_page`)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.schemas import StrictBoolean
from tournament.clock import (
    AT_TIME_POLICIES, MAX_EXTRA_SECONDS, MAX_INTERVAL_SECONDS, MAX_REASON_CHARS, MAX_ROUND_SECONDS, PUBLISH_POLICIES,
)


# the bounds of tournament.clock.ClockSettings, with their reasons (every time worked out from them is a datetime)
_ROUND = validate.Range(1, MAX_ROUND_SECONDS, error="須為 {min}–{max} 秒：一輪一次打完，至多 24 小時 "
                                                     "must be {min}–{max} s: a round is played in one sitting, "
                                                     "at most 24 h")
_INTERVAL = validate.Range(1, MAX_INTERVAL_SECONDS, error="須為 {min}–{max} 秒：輪與輪至多相隔一年 "
                                                           "must be {min}–{max} s: rounds at most a year apart")
_AHEAD = validate.Range(0, MAX_INTERVAL_SECONDS, error="須為 {min}–{max} 秒：至多提前一年 must be {min}–{max} s: "
                                                        "at most a year ahead")


class ClockSettingsSchema(Schema):
    round_seconds = fields.Integer(load_default=None, allow_none=True, strict=True, validate=_ROUND,
                                   metadata={"description": "每輪時間（秒，省略：賽事的 round_minutes）round length in "
                                                            "seconds, e.g. 5400 (default: the event's round_minutes)"})
    starts = fields.List(fields.String(metadata={"format": "date-time"}), load_default=list,
                         metadata={"description": "各輪開始時間 ISO 8601 含時區 each round's start, with offset"})
    first_start = fields.String(load_default=None, allow_none=True,
                                metadata={"format": "date-time",
                                          "description": "第一輪開始時間 first round's start (with interval_seconds)"})
    interval_seconds = fields.Integer(load_default=None, allow_none=True, strict=True, validate=_INTERVAL,
                                      metadata={"description": "輪與輪開始的間隔（秒）seconds between starts"})
    at_time = fields.String(load_default="finish_hand", validate=validate.OneOf(AT_TIME_POLICIES),
                            metadata={"description": "時間到：finish_hand 打完本盤 / finish_circle 打完本圈"})
    reminders = fields.List(fields.Integer(strict=True, validate=_ROUND), load_default=lambda: [900, 300],
                            metadata={"description": "時間到前幾秒提醒 reminders, seconds before time"})
    auto_close = StrictBoolean(load_default=True, metadata={"description": "各桌回報完賽即結束本輪 auto-close"})
    publish = fields.String(load_default="on_close", validate=validate.OneOf(PUBLISH_POLICIES),
                            metadata={"description": "公布下一輪座位：on_close 本輪結束時 / before_start 開始前"})
    publish_before_seconds = fields.Integer(load_default=0, strict=True, validate=_AHEAD,
                                            metadata={"description": "before_start：開始前幾秒公布 seconds before"})


class RoundArgSchema(Schema):
    round = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(1, 100),
                           metadata={"description": "輪次（省略：目前這一輪／下一輪）"
                                                    "round (default: the current / next)"})


class ExtraTimeSchema(RoundArgSchema):
    minutes = fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_EXTRA_SECONDS // 60),
                             metadata={"description": "延長分鐘數 extra minutes"})
    table = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(1, 10000),
                           metadata={"description": "桌號（省略：全部各桌）the table held up (default: every table)"})
    reason = fields.String(load_default="", validate=validate.Length(max=500), metadata={"description": "理由 reason"})


class PauseSchema(RoundArgSchema):
    reason = fields.String(required=True, validate=validate.Length(
        1, MAX_REASON_CHARS,
        error="須寫明暫停的理由（1–{max} 字）the reason for the pause is required (1–{max} characters)"),
        metadata={"description": "暫停的理由 why the clock is paused (停電 power cut, 全場爭議 a hall-wide dispute)"})


class ResumeSchema(RoundArgSchema):
    reason = fields.String(load_default="", validate=validate.Length(max=MAX_REASON_CHARS),
                           metadata={"description": "備註 a note (optional)"})


class ReportSchema(RoundArgSchema):
    table = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10000),
                           metadata={"description": "桌號 table"})


class ClockStatusSchema(Schema):
    tournament = fields.String()
    now = fields.String()
    configured = fields.Boolean()
    settings = fields.Dict(allow_none=True)
    round = fields.Dict(allow_none=True, metadata={"description": "目前這一輪 the current round"})
    rounds = fields.List(fields.Dict())
    published_round = fields.Integer(allow_none=True)
    next_due = fields.Dict(allow_none=True)
    overdue = fields.List(fields.Dict(),
                          metadata={"description": "已到時而未記錄（排程器未執行）due, not yet recorded"})
    scheduler = fields.Dict(metadata={"description": "回答此請求的程序：leader 執行排程 / standby 待命 / off 未啟動"})


class PublishedSeatingSchema(Schema):
    tournament = fields.String()
    round = fields.Integer(allow_none=True, metadata={"description": "公布的輪次（null：尚未公布）null: none yet"})
    published_at = fields.String(allow_none=True)
    tables = fields.List(fields.Dict())

"""marshmallow schemas of the tournament endpoints (``/api/v1/tournaments``): what /openapi.json shows.

Bodies are checked here for shape (a missing field, a wrong type → 400 naming it); what
only the log can decide (a player not registered, a hand already recorded) is the fold's,
a 409 (:mod:`services.tournament_write`).
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.schemas import OpenSchema, StrictBoolean, profile_property, time_zone_property
from referee.tiles import Wind
from tournament.events import TEAM_MAX
from tournament.standings import TieBreak

TOURNAMENT_ID = validate.Regexp(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",
                                error="賽事代號：1–64 個英數字、. _ -，英數字開頭 "
                                      "a tournament id: 1–64 of A-Z a-z 0-9 . _ -")
MAX_INT = 2**31 - 1
_TIE_BREAK = "(" + "|".join(n for t in TieBreak for n in (t.name.lower(), t.name)) + ")"
#: a tie-break chain in a query: names (``tournament.standings.TieBreak``) separated by commas
TIE_BREAKS = validate.Regexp(rf"^ *{_TIE_BREAK}( *, *{_TIE_BREAK})* *$",
                             error="同分比較：以逗號分隔的項目名 tie-breaks: names separated by commas, of "
                                   + ", ".join(t.name.lower() for t in TieBreak))
#: rounds in a query: numbers separated by commas
ROUND_LIST = validate.Regexp(r"^ *[0-9]{1,3}( *, *[0-9]{1,3})* *$",
                             error="輪次：以逗號分隔的數字 rounds: numbers separated by commas")
#: a team name (R-tour-30): 1–TEAM_MAX characters, not blank (stripped when registered), no line
#: break, no NUL (the intake refuses U+0000 in any text: api.intake, ``nul_character``)
TEAM_NAME = validate.Regexp(rf"^(?=.*\S)[^\n\u0000]{{1,{TEAM_MAX}}}$",
                            error=f"隊名：1–{TEAM_MAX} 個字，不可空白 a team name: 1–{TEAM_MAX} characters, not blank")
WINDS = [w.name for w in Wind] + [w.zh for w in Wind]


class CreateTournamentSchema(Schema):
    id = fields.String(required=True, validate=TOURNAMENT_ID, metadata={"description": "賽事代號 tournament id"})
    name = fields.String(required=True, validate=validate.Length(min=1, max=200), metadata={"description": "名稱 name"})
    rounds = fields.Integer(strict=True, required=True, validate=validate.Range(1, 100),
                            metadata={"description": "輪數 rounds"})
    matches_per_round = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 16),
                                       metadata={"description": "每輪將數 將 per round"})
    base = fields.Integer(strict=True, load_default=100, validate=validate.Range(0, 10**9),
                          metadata={"description": "底 base"})
    per_tai = fields.Integer(strict=True, load_default=20, validate=validate.Range(0, 10**9),
                             metadata={"description": "每台 per 台"})
    ruleset = fields.String(load_default="competition",
                            metadata={"description": "規則組 ruleset profile", **profile_property()})
    round_minutes = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(1, 24 * 60),
                                   metadata={"description": "每輪分鐘數 round time (null: untimed)"})
    time_zone = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64),
                              metadata={"description": "時區（IANA，如 Asia/Taipei；null：服務的 TIME_ZONE）"
                                                       "the event's time zone (null: the service's TIME_ZONE)",
                                        **time_zone_property()})


class PlayerSchema(Schema):
    id = fields.String(required=True, validate=validate.Length(min=1, max=64),
                       metadata={"description": "選手代號 player id"})
    name = fields.String(required=True, validate=validate.Length(min=1, max=100), metadata={"description": "姓名 name"})
    substitute = StrictBoolean(load_default=False, metadata={"description": "替補 substitute"})
    team = fields.String(load_default=None, allow_none=True, validate=TEAM_NAME,
                         metadata={"description": "隊名（團體賽；省略：無隊伍）"
                                                  "team (team events; omitted: none), R-tour-30"})


class PlayersSchema(Schema):
    players = fields.List(fields.Nested(PlayerSchema), required=True, validate=validate.Length(min=1, max=2000))


class ScheduleRequestSchema(Schema):
    seed = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, MAX_INT),
                          metadata={"description": "亂數種子 seed"})
    rounds = fields.List(fields.Integer(strict=True, validate=validate.Range(1, 100)),
                         load_default=None, allow_none=True,
                         metadata={"description": "要排座的輪次（預設全部）the rounds to seat (all by default)"})


class TableSeatsSchema(Schema):
    table = fields.Integer(strict=True, required=True, validate=validate.Range(1, 10000),
                           metadata={"description": "桌號 table"})
    seats = fields.List(fields.String(allow_none=True), required=True, validate=validate.Length(equal=4),
                        metadata={"description": "東南西北四位（null：替補席）seats in wind order"})


class RoundSeatsSchema(Schema):
    tables = fields.List(fields.Nested(TableSeatsSchema), required=True, validate=validate.Length(min=1))


class ByStandingsSchema(Schema):
    """依成績排座 Seat a round by the standings (R-tour-28)."""

    rounds = fields.List(fields.Integer(strict=True, validate=validate.Range(1, 100)),
                         load_default=None, allow_none=True,
                         metadata={"description": "依哪幾輪的成績（省略：此輪之前各輪）the rounds ranked by (default: "
                                                  "every round before this one)"})
    tie_breaks = fields.String(load_default=None, validate=TIE_BREAKS,
                               metadata={"description": "同分比較，逗號分隔（同 GET …/standings）"})


class SubstituteSchema(Schema):
    table = fields.Integer(strict=True, required=True, validate=validate.Range(1, 10000))
    wind = fields.String(required=True, validate=validate.OneOf(WINDS),
                         metadata={"description": "替補席的風位 EAST… or 東…"})
    player_id = fields.String(required=True, validate=validate.Length(min=1, max=64))


class WithdrawalSchema(Schema):
    player_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    before_round = fields.Integer(strict=True, required=True, validate=validate.Range(1, 101),
                                  metadata={"description": "自此輪起不再出賽 the first round not played"})
    reason = fields.String(load_default="", validate=validate.Length(max=500))
    seed = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, MAX_INT))


class TeamChangeSchema(Schema):
    """A player's team set, changed or cleared (R-tour-32): ``team`` blank or null for none."""
    team = fields.String(required=True, allow_none=True, validate=validate.Length(max=TEAM_MAX),
                         metadata={"description": "隊名 the team (1–40 characters; blank or null: no team)"})
    reason = fields.String(load_default="", validate=validate.Length(max=500))
    from_round = fields.Integer(strict=True, allow_none=True, load_default=None, validate=validate.Range(1, MAX_INT),
                                metadata={"description": "轉隊自第幾輪起（不填：更正報名，所有輪次）"
                                                         "the first round the new team counts for "
                                                         "(null: the registration corrected, every round)"})


class SeatDrawSchema(Schema):
    thrower = fields.Integer(strict=True, required=True, validate=validate.Range(0, 3))
    dice = fields.List(fields.Integer(strict=True, validate=validate.Range(1, 6)), required=True,
                       validate=validate.Length(equal=3))
    tiles = fields.List(fields.String(validate=validate.OneOf(WINDS)), required=True, validate=validate.Length(equal=4),
                        metadata={"description": "抽得的風牌，依抽牌順序 wind tiles in drawing order"})


class MatchDrawSchema(Schema):
    """搬風與定莊：實體桌記錄（draws + dealer_dice）或由伺服器產生（seed）。"""

    thrower = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, 3),
                             metadata={"description": "擲骰者座位；第二將起為前一將最後胡牌者"})
    draws = fields.List(fields.Nested(SeatDrawSchema), load_default=None, allow_none=True,
                        metadata={"description": "實際搬風紀錄（重搬亦列）recorded draws, redraws included"})
    dealer_dice = fields.List(fields.Integer(strict=True, validate=validate.Range(1, 6)),
                              load_default=None, allow_none=True,
                              validate=validate.Length(equal=3), metadata={"description": "定莊骰子 the 定莊 dice"})
    seed = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, MAX_INT),
                          metadata={"description": "由伺服器產生時的種子 generate with this seed"})


class WinSchema(Schema):
    seat = fields.Integer(strict=True, required=True, validate=validate.Range(0, 3))
    tai = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 10000))
    deal_in = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, 3))


class HandKeySchema(Schema):
    round = fields.Integer(strict=True, required=True, validate=validate.Range(1, 100))
    table = fields.Integer(strict=True, required=True, validate=validate.Range(1, 10000))
    match = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 16))
    hand = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(1, 10000),
                          metadata={"description": "盤號（省略：下一盤）hand number (default: the next)"})
    referee_hand = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(1, MAX_INT),
                                  metadata={"description": "此盤在連結的裁判桌上的盤號（裁判無法計台時）the linked "
                                                           "referee table's hand this entry stands for"})


class TypedResultSchema(HandKeySchema):
    """(a) 直接輸入金額與胡牌 payments and wins typed in."""

    payments = fields.List(fields.Integer(strict=True, validate=validate.Range(-10**9, 10**9)), required=True,
                           validate=validate.Length(equal=4), metadata={"description": "四家輸贏（座位 0–3）"})
    wins = fields.List(fields.Nested(WinSchema), load_default=list)
    penalty = fields.String(load_default=None, allow_none=True, metadata={"description": "罰則條款 a penalty's clause"})
    house_arrangement = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=500),
                                      metadata={"description": "場地約定的理由：金額不依台數與底台計算時必填"
                                                               "（稽核紀錄） a house arrangement's reason, when the "
                                                               "payments do not follow the 台 and stakes (audited)"})


class TaiItemSchema(Schema):
    code = fields.String(required=True, metadata={"description": "名堂代碼 pattern code (referee/scoring/patterns.py)"})
    count = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 10000))
    tai = fields.Integer(strict=True, load_default=None, allow_none=True,
                         metadata={"description": "填寫的台數（檢查用）"})


class TaiItemField(fields.Field):
    """A 台 item: a pattern code (``"full_flush"``) or ``{code, count, tai}``."""

    default_error_messages = {"invalid": "台數項目須為名堂代碼或 "
                                         "{{code, count, tai}} an item is a code or {{code, count, tai}}"}

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            value = {"code": value}
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        return TaiItemSchema().load(value)


class EntryFieldsSchema(Schema):
    dealer = fields.Integer(strict=True, required=True, validate=validate.Range(0, 3),
                            metadata={"description": "莊家座位"})
    winner = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, 3),
                            metadata={"description": "胡牌者座位（null：荒局）"})
    deal_in = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, 3),
                             metadata={"description": "放槍者座位（null：自摸）"})
    streak = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, 10000),
                            metadata={"description": "連莊數 N"})
    streak_marker = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, 10000))
    items = fields.List(TaiItemField(), load_default=list,
                        metadata={"description": "台數項目：名堂代碼或 {code, count, tai} 台 items: codes or objects"})
    tai = fields.Integer(strict=True, load_default=None, allow_none=True,
                         metadata={"description": "合計牌面台數（檢查用）"})
    robbed = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, 3),
                            metadata={"description": "七搶一補得之牌自摸時的被搶花者（tai.30.2）the robbed seat"})
    also = fields.List(fields.Nested(lambda: AlsoWonSchema()), load_default=list, validate=validate.Length(max=2),
                       metadata={"description": "一炮多響的其他胡牌者 "
                                                "other winners on the same discard (play.multiple_wins)"})


class AlsoWonSchema(Schema):
    winner = fields.Integer(strict=True, required=True, validate=validate.Range(0, 3),
                            metadata={"description": "胡牌者座位"})
    items = fields.List(TaiItemField(), load_default=list)
    tai = fields.Integer(strict=True, load_default=None, allow_none=True)


class EntryResultSchema(HandKeySchema, EntryFieldsSchema):
    """(b) 計分員以台數項目輸入 a scorer's entry by 台 items."""


class CorrectionSchema(Schema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500),
                           metadata={"description": "更正理由"})
    payments = fields.List(fields.Integer(strict=True, ), load_default=None, allow_none=True,
                           validate=validate.Length(equal=4))
    wins = fields.List(fields.Nested(WinSchema), load_default=list)
    penalty = fields.String(load_default=None, allow_none=True)
    house_arrangement = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=500),
                                      metadata={"description": "場地約定的理由 a house arrangement's reason (audited)"})
    entry = fields.Nested(EntryFieldsSchema, load_default=None, allow_none=True,
                          metadata={"description": "以台數項目更正 correct by 台 items instead of payments"})


class RevertSchema(Schema):
    seq = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_INT),
                         metadata={"description": "要撤銷的紀錄序號"})
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class LinkSchema(Schema):
    table_id = fields.String(required=True, metadata={"description": "裁判桌號 the referee table (tables API)"})
    round = fields.Integer(strict=True, required=True, validate=validate.Range(1, 100))
    table = fields.Integer(strict=True, required=True, validate=validate.Range(1, 10000))
    match = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 16))


class StandingsQuerySchema(Schema):
    tie_breaks = fields.String(load_default=None, validate=TIE_BREAKS,
                               metadata={"description": "同分比較，逗號分隔 e.g. fewer_deal_ins,more_tai"})
    rounds = fields.String(load_default=None, validate=ROUND_LIST,
                           metadata={"description": "只計這些輪次，逗號分隔 e.g. 1,2,3"})
    include_substitutes = fields.Boolean(load_default=False)
    format = fields.String(load_default="json", validate=validate.OneOf(["json", "csv"]))


class TeamStandingsQuerySchema(Schema):
    """隊伍排名 Team standings' query (R-tour-30)."""

    tie_breaks = fields.String(load_default=None, validate=TIE_BREAKS,
                               metadata={"description": "同分比較，逗號分隔 e.g. fewer_deal_ins,more_tai"})
    rounds = fields.String(load_default=None, validate=ROUND_LIST,
                           metadata={"description": "只計這些輪次，逗號分隔 e.g. 1,2,3"})
    format = fields.String(load_default="json", validate=validate.OneOf(["json", "csv"]))


class AdvancementQuerySchema(Schema):
    round = fields.Integer(required=True, validate=validate.Range(1, 100))
    take = fields.Integer(load_default=1, validate=validate.OneOf([1, 2]),
                          metadata={"description": "1：四取一，2：四取二"})
    tie_breaks = fields.String(load_default=None, validate=TIE_BREAKS, metadata={"description": "同分比較，逗號分隔"})


class CutDecisionSchema(Schema):
    """晉級同分裁定 An official's decision of a tie at the cut."""

    round = fields.Integer(required=True, validate=validate.Range(1, 100))
    table = fields.Integer(required=True, validate=validate.Range(1, 10000))
    take = fields.Integer(load_default=1, validate=validate.OneOf([1, 2]),
                          metadata={"description": "1：四取一，2：四取二"})
    advancing = fields.List(fields.String(validate=validate.Length(min=1, max=64)), required=True,
                            validate=validate.Length(min=1, max=2),
                            metadata={"description": "同分者中晉級的選手 the tied players who go on"})
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500),
                           metadata={"description": "裁定理由（例如抽籤）the reason, e.g. drawn by lot"})
    tie_breaks = fields.String(load_default=None, metadata={"description": "比較順序（同 GET …/advancement）"})


class HandsQuerySchema(Schema):
    round = fields.Integer(load_default=None, validate=validate.Range(1, 100), metadata={"description": "只看這一輪"})
    table = fields.Integer(load_default=None, validate=validate.Range(1, 10000), metadata={"description": "只看這一桌"})


class LogQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_INT))


class AnySchema(OpenSchema):
    """The answer (its fields are described in docs/api.md)."""

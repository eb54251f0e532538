"""The body of ``POST /api/v1/score`` and ``flask score`` (issue #3): its schema, and
:func:`score_body`, which validates it, scores and settles the win (:mod:`api.scoring`
documents the fields). No Flask here: ``mjref score`` reads it without the server.
"""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from services.schemas import RulesetSelectionSchema, StrictBoolean, load_ruleset
from referee.hand import Hand
from referee.melds import MeldKind
from referee.scoring import (
    FirstTurn, FlowerWin, NotWinningError, Readiness, Stakes, WinContext, WinSource, score, settle,
)
from referee.tiles import Wind, check_flowers, parse_tiles, tile_name

_WINDS = {
    "e": Wind.EAST, "east": Wind.EAST, "東": Wind.EAST, "1z": Wind.EAST,
    "s": Wind.SOUTH, "south": Wind.SOUTH, "南": Wind.SOUTH, "2z": Wind.SOUTH,
    "w": Wind.WEST, "west": Wind.WEST, "西": Wind.WEST, "3z": Wind.WEST,
    "n": Wind.NORTH, "north": Wind.NORTH, "北": Wind.NORTH, "4z": Wind.NORTH,
}


class WindField(fields.Field):
    """A wind: ``E``/``S``/``W``/``N``, ``east``…, ``東南西北``, ``1z``–``4z`` or 0–3."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is int and 0 <= value < 4:
            return Wind(value)
        wind = _WINDS.get(value.strip().lower()) if isinstance(value, str) else None
        if wind is None:
            raise ValidationError("須為東南西北之一 must be a wind: E S W N, east…, 東南西北 or 0–3")
        return wind


#: which kong's replacement won (play.restrict.2, app.kong.limits)
_KONGS = {
    "melded": MeldKind.MELDED_KONG, "melded_kong": MeldKind.MELDED_KONG, "明槓": MeldKind.MELDED_KONG,
    "碰槓": MeldKind.MELDED_KONG,
    "added": MeldKind.ADDED_KONG, "added_kong": MeldKind.ADDED_KONG, "加槓": MeldKind.ADDED_KONG,
    "concealed": MeldKind.CONCEALED_KONG, "concealed_kong": MeldKind.CONCEALED_KONG, "暗槓": MeldKind.CONCEALED_KONG,
}


class KongKindField(fields.Field):
    """A kong kind: ``melded`` (明槓), ``added`` (加槓), ``concealed`` (暗槓)."""

    def _deserialize(self, value, attr, data, **kwargs):
        kind = _KONGS.get(value.strip().lower()) if isinstance(value, str) else None
        if kind is None:
            raise ValidationError("須為明槓、加槓或暗槓 must be a kong kind: melded, added or concealed")
        return kind


_SEAT = {"validate": validate.Range(0, 3, error="座位須為 0–3 a seat is 0–3")}
_STRICT_INT = {"strict": True}


class StakesSchema(Schema):
    """底 and per-台 stakes (``settle.formula``)."""

    base = fields.Integer(load_default=100, validate=validate.Range(min=0), **_STRICT_INT,
                          metadata={"description": "底 base"})
    per_tai = fields.Integer(load_default=20, validate=validate.Range(min=0), **_STRICT_INT,
                             metadata={"description": "每台 per 台"})


class ScoreSchema(RulesetSelectionSchema):
    """A win to score and settle: the hand, its context, the stakes."""

    tiles = fields.String(load_default="", metadata={"description": "暗牌 concealed tiles with the winning tile"})
    melds = fields.String(load_default="", metadata={"description": "副露 melds, e.g. pung:555p concealed:1111z"})
    flowers = fields.String(load_default="", metadata={"description": "花牌 flowers, e.g. 1f 5f"})
    winner = fields.Integer(required=True, **_STRICT_INT, **_SEAT, metadata={"description": "胡牌者座位 0–3"})
    dealer = fields.Integer(required=True, **_STRICT_INT, **_SEAT, metadata={"description": "莊家座位 0–3"})
    round_wind = WindField(load_default=Wind.EAST, metadata={"description": "圈風"})
    source = fields.Enum(WinSource, by_value=True, required=True, metadata={"description": "胡牌張來源"})
    winning_tile = fields.String(load_default=None, allow_none=True, metadata={"description": "胡牌張"})
    discarder = fields.Integer(load_default=None, allow_none=True, **_STRICT_INT, **_SEAT,
                               metadata={"description": "放銃／被搶者"})
    wall_break = fields.Integer(load_default=None, allow_none=True, **_STRICT_INT, **_SEAT,
                                metadata={"description": "開門位（東）"})
    streak = fields.Integer(load_default=0, validate=validate.Range(min=0), **_STRICT_INT,
                            metadata={"description": "連莊數 N"})
    streak_marker = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=0), **_STRICT_INT,
                                   metadata={"description": "連莊示記"})
    flower_win = fields.Enum(FlowerWin, by_value=True, load_default=FlowerWin.NONE, metadata={"description": "花胡"})
    dealt_flower_win = StrictBoolean(load_default=False, metadata={"description": "配牌花胡"})
    readiness = fields.Enum(Readiness, by_value=True, load_default=Readiness.NONE,
                            metadata={"description": "天聽／地聽／宣告聽牌"})
    first_turn = fields.Enum(FirstTurn, by_value=True, load_default=FirstTurn.NONE,
                             metadata={"description": "天胡／地胡／人胡"})
    bao = fields.String(load_default="", metadata={"description": "寶牌, one per indicator"})
    robbed_flower = fields.String(load_default=None, allow_none=True, metadata={"description": "七搶一被搶的花"})
    replaced_kong = KongKindField(load_default=None, allow_none=True,
                                  metadata={"description": "槓上補牌胡：補的是哪一種槓 melded | added | concealed"})
    liable = fields.Integer(load_default=None, allow_none=True, **_STRICT_INT, **_SEAT,
                            metadata={"description": "包牌者座位（settle.liability）"})
    stakes = fields.Nested(StakesSchema, load_default=lambda: {"base": 100, "per_tai": 20})


def _one_tile(text: str | None, field: str) -> int | None:
    if text is None or text == "":
        return None
    tiles = parse_tiles(text, field=field)
    if len(tiles) != 1:
        raise NotWinningError(f"{field} must be one tile, got {text!r}", field=field,
                              reason_zh=f"{field} 須為一張牌，收到「{text}」")
    return tiles[0]


def score_body(body: object) -> dict:
    """Validate a body (:class:`ScoreSchema`), score and settle it: the JSON answer.

    :raises marshmallow.ValidationError: a field of the wrong type or range.
    :raises referee.errors.MjrefError: an impossible hand, context or ruleset.
    """
    if not isinstance(body, dict):
        raise ValidationError({"body": ["請求內容須為 JSON 物件 The body must be a JSON object."]})
    data = ScoreSchema().load(body)
    ruleset = load_ruleset(data)
    source = data["source"]
    winning_tile = _one_tile(data["winning_tile"], "winning_tile")
    robbed = _one_tile(data["robbed_flower"], "robbed_flower")
    ctx = WinContext(
        winner=data["winner"], dealer=data["dealer"], round_wind=data["round_wind"], source=source,
        winning_tile=winning_tile, discarder=data["discarder"], wall_break=data["wall_break"], streak=data["streak"],
        streak_marker=data["streak_marker"], flower_win=data["flower_win"], dealt_flower_win=data["dealt_flower_win"],
        readiness=data["readiness"], first_turn=data["first_turn"], bao=tuple(parse_tiles(data["bao"], field="bao")),
        robbed_flower=robbed, replaced_kong=data["replaced_kong"], liable=data["liable"],
    )
    if source is WinSource.FLOWER_WIN and not data["tiles"].strip():
        hand = None  # 手牌未胡毋須翻開 (tai.29): the flowers alone
        flowers = check_flowers(parse_tiles(data["flowers"], field="flowers"))
    else:
        if not data["tiles"].strip():
            raise ValidationError({"tiles": ["胡牌須有手牌 a win needs its tiles"]})
        hand = Hand.parse(data["tiles"], data["melds"], data["flowers"])
        flowers = None
    stakes = Stakes(**data["stakes"])
    result = score(hand, ctx, ruleset, flowers=flowers)
    report = result.to_dict()
    report["ruleset"] = ruleset.profile
    report["seat_wind"] = ctx.seat_wind.zh
    report["winning_tile"] = None if winning_tile is None else tile_name(winning_tile)
    report["stakes"] = {"base": stakes.base, "per_tai": stakes.per_tai}
    report["settlement"] = settle(result, stakes).to_dict()
    return report

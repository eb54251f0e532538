"""The ruleset parameters the referee reads while a hand is played, as plain attributes.

:class:`PlayRules` is read once per hand from a :class:`referee.ruleset.Ruleset` (its
parameter names, in ``data/rulesets/parameters.json``, are cited beside each field), so
the state machine's hot path reads ``rules.passed_pung`` instead of a dict lookup.
"""
from __future__ import annotations

from .ruleset import Ruleset
from .tiles import set_size


class PlayRules:
    """Play-rule parameters of one ruleset (see ``docs/rulesets.md``)."""

    __slots__ = (
        "ruleset", "multiple_wins", "passed_win_concealed_kong_releases", "passed_pung", "chow_forbids_other_end",
        "chow_other_end_clause",
        "chow_forbid_own_recent", "melded_kong_from_previous", "melded_kong_replacement_self_draw",
        "rob_concealed_kong", "last_tiles_no_claims", "last_tile_may_decline", "declared_ready",
        "heavenly_at_first_discard", "heavenly_dealer", "earthly_dealer_discard", "earthly_requires_kept_draw",
        "ready_requires_no_prior_claims", "dead_wall", "dead_wall_per_kong", "seven_rob_one", "flower_win_optional",
        "unreplaced_ends_hand", "ligu", "first_hand_east_is_dealer", "chow_restricts_discard", "pung_restricts_discard",
        "multiple_wins_limit", "max_streak", "abortive_four_winds", "abortive_four_kongs", "liability",
        "flowers", "tiles",
    )

    def __init__(self, ruleset: Ruleset) -> None:
        v = ruleset.values
        self.ruleset = ruleset
        #: play.multiple_wins (play.intercept, app.priority)
        self.multiple_wins: bool = v["play.multiple_wins"]
        #: play.passed_win.concealed_kong_releases (play.passed-win.release, app.passed-win)
        self.passed_win_concealed_kong_releases: bool = v["play.passed_win.concealed_kong_releases"]
        #: play.passed_pung (play.pon, app.pon)
        self.passed_pung: bool = v["play.passed_pung"]
        #: play.chow.forbidden_discards == same_and_other_end (app.after-claim)
        self.chow_forbids_other_end: bool = v["play.chow.forbidden_discards"] == "same_and_other_end"
        #: play.chow.forbidden_discards != none (play.chi, play.restrict.6)
        self.chow_restricts_discard: bool = v["play.chow.forbidden_discards"] != "none"
        #: play.pung.forbidden_discards != none (play.pon, app.after-claim)
        self.pung_restricts_discard: bool = v["play.pung.forbidden_discards"] != "none"
        #: play.multiple_wins_limit: 3 (all) or 2 winners at most on one discard (play.intercept)
        self.multiple_wins_limit: int = 2 if v["play.multiple_wins_limit"] == "two" else 3
        #: seat.max_streak (連莊上限; 0 = none)
        self.max_streak: int = v["seat.max_streak"]
        #: play.abortive_four_winds (四風連打), play.abortive_four_kongs (四槓流局); app.exhausted
        self.abortive_four_winds: bool = v["play.abortive_four_winds"]
        self.abortive_four_kongs: bool = v["play.abortive_four_kongs"]
        #: settle.liability != none (包牌): the referee names the liable seat
        self.liability: bool = v["settle.liability"] != "none"
        #: the clause the profile reads the other end (絡牌) from: play.restrict.6 (「同(絡)牌」,
        #: R-set-13) or app.after-claim
        self.chow_other_end_clause: str = (ruleset.sources.get("play.chow.forbidden_discards")
                                           or ("play.restrict.6",))[0]
        #: play.chow.forbid_own_recent_discard (play.chi, play.restrict.6)
        self.chow_forbid_own_recent: bool = v["play.chow.forbid_own_recent_discard"]
        #: play.melded_kong_from_previous_player (app.kong.limits)
        self.melded_kong_from_previous: bool = v["play.melded_kong_from_previous_player"]
        #: play.melded_kong_replacement_self_draw (play.restrict.2)
        self.melded_kong_replacement_self_draw: bool = v["play.melded_kong_replacement_self_draw"]
        #: play.rob_concealed_kong (tai.12, app.rob-kong)
        self.rob_concealed_kong: bool = v["play.rob_concealed_kong"]
        #: play.last_tiles_no_claims (play.restrict.7, app.last-three)
        self.last_tiles_no_claims: int = v["play.last_tiles_no_claims"]
        #: play.last_tile_may_decline (tai.25)
        self.last_tile_may_decline: bool = v["play.last_tile_may_decline"]
        #: play.declared_ready (app.ready, opt.declare-ready)
        self.declared_ready: bool = v["play.declared_ready"]
        #: ready.heavenly_declare_at == first_discard (app.heavenly-ready) else after the flowers (tai.31)
        self.heavenly_at_first_discard: bool = v["ready.heavenly_declare_at"] == "first_discard"
        #: ready.heavenly_dealer
        self.heavenly_dealer: bool = v["ready.heavenly_dealer"]
        #: ready.earthly_dealer_discard (tai.32: 1; app: 2)
        self.earthly_dealer_discard: int = v["ready.earthly_dealer_discard"]
        #: ready.earthly_requires_kept_draw (app.heavenly-ready)
        self.earthly_requires_kept_draw: bool = v["ready.earthly_requires_kept_draw"]
        #: ready.requires_no_prior_claims (app.heavenly-ready)
        self.ready_requires_no_prior_claims: bool = v["ready.requires_no_prior_claims"]
        #: wall.dead_wall (play.exhausted, app.exhausted.eight-stacks)
        self.dead_wall: int = v["wall.dead_wall"]
        #: wall.dead_wall_per_kong (app.dead-wall, 一槓一)
        self.dead_wall_per_kong: int = v["wall.dead_wall_per_kong"]
        #: hands.seven_rob_one (tai.30, app.seven-rob-one)
        self.seven_rob_one: bool = v["hands.seven_rob_one"]
        #: flowers.flower_win_optional (tai.27)
        self.flower_win_optional: bool = v["flowers.flower_win_optional"]
        #: flowers.unreplaced == exhaustive_draw (app.flowers.no-replace) else a dead hand (pen.dead-hand)
        self.unreplaced_ends_hand: bool = v["flowers.unreplaced"] == "exhaustive_draw"
        #: hands.ligu (tai.36)
        self.ligu: bool = v["hands.ligu"]
        #: seat.first_hand_east == dealer (app.dealer)
        self.first_hand_east_is_dealer: bool = v["seat.first_hand_east"] == "dealer"
        #: tiles.flowers (deal.walls): the eight flowers are played; else a 136-tile set
        self.flowers: bool = v["tiles.flowers"]
        #: the tiles of the set: 144, or 136 without flowers (tiles.flowers)
        self.tiles: int = set_size(self.flowers)

    @classmethod
    def of(cls, ruleset: Ruleset) -> PlayRules:
        """The play rules of *ruleset*, read once per ruleset object: a table plays hand after
        hand under the same few (frozen) rulesets, so each hand need not read them again."""
        rules = _READ.get(id(ruleset))
        if rules is None or rules.ruleset is not ruleset:
            if len(_READ) >= 64:
                _READ.clear()
            rules = _READ[id(ruleset)] = cls(ruleset)
        return rules

    def __repr__(self) -> str:
        return f"PlayRules({self.ruleset.profile!r})"


#: id(ruleset) → its PlayRules (the entry holds the ruleset, so the id stays its own)
_READ: dict[int, PlayRules] = {}

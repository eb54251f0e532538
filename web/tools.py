"""The calculators (issue #14 item 8): 「聽牌了嗎？」 and 「幾台？誰付多少？」, as pages.

Server-rendered GET forms (an idempotent computation: nothing is stored, no CSRF token is
needed), answered by the API's own code, never a second analyser or scorer:

* ``/tools/`` — the calculators;
* ``/tools/ready`` — is it ready: :func:`services.analysis.analysis_body` (``POST /api/v1/analyze``):
  ready or not, each wait and its shapes, 向聽數 when not (:mod:`referee.shanten`); for 17
  tiles, won or not, its readings, the discards that leave it ready;
* ``/tools/score`` — how many 台 and who pays: :func:`services.score_body.score_body`
  (``POST /api/v1/score``): each pattern with its clause, the totals, the payments by seat in
  words.

The form's fields are the API body's (``tiles``, ``melds``, ``flowers``, ``winner`` …);
integers are read from the query string here, everything else is the API's to judge. A bad
field is shown at the field, zh-TW then English (status 400), never a 500. Tiles may be
typed (the notation :func:`referee.tiles.parse_tiles` reads) or picked by tapping pictures
(``web/static/tools.js``, a file: the pages' CSP runs no inline script). Reads follow the
``tools`` area of :mod:`api.auth` (public by default; ``MJREF_PUBLIC_READS``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, render_template, request
from marshmallow import ValidationError

from services.analysis import analysis_body
from services.caller import check_read
from services.problems import ApiProblem
from services.score_body import score_body
from services.validation import first_error, reason_zh
from referee.errors import MjrefError
from referee.ruleset import DEFAULT_PROFILE, available_profiles, profile_info
from referee.scoring import FirstTurn, FlowerWin, Readiness, WinSource
from referee.tiles import Wind
from web.errors import PageError, from_problem, render_error

READ_AREA = "tools"

bp = Blueprint("tools", __name__, url_prefix="/tools")

#: how the winning tile came: the API's ``source`` values, zh-TW and English
SOURCES = [
    (WinSource.WALL.value, "自摸", "self-drawn"),
    (WinSource.DISCARD.value, "胡別人打的牌（放槍）", "off a discard"),
    (WinSource.KONG_REPLACEMENT.value, "槓上開花（槓後補牌）", "kong replacement"),
    (WinSource.FLOWER_REPLACEMENT.value, "花上開花（補花補牌）", "flower replacement"),
    (WinSource.LAST_TILE.value, "海底撈月（最後一張）", "last tile drawn"),
    (WinSource.LAST_DISCARD.value, "河底撈魚（最後打出的牌）", "last discard"),
    (WinSource.ROBBING_KONG.value, "搶槓", "robbing a kong"),
    (WinSource.FLOWER_WIN.value, "花胡（手牌不必攤）", "flower win, hand not shown"),
]
FLOWER_WINS = [(FlowerWin.NONE.value, "無", "none"), (FlowerWin.EIGHT_FLOWERS.value, "八仙過海", "all eight flowers"),
               (FlowerWin.SEVEN_ROB_ONE.value, "七搶一（搶別人摸到的第八張）", "seven rob one"),
               (FlowerWin.SEVEN_ROB_ONE_DRAWN.value, "七搶一（摸到第七張，搶別人手上的一張）", "seven rob one, drawn")]
KONGS = [("", "（由副露判斷）", "from the melds"), ("melded", "明槓", "melded kong"), ("added", "加槓", "added kong"),
         ("concealed", "暗槓", "concealed kong")]
READINESS = [(Readiness.NONE.value, "無", "none"), (Readiness.DECLARED.value, "宣告聽牌", "declared ready"),
             (Readiness.EARTHLY.value, "地聽", "earthly ready"), (Readiness.HEAVENLY.value, "天聽", "heavenly ready")]
FIRST_TURN = [(FirstTurn.NONE.value, "無", "none"), (FirstTurn.HEAVENLY_WIN.value, "天胡", "heavenly win"),
              (FirstTurn.EARTHLY_WIN.value, "地胡", "earthly win"), (FirstTurn.HUMAN_WIN.value, "人胡", "human win")]
ROUND_WINDS = [("E", "東風圈", "East round"), ("S", "南風圈", "South round"), ("W", "西風圈", "West round"),
               ("N", "北風圈", "North round")]
#: the form's integer fields: name → (zh-TW label, English label)
INTEGERS = {"winner": ("胡牌者", "winner"), "dealer": ("莊家", "dealer"), "discarder": ("放槍者", "discarder"),
            "streak": ("連莊數", "streak"), "base": ("底", "base"), "per_tai": ("每台", "per 台"),
            "wall_break": ("開門位", "wall break"), "liable": ("包牌者", "liable"),
            "streak_marker": ("連莊示記", "streak marker")}
#: the integers that may be left empty (null in the API body)
OPTIONAL = ("discarder", "wall_break", "liable", "streak_marker")
#: the fields of the 「其他情形」 box: it opens when one of them is given
MORE = ("wall_break", "streak_marker", "flower_win", "dealt_flower_win", "robbed_flower", "replaced_kong", "liable",
        "bao")
#: the score form's text and choice fields, passed to the API body as they are
SCORE_TEXT = ("tiles", "melds", "flowers", "winning_tile", "round_wind", "source", "readiness", "first_turn", "ruleset",
              "flower_win", "robbed_flower", "replaced_kong", "bao")


#: every form field's name for the list of errors at the top of a page: name → (zh-TW, English)
LABELS = {"tiles": ("暗牌", "tiles"), "melds": ("副露", "melds"), "flowers": ("花牌", "flowers"),
          "winning_tile": ("胡牌張", "winning tile"), "round_wind": ("圈風", "round wind"),
          "source": ("怎麼胡", "how won"),
          "readiness": ("聽牌宣告", "declared ready"), "first_turn": ("天胡／地胡／人胡", "first-turn win"),
          "ruleset": ("規則", "ruleset"), "flower_win": ("花胡", "flower win"),
          "robbed_flower": ("七搶一被搶的花", "robbed flower"),
          "replaced_kong": ("槓上開花：補哪一種槓", "kong replaced"), "bao": ("寶牌", "bao"),
          **INTEGERS}


@dataclass
class FormErrors:
    """Errors by form field: ``field → (zh-TW, English)``; ``other`` those of no field on the form."""

    fields: dict[str, tuple[str, str]] = field(default_factory=dict)
    other: list[tuple[str, str, str]] = field(default_factory=list)

    def add(self, name: str | None, zh: str, en: str, known: tuple[str, ...]) -> None:
        form_field = _form_field(name)
        if form_field in known:
            self.fields.setdefault(form_field, (zh, en))
        else:
            self.other.append((name or "", zh, en))

    def __bool__(self) -> bool:
        return bool(self.fields or self.other)


def _form_field(name: str | None) -> str | None:
    """The form field an error names: ``melds[1]`` → ``melds``, ``stakes.base`` → ``base``."""
    if name is None:
        return None
    name = name.split("[", 1)[0]
    return name.removeprefix("stakes.")


def _error_of(exc: Exception) -> tuple[str | None, str, str]:
    """(field, zh-TW, English) of the API's error for a body."""
    if isinstance(exc, ValidationError):
        name, reason = first_error(exc.normalized_messages())
        zh = reason_zh(reason)  # a translated message keeps the English after it
        return name, zh, "" if reason in zh else reason
    assert isinstance(exc, MjrefError)
    return exc.field, exc.reason_zh, exc.message


@bp.errorhandler(PageError)
def _page_error(error: PageError):
    return render_error(error)


@bp.before_request
def _reads_allowed() -> None:
    """The ``tools`` read area first (api.auth): a 401 page when it is not public."""
    try:
        check_read(READ_AREA)
    except ApiProblem as problem:
        if problem.code == 401:
            raise PageError(401, "計算工具目前不公開，需要權杖才能使用；瀏覽器頁面不支援權杖。"
                                 "請由主辦單位將 tools 加入 MJREF_PUBLIC_READS。",
                            "The calculators are not public: using them needs a token, which these pages cannot "
                            "send. Have the organisers add 'tools' to MJREF_PUBLIC_READS.",
                            field="Authorization") from None
        raise from_problem(problem) from None


def _profiles() -> list[tuple[str, str, str]]:
    out = []
    for name in available_profiles():
        info = profile_info(name)
        out.append((name, info.title_zh, info.title_en))
    return out


@bp.get("/")
def index():
    """The calculators."""
    return render_template("tools/index.html")


@bp.get("/ready")
def ready():
    """「聽牌了嗎？」: the analysis of the typed or picked hand (``POST /api/v1/analyze``'s)."""
    form = {name: request.args.get(name, "") for name in ("tiles", "melds", "flowers")}
    form["ruleset"] = request.args.get("ruleset") or DEFAULT_PROFILE
    form["ligu"] = request.args.get("ligu") == "1"  # 嚦咕嚦咕 played (the hands.ligu parameter, tai.36)
    errors, report = FormErrors(), None
    if "tiles" in request.args:
        if not form["tiles"].strip():
            errors.add("tiles", "請輸入或點選手牌（16 或 17 張）", "enter or pick the tiles (16 or 17)", ("tiles",))
        else:
            body = {name: form[name] for name in ("tiles", "melds", "flowers", "ruleset")}
            if form["ligu"]:
                body["params"] = {"hands.ligu": True}
            try:
                report = analysis_body(body)
            except (ValidationError, MjrefError) as exc:
                errors.add(*_error_of(exc), known=("tiles", "melds", "flowers", "ruleset"))
    body = render_template("tools/ready.html", form=form, errors=errors, report=report, profiles=_profiles(),
                           labels=LABELS)
    return body, 400 if errors else 200


def score_form() -> tuple[dict, dict, FormErrors]:
    """The score form's values as typed, the API body they make, and the integers that are not."""
    args = request.args
    form = {name: args.get(name, "") for name in (*SCORE_TEXT, *INTEGERS)}
    form["ruleset"] = form["ruleset"] or DEFAULT_PROFILE
    form["source"] = form["source"] or WinSource.WALL.value
    form["round_wind"] = form["round_wind"] or "E"
    form["readiness"] = form["readiness"] or Readiness.NONE.value
    form["first_turn"] = form["first_turn"] or FirstTurn.NONE.value
    form["flower_win"] = form["flower_win"] or FlowerWin.NONE.value
    form["dealt_flower_win"] = args.get("dealt_flower_win") == "1"
    for name, default in (("winner", "0"), ("dealer", "0"), ("streak", "0"), ("base", "100"), ("per_tai", "20")):
        form[name] = form[name].strip() or default
    errors = FormErrors()
    numbers: dict[str, int | None] = {}
    for name, (zh, en) in INTEGERS.items():
        raw = form[name].strip()
        if raw == "" and name in OPTIONAL:
            numbers[name] = None
            continue
        try:
            numbers[name] = int(raw)
        except ValueError:
            errors.add(name, f"{zh}須為整數，收到「{raw}」", f"{en} must be an integer, got {raw!r}", tuple(INTEGERS))
    body = {name: form[name] for name in SCORE_TEXT}
    for name in ("winning_tile", "robbed_flower", "replaced_kong"):
        body[name] = body[name] or None
    body["dealt_flower_win"] = form["dealt_flower_win"]
    body.update({k: v for k, v in numbers.items() if k not in ("base", "per_tai")})
    body["stakes"] = {k: numbers[k] for k in ("base", "per_tai") if k in numbers}
    return form, body, errors


def _seat_names(east: int) -> list[str]:
    """Each seat's name in words: ``1 號座（南家）``, winds counted from *east*: the seat where
    the wall was opened, the dealer's when not given (``deal.wall``, ``app.dealer``)."""
    return [f"{seat} 號座（{Wind((seat - east) % 4).zh}家）" for seat in range(4)]


def payments_in_words(report: dict, east: int) -> list[dict]:
    """The settlement's transfers as sentences (zh-TW, English)."""
    names = _seat_names(east)
    english = [f"seat {seat} ({('East', 'South', 'West', 'North')[(seat - east) % 4]})" for seat in range(4)]
    return [{"zh": f"{names[t['payer']]}付給 {names[t['payee']]} {t['amount']}",
             "en": f"{english[t['payer']]} pays {english[t['payee']]} {t['amount']}",
             **t} for t in report["settlement"]["transfers"]]


@bp.get("/score")
def score():
    """「幾台？誰付多少？」: the scored and settled win (``POST /api/v1/score``'s)."""
    form, body, errors = score_form()
    report, words, seats = None, [], _seat_names(0)
    known = (*SCORE_TEXT, *INTEGERS)
    if "tiles" in request.args and not errors:
        if not form["tiles"].strip() and form["source"] != WinSource.FLOWER_WIN.value:
            errors.add("tiles", "請輸入或點選胡牌時的手牌（含胡牌張，17 張）",
                       "enter or pick the winning hand (with the winning tile: 17)", known)
        else:
            try:
                report = score_body(body)
            except (ValidationError, MjrefError) as exc:
                errors.add(*_error_of(exc), known=known)
    if report is not None:
        east = body["dealer"] if body.get("wall_break") is None else body["wall_break"]
        words, seats = payments_in_words(report, east), _seat_names(east)
    page = render_template("tools/score.html", form=form, errors=errors, report=report, words=words, seats=seats,
                           labels=LABELS, profiles=_profiles(), sources=SOURCES, readiness=READINESS,
                           first_turn=FIRST_TURN, round_winds=ROUND_WINDS, flower_wins=FLOWER_WINS, kongs=KONGS,
                           more_open=any(form[name] for name in MORE if name != "flower_win")
                           or form["flower_win"] != FlowerWin.NONE.value or any(name in errors.fields for name in MORE))
    return page, 400 if errors else 200


def init_app(app) -> None:
    app.register_blueprint(bp)

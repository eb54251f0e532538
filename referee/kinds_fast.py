"""The enum members the referee's hot paths read, as plain module globals (issue #19 item 3).

Why: in CPython 3.11 reading a member off its class (``Phase.PLAY``) costs about 300 ns,
a module global about 20 ns. ``EnumType`` defines ``__getattr__`` (a Python function), so
every attribute read on an enum class goes through CPython's slow ``slot_tp_getattr_hook``,
even for a member that sits in the class's ``__dict__``. The referee reads such members
dozens of times an event (``st.phase is PLAY_PHASE``, ``kind is CHOW_MELD``): here they are
read once, at import. ``docs/architecture.md`` ("Fast paths and their references") says the
same; ``tests/test_kinds.py`` holds this module to :mod:`referee.kinds`.

One name per member, one spelling: the member's name, then its enum's name in capitals
without a trailing ``Kind`` or ``Type`` (``Phase.PLAY`` → ``PLAY_PHASE``,
``MeldKind.CHOW`` → ``CHOW_MELD``, ``EventType.CHOW`` → ``CHOW_EVENT``,
``WinSource.DISCARD`` → ``DISCARD_WIN_SOURCE``). A hot module imports the names it reads
(``from referee.kinds_fast import PLAY_PHASE``); code off the hot paths writes
``Phase.PLAY``. Only the members a hot path reads are here: add one when a hot path needs it.
"""
from __future__ import annotations

from .kinds import (
    Call, EventType, FirstTurn, FlowerWin, GroupKind, Intake, MeldKind, Mode, OutcomeKind, Phase, ReadyKind, Readiness,
    Source, Status, WinSource, Wind, WindowKind,
)


# Wind
NORTH_WIND = Wind.NORTH

# MeldKind
CHOW_MELD = MeldKind.CHOW
PUNG_MELD = MeldKind.PUNG
MELDED_KONG_MELD = MeldKind.MELDED_KONG
ADDED_KONG_MELD = MeldKind.ADDED_KONG
CONCEALED_KONG_MELD = MeldKind.CONCEALED_KONG

# GroupKind
CHOW_GROUP = GroupKind.CHOW
PUNG_GROUP = GroupKind.PUNG
PAIR_GROUP = GroupKind.PAIR

# EventType
HAND_START_EVENT = EventType.HAND_START
DRAW_EVENT = EventType.DRAW
DISCARD_EVENT = EventType.DISCARD
CHOW_EVENT = EventType.CHOW
PUNG_EVENT = EventType.PUNG
KONG_EVENT = EventType.KONG
WIN_EVENT = EventType.WIN
SKIP_LAST_TILE_EVENT = EventType.SKIP_LAST_TILE
REPORT_EVENT = EventType.REPORT
HAND_END_EVENT = EventType.HAND_END
CALL_EVENT = EventType.CALL
PLACE_EVENT = EventType.PLACE
TOUCH_WALL_EVENT = EventType.TOUCH_WALL

# Call (penalties.priority reads them per event of a contested window)
PUNG_CALL = Call.PUNG
KONG_CALL = Call.KONG
WIN_CALL = Call.WIN

# Mode
DIGITAL_MODE = Mode.DIGITAL

# ReadyKind
HEAVENLY_READY = ReadyKind.HEAVENLY
EARTHLY_READY = ReadyKind.EARTHLY
DECLARED_READY = ReadyKind.DECLARED

# Phase
SETUP_PHASE = Phase.SETUP
DEAL_PHASE = Phase.DEAL
FLOWERS_PHASE = Phase.FLOWERS
PLAY_PHASE = Phase.PLAY
ENDED_PHASE = Phase.ENDED

# Intake
NONE_INTAKE = Intake.NONE
DEALT_INTAKE = Intake.DEALT
DRAW_INTAKE = Intake.DRAW
CHOW_INTAKE = Intake.CHOW
PUNG_INTAKE = Intake.PUNG
MELDED_KONG_INTAKE = Intake.MELDED_KONG

# Source
DEALT_SOURCE = Source.DEALT
WALL_SOURCE = Source.WALL
LAST_TILE_SOURCE = Source.LAST_TILE
KONG_SOURCE = Source.KONG
MELDED_KONG_SOURCE = Source.MELDED_KONG
FLOWER_SOURCE = Source.FLOWER

# WindowKind
DISCARD_WINDOW = WindowKind.DISCARD
ADDED_KONG_WINDOW = WindowKind.ADDED_KONG
FLOWER_WINDOW = WindowKind.FLOWER

# Status
REJECTED_STATUS = Status.REJECTED
IRREGULAR_STATUS = Status.IRREGULAR

# OutcomeKind
WIN_OUTCOME = OutcomeKind.WIN
EXHAUSTIVE_DRAW_OUTCOME = OutcomeKind.EXHAUSTIVE_DRAW
VOID_OUTCOME = OutcomeKind.VOID
ENDED_BY_IRREGULARITY_OUTCOME = OutcomeKind.ENDED_BY_IRREGULARITY

# WinSource
WALL_WIN_SOURCE = WinSource.WALL
KONG_REPLACEMENT_WIN_SOURCE = WinSource.KONG_REPLACEMENT
FLOWER_REPLACEMENT_WIN_SOURCE = WinSource.FLOWER_REPLACEMENT
LAST_TILE_WIN_SOURCE = WinSource.LAST_TILE
DISCARD_WIN_SOURCE = WinSource.DISCARD
LAST_DISCARD_WIN_SOURCE = WinSource.LAST_DISCARD
ROBBING_KONG_WIN_SOURCE = WinSource.ROBBING_KONG
FLOWER_WIN_WIN_SOURCE = WinSource.FLOWER_WIN

# FlowerWin
NONE_FLOWER_WIN = FlowerWin.NONE
EIGHT_FLOWERS_FLOWER_WIN = FlowerWin.EIGHT_FLOWERS
SEVEN_ROB_ONE_FLOWER_WIN = FlowerWin.SEVEN_ROB_ONE
SEVEN_ROB_ONE_DRAWN_FLOWER_WIN = FlowerWin.SEVEN_ROB_ONE_DRAWN

# Readiness
NONE_READINESS = Readiness.NONE
DECLARED_READINESS = Readiness.DECLARED
EARTHLY_READINESS = Readiness.EARTHLY
HEAVENLY_READINESS = Readiness.HEAVENLY

# FirstTurn
NONE_FIRST_TURN = FirstTurn.NONE
HEAVENLY_WIN_FIRST_TURN = FirstTurn.HEAVENLY_WIN
EARTHLY_WIN_FIRST_TURN = FirstTurn.EARTHLY_WIN
HUMAN_WIN_FIRST_TURN = FirstTurn.HUMAN_WIN

"""The wall: layout, opening, draw order, tail, dead wall (referee/wall.py)."""
from __future__ import annotations

import pytest

from referee.tiles import full_set
from referee.wall import (
    TILES, Wall, WallError, break_point, deal_takes, describe_position, draw_order, tail_index,
)


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("skip", [3, 11, 18])
def test_draw_order_visits_every_position_once(seat, skip):
    order = draw_order(seat, skip)
    assert sorted(order) == list(range(TILES))


def test_break_example_eleven_points():
    """deal.break: 11 points from East point at West (對家); the first take is stacks 12 and 13."""
    seat, skip = break_point(0, 11)
    assert (seat, skip) == (2, 11)
    first_four = [describe_position(p) for p in draw_order(seat, skip)[:4]]
    assert first_four == [(2, 11, 0), (2, 11, 1), (2, 12, 0), (2, 12, 1)]  # 0-based stacks 11, 12 = 12th, 13th


def test_drawing_goes_clockwise_into_the_previous_seats_wall():
    order = draw_order(1, 17)
    assert describe_position(order[0]) == (1, 17, 0)
    assert describe_position(order[2]) == (0, 0, 0)  # on into 上家's wall from its right end


def test_tail_takes_the_last_stack_top_first():
    order = draw_order(0, 5)
    assert [describe_position(order[tail_index(k)]) for k in range(3)] == [(0, 4, 0), (0, 4, 1), (0, 3, 0)]


def test_deal_takes_four_rounds_then_the_door_tile():
    takes = deal_takes(2)
    assert takes[:4] == [(2, 4), (3, 4), (0, 4), (1, 4)]
    assert len(takes) == 17 and takes[-1] == (2, 1)
    assert sum(n for s, n in takes if s == 2) == 17 and sum(n for s, n in takes if s == 0) == 16


def test_dead_wall_and_one_per_kong():
    wall = Wall(full_set(), dead_wall=16, per_kong=1)
    assert wall.live == 128
    wall.take_front(64)
    wall.take_tail()
    wall.kongs += 1
    assert (wall.remaining, wall.reserve, wall.live) == (79, 17, 62)


def test_live_never_negative():
    wall = Wall(None, dead_wall=16)
    wall.front = 120
    wall.tail = 20
    assert wall.live == 0 and wall.remaining == 4


def test_from_layout_reads_the_tiles_in_draw_order():
    layout = list(range(TILES))
    wall = Wall.from_layout(layout, 3, 7)
    assert wall.tiles == tuple(draw_order(3, 7))
    assert wall.take_front(2) == wall.tiles[:2]
    assert wall.peek_tail() == wall.tiles[tail_index(0)]


def test_bad_walls_are_refused():
    with pytest.raises(WallError):
        Wall([1, 2, 3])
    with pytest.raises(WallError):
        draw_order(4, 0)


# --- play without flowers: 136 tiles (issue #18 item 3, tiles.flowers) ------------------------


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("skip", [3, 11, 17, 18])
def test_a_136_tile_wall_visits_every_position_once(seat, skip):
    """deal.walls, tiles.flowers: without flowers four walls of 17 stacks; a count of 18 runs
    on into the next wall."""
    order = draw_order(seat, skip, 136)
    assert sorted(order) == list(range(136))
    first = describe_position(order[0], 136)
    if skip < 17:
        assert first == (seat, skip, 0)
    else:
        assert first == ((seat - 1) % 4, skip - 17, 0)


def test_a_136_tile_wall_keeps_the_dead_wall_and_its_tail():
    """play.exhausted: 16 tiles stay undrawn whatever the set; the tail is the ring's other end."""
    tiles = full_set(flowers=False)
    assert len(tiles) == 136 and max(tiles) < 34
    wall = Wall(tiles, size=136)
    assert (wall.remaining, wall.live, wall.reserve) == (136, 120, 16)
    assert wall.peek_tail() == tiles[tail_index(0, 136)] == tiles[134]
    assert wall.take_tail() == tiles[134] and wall.take_tail() == tiles[135] and wall.peek_tail() == tiles[132]
    assert wall.live == 118 and wall.copy().size == 136
    with pytest.raises(WallError):
        Wall(full_set(), size=136)
    laid = Wall.from_layout(tiles, 2, 11, size=136)
    assert laid.tiles[0] == tiles[draw_order(2, 11, 136)[0]]

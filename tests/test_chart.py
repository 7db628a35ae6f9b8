"""Issue 19: the win-chance graph's geometry (``tables/chart.py``), the one code that
places its points for the page (the analysis' ``chart``) and ``gameweave analyze --svg``."""

import pytest

from gameweave.tables.chart import PLOT, RADIUS, MISTAKE_RADIUS, chart_geometry


def _d(step, seat, chance, mistake=False):
    return {"step": step, "seat": seat, "played_win_chance": chance, "mistake": mistake}


def test_points_go_across_by_step_and_up_by_chance_each_seat_its_line():
    g = chart_geometry([_d(1, 1, 0.5), _d(2, 2, 1.0, True), _d(4, 1, 0.0)], 4)
    left, right, top, bottom = PLOT["left"], PLOT["right"], PLOT["top"], PLOT["bottom"]
    assert g["step_x"][0] == left and g["step_x"][-1] == right and len(g["step_x"]) == 5
    assert [(p["x"], p["y"]) for p in g["points"]] == [
        (g["step_x"][1], (top + bottom) / 2), (g["step_x"][2], top), (right, bottom)]
    assert [p["r"] for p in g["points"]] == [RADIUS, MISTAKE_RADIUS, RADIUS]
    assert g["lines"]["1"] == f"{g['step_x'][1]},{(top + bottom) / 2} {right},{bottom}"
    assert g["lines"]["2"] == f"{g['step_x'][2]},{top}"
    assert [t["value"] for t in g["y_ticks"]] == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_at_most_ten_step_ticks_and_an_empty_deal():
    assert len(chart_geometry([], 57)["x_ticks"]) <= 10
    assert [t["step"] for t in chart_geometry([], 57)["x_ticks"]][:2] == [10, 20]
    empty = chart_geometry([], 0)
    assert empty["points"] == [] and empty["x_ticks"] == [] and empty["step_x"] == [PLOT["left"]]


def test_a_decision_outside_the_record_is_refused():
    with pytest.raises(ValueError):
        chart_geometry([_d(5, 1, 0.5)], 4)

"""The arena: mirrored deals, statistics, determinism across worker counts, CLI output."""

from __future__ import annotations

import json
import math

from typer.testing import CliRunner

import pytest

from gameweave.arena import deal_deck, deal_opener, elo_diff, play_game, run_arena, summarize, wilson
from gameweave.cli import app


def test_each_deal_is_played_twice_with_seats_swapped():
    games = run_arena("greedy", "random", 6, seed=3)
    assert len(games) == 12
    assert [(g.deal, g.swap) for g in games] == [(d, s) for d in range(6) for s in (False, True)]
    assert deal_deck(3, 0) == deal_deck(3, 0) != deal_deck(3, 1)


def test_mirrored_identical_bots_score_exactly_even():
    """Deterministic greedy vs itself on the same decks: the swap cancels the cards' luck."""
    s = summarize("greedy", "greedy", run_arena("greedy", "greedy", 10, seed=1))
    a, b = s["bots"]
    assert s["wins"][a] == s["wins"][b]
    assert s["elo"]["diff"] == 0 and s["elo_decided"]["diff"] == 0


def test_r17_elo_of_decided_games_leaves_tablas_out():
    """Tablas (R17) pull the score's Elo towards 0; the decided games' Elo ignores them:
    3 wins, 1 loss and 4 tablas give a score of 0.625 (+89) but a decided share of 0.75 (+191)."""
    from gameweave.arena import GameResult

    games = [GameResult(deal=i, swap=False, winner_bot=w, times=([], []), actions=0)
             for i, w in enumerate([0, 0, 0, 1, -1, -1, -1, -1])]
    s = summarize("greedy", "random", games)
    assert math.isclose(s["elo"]["diff"], 88.7, abs_tol=0.1)
    d = s["elo_decided"]
    assert math.isclose(d["diff"], 190.8, abs_tol=0.1) and d["share"] == 0.75
    lo, hi = wilson(3, 4)
    assert d["ci95"] == [round(elo_diff(lo), 1), round(elo_diff(hi), 1)]


def test_results_do_not_depend_on_jobs():
    one = run_arena("random", "greedy", 6, seed=9, jobs=1)
    two = run_arena("random", "greedy", 6, seed=9, jobs=2)
    assert [(g.deal, g.swap, g.winner_bot, g.actions) for g in one] == [
        (g.deal, g.swap, g.winner_bot, g.actions) for g in two
    ]


def test_summary_numbers_add_up():
    games = run_arena("greedy", "random", 20, seed=4)
    s = summarize("greedy", "random", games, 20)
    g, r = s["bots"]
    assert s["games"] == 40 and s["deals"] == 20
    assert s["wins"][g] + s["tablas"][g] + s["losses"][g] == 40
    assert s["wins"][g] == s["losses"][r]
    decided = s["wins"][g] + s["wins"][r]
    assert math.isclose(s["win_share"][g], s["wins"][g] / decided, abs_tol=1e-4)
    lo, hi = s["ci95"][g]["win_share"]
    assert lo <= s["win_share"][g] <= hi
    assert s["decision_ms"][g]["n"] > 0 and s["decision_ms"][g]["p95"] >= s["decision_ms"][g]["median"]


def test_wilson_and_elo():
    lo, hi = wilson(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-3) and math.isclose(hi, 0.5962, abs_tol=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert elo_diff(0.5) == 0
    assert math.isclose(elo_diff(0.75), 190.85, abs_tol=0.1)
    assert elo_diff(1.0) == 800 and elo_diff(0.0) == -800


def test_r21_play_game_bots_only_see_views():
    w, times, n = play_game(("search", "greedy"), deal_deck(0, 0), False, (1, 2), ({"iterations": 20}, {}))
    assert w in (-1, 0, 1) and n > 0 and len(times) == 2


def test_cli_arena_json_and_table():
    runner = CliRunner()
    res = runner.invoke(app, ["arena", "greedy", "random", "--deals", "5", "--seed", "2", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout.strip().splitlines()[-1])
    for key in ("deals", "wins", "tablas", "losses", "win_share", "ci95", "elo", "decision_ms"):
        assert key in obj
    assert obj["deals"] == 5 and obj["games"] == 10
    res = runner.invoke(app, ["arena", "search", "greedy", "--deals", "2", "--iterations", "10"])
    assert res.exit_code == 0, res.output
    assert "Elo difference" in res.stdout and "search" in res.stdout


@pytest.mark.parametrize("rules", ["anglo-american", "classic"])
def test_arena_plays_every_profile_and_does_not_depend_on_jobs(rules):
    one = run_arena("greedy", "random", 4, seed=5, rules=rules)
    two = run_arena("greedy", "random", 4, seed=5, rules=rules, jobs=2)
    assert [(g.deal, g.swap, g.winner_bot, g.actions) for g in one] == [
        (g.deal, g.swap, g.winner_bot, g.actions) for g in two
    ]
    s = summarize("greedy", "random", one, 4, rules=rules)
    assert s["rules"] == rules and s["games"] == 8


def test_arena_first_opener_per_deal_pair():
    """Seat 1 opens every gameweave game (R9); where the profile draws the first opener
    (§V) it is drawn from the arena seed, once per deal, for both seatings."""
    assert {deal_opener(7, d, "gameweave") for d in range(40)} == {0}
    drawn = [deal_opener(7, d, "classic") for d in range(40)]
    assert set(drawn) == {0, 1}
    assert drawn == [deal_opener(7, d, "pagat") for d in range(40)]  # deterministic from the seed
    w, times, n = play_game(("greedy", "random"), deal_deck(7, 0), False, (1, 2), rules="classic",
                            opener=drawn[0])
    assert w in (-1, 0, 1) and n > 0


def test_cli_arena_rules():
    runner = CliRunner()
    res = runner.invoke(app, ["arena", "greedy", "random", "--deals", "3", "--seed", "2", "--rules", "Pagat", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout.strip().splitlines()[-1])
    assert obj["rules"] == "anglo-american" and obj["games"] == 6
    res = runner.invoke(app, ["arena", "search", "greedy", "--deals", "1", "--iterations", "5", "--rules", "classic"])
    assert res.exit_code == 0, res.output
    assert "classic rules" in res.stdout and "Elo difference" in res.stdout
    res = runner.invoke(app, ["arena", "greedy", "random", "--deals", "2", "--rules", "mexican"])
    assert res.exit_code == 2
    assert "unknown rule profile 'mexican'" in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_cli_arena_unknown_bot_is_a_clear_error():
    res = CliRunner().invoke(app, ["arena", "greedy", "deep-blue", "--deals", "2"])
    assert res.exit_code == 2
    assert "unknown bot 'deep-blue'" in res.output
    assert "Traceback" not in res.output


def test_cli_arena_bot_options_and_levels():
    """``--opt1``/``--opt2`` pass bot options (issue 11); levels are bot names."""
    runner = CliRunner()
    res = runner.invoke(app, ["arena", "search", "search-v1", "--deals", "1", "--iterations", "4",
                              "--opt1", "stock_scaled=true", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["options"]["search"] == {"iterations": 4, "stock_scaled": True}
    assert data["options"]["search-v1"] == {"iterations": 4}
    res = runner.invoke(app, ["arena", "casual", "beginner", "--deals", "2", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["bots"] == ["casual", "beginner"]
    res = runner.invoke(app, ["arena", "search", "greedy", "--deals", "1", "--opt1", "nonsense=1"])
    assert res.exit_code == 2 and "nonsense" in res.stderr
    res = runner.invoke(app, ["arena", "search", "greedy", "--deals", "1", "--opt1", "novalue"])
    assert res.exit_code == 2 and "key=value" in res.stderr


def test_elo_words_have_no_minus_zero_and_name_the_clamp():
    from gameweave.arena import _elo

    assert _elo(-0.3) == "0" and _elo(12.6) == "+13" and _elo(-40.2) == "-40"
    assert _elo(800.0) == "≥+800" and _elo(-800.0) == "≤-800"


def test_an_option_a_bot_does_not_have_is_one_clear_line_naming_its_options():
    from typer.testing import CliRunner

    from gameweave.cli import app

    res = CliRunner().invoke(app, ["arena", "greedy", "random", "--opt1", "foo=bar", "--deals", "2"])
    assert res.exit_code == 2
    assert "greedy has no option 'foo'" in res.output and "danger_weight" in res.output
    assert "__init__" not in res.output and "keyword argument" not in res.output

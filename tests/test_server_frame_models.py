"""The wire models (server/frame_schemas.py) hold every frame that goes out today.

Real frames from every profile (R20 formats included: classic plays for stakes) are held
to the models with ``extra="forbid"`` and strict types: both seats' frames and a
spectator's during a deal, at its end (won or tablas), after a resignation (R20) and in
an abandoned match; the lobby summary, the record download and the replay (R21: both
hands only once the deal is over).  A field added to a frame without its model fails
here.  The replay is built from the deal's action ints, never from §VII text.
"""

from __future__ import annotations

import random
import sys

import pytest
from pydantic import ValidationError

from gameweave.engine import shuffled_deck
from gameweave.server import frames
from gameweave.server.replay import replay_steps
from gameweave.server.schemas import RecordDownload, ReplayOut, StateFrame, Summary
from gameweave.tables import Table, check_new_match, hash_token

PROFILES = ["gameweave", "anglo-american", "classic"]
CLOCK = {"per_decision": 60.0, "bank": {"1": 30.0, "2": 12.5}, "to_act": 1, "deadline_in_ms": 4500}


def _table(rules: str, seed: int, opponent: str = "friend") -> Table:
    opts = check_new_match(rules)
    table, _token = Table.create(
        opponent=opponent, bot="random" if opponent == "bot" else None, format=opts["match"],
        target=opts["target"], deck=shuffled_deck(seed), salt="ab" * 16, rules=rules,
        stake=opts["stake"] if opts["match"] == "stakes" else None,
        tablas_stake=opts["tablas_stake"] if opts["match"] == "stakes" else None,
        name="Ana", clock=60)
    if opponent == "friend":
        table.token_hashes[1] = hash_token("seat-two")
        table.names[1] = "Bea 🙂"
    return table


def _check_frames(table: Table, **info) -> list[dict]:
    """Every frame of ``table`` now, each validated against its model (strict)."""
    out = []
    for seat in (0, 1):
        frame = frames.state_frame(table, seat, seat == 0, **info)
        StateFrame.model_validate(frame, strict=True)
        Summary.model_validate(frames.summary(table, seat), strict=True)
        out.append(frame)
    spectator = frames.spectator_frame(table, **info)
    StateFrame.model_validate(spectator, strict=True)
    assert spectator["seat"] is None and spectator["choices"] == [] and "hands" in spectator["view"]
    return out + [spectator]


def _play(table: Table, rng: random.Random, steps: int = 10_000, **info) -> None:
    """Play random legal actions (at most ``steps``), checking the frames at every step."""
    for _ in range(steps):
        if table.deal.over:
            return
        _check_frames(table, **info)
        st = table.state
        table.apply_action(st.to_act, rng.choice(st.legal_actions()))


def _check_finished(table: Table, n: int) -> dict:
    RecordDownload.model_validate(frames.record_download(table, n), strict=True)
    replay = replay_steps(table, n)
    ReplayOut.model_validate(replay, strict=True)
    assert len(replay["snapshots"]) == len(replay["record"]["actions"]) + 1 == len(replay["history"]) + 1
    return replay


@pytest.mark.parametrize("rules", PROFILES)
def test_r20_r21_every_frame_of_a_match_fits_its_model(rules):
    rng = random.Random(rules)
    table = _table(rules, seed=len(rules))
    online = [True, False]
    _play(table, rng, online=online, clock=CLOCK, spectators=2)
    assert table.deal.over  # won or tablas: both hands shown, the deck revealed
    seat_frame, _, spectator = _check_frames(table, online=online, clock=None, spectators=0)
    assert seat_frame["view"]["opponent_hand"] is not None and spectator["view"]["hands"] is not None
    assert seat_frame["deal"]["reveal"] is not None
    _check_finished(table, 1)
    # deal 2: a few moves, then seat 2 resigns it (R20: it counts as won by seat 1)
    table.ready = [True, True]
    table.add_deal(shuffled_deck(99), "cd" * 16)
    _play(table, rng, steps=5)
    table.timed_out = (table.state.to_act, table.version)
    _check_frames(table, online=online, clock=CLOCK, spectators=1)
    table.resign(1, "deal")
    seat_frame, _, spectator = _check_frames(table)
    assert seat_frame["deal"]["resigned"] == 2 and spectator["view"]["status"] == "won"
    replay = _check_finished(table, 2)
    assert replay["result"]["resigned"] == 2 and replay["deals"] == 2
    # the whole match resigned
    table.ready = [True, True]
    table.add_deal(shuffled_deck(7), "ef" * 16)
    table.resign(0, "match")
    seat_frame, _, _ = _check_frames(table)
    assert seat_frame["match"]["over"] and seat_frame["match"]["resigned"] == 1


@pytest.mark.parametrize("rules", PROFILES)
def test_frames_of_a_bot_match_and_an_abandoned_one_fit_their_models(rules):
    rng = random.Random(7)
    table = _table(rules, seed=3, opponent="bot")
    _play(table, rng, steps=6)
    _check_frames(table)
    waiting = _table(rules, seed=4)  # a friend match nobody joined yet
    waiting.token_hashes[1] = None
    frame = _check_frames(waiting)[0]
    assert frame["match"]["invite_url"] and frames.summary(waiting, 0)["status"] == "waiting_for_opponent"
    table.abandoned = True  # closed mid-deal: nothing to decide, nothing revealed
    seat_frame, _, spectator = _check_frames(table)
    assert seat_frame["view"]["legal"] == [] and spectator["view"]["hands"] is None


def test_a_field_without_its_model_fails():
    table = _table("gameweave", seed=1)
    for where in ("view", "match", "deal", None):
        frame = frames.state_frame(table, 0)
        (frame if where is None else frame[where])["surprise"] = 1
        with pytest.raises(ValidationError):
            StateFrame.model_validate(frame)
    frame = frames.state_frame(table, 0)
    frame["view"]["history"] = [{"seat": 1, "action": "turn", "kind": "turn", "card": "Kd", "died": None,
                                 "forced": False, "meld": None, "table": None, "from_hand": [], "text": "turn"}]
    with pytest.raises(ValidationError):
        StateFrame.model_validate(frame)
    spectator = frames.spectator_frame(table)
    spectator["view"]["hand"] = ["Ac"]  # a spectator never holds a hand (R21)
    with pytest.raises(ValidationError):
        StateFrame.model_validate(spectator)


@pytest.mark.parametrize("rules", PROFILES)
def test_the_replay_applies_action_ints_and_reads_no_action_text(rules):
    """Following replay_steps through the calls never enters parse_action (§VII text is
    only written, by the record's codec, never read back)."""
    table = _table(rules, seed=11)
    _play(table, random.Random(11))
    entered: list[str] = []

    def watch(frame, event, _arg):
        if event == "call" and frame.f_code.co_name in ("parse_action", "parse", "play", "from_dict"):
            entered.append(f"{frame.f_code.co_filename}:{frame.f_code.co_name}")

    sys.setprofile(watch)
    try:
        replay = replay_steps(table, 1)
    finally:
        sys.setprofile(None)
    assert not [e for e in entered if "gameweave" in e], entered
    ReplayOut.model_validate(replay, strict=True)
    assert replay["record"]["actions"] and replay["snapshots"][-1]["status"] == table.deal.status

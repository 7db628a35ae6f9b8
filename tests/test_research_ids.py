"""The dense ids' names come from the engine's codec (§VII); only the two R18/R15 sub-steps
(``done``, ``onto M``) are named by the research layer (gameweave.research.ids)."""

from __future__ import annotations

import random

from gameweave.engine import (
    CLASSIC, FORCE_ANY, GAMEWEAVE, find_profile, format_action, is_forcing, parse_action, throw_action,
)
from gameweave.research import ids
from gameweave.research.deal import Deal


def test_every_id_is_named_by_the_codec_or_a_sub_step_word() -> None:
    words = set()
    for aid in range(ids.NUM_ACTIONS):
        action = ids.engine_action_named(aid)
        name = ids.action_name(aid)
        if action is None:
            assert aid == ids.A_DONE or aid >= ids.A_ONTO
            words.add(name.split()[0])
        else:
            assert name == format_action(action)
    assert words == {ids.DONE_WORD, ids.ONTO_WORD}


def test_r15_r18e_a_force_whose_target_follows_reads_as_the_force_naming_no_meld() -> None:
    """``throw Ks force`` / ``refuse force`` parse, under a profile that rearranges, as the
    R18e force; in gameweave they are the force before its ``onto`` step."""
    for c in range(40):
        assert parse_action(ids.action_name(ids.A_THROW_FORCE + c), CLASSIC) == throw_action(c, FORCE_ANY)
    assert parse_action(ids.action_name(ids.A_REFUSE_FORCE), CLASSIC) == ids.engine_action_named(ids.A_REFUSE_FORCE)
    for m in range(ids.NUM_MELDS):  # a gameweave meld id is the codec's meld action
        assert parse_action(ids.action_name(ids.A_MELD + m), GAMEWEAVE) == ids.engine_action_named(ids.A_MELD + m)


def test_a_one_id_engine_action_has_the_codecs_text() -> None:
    """In random play in every profile, an engine action written by one id is named as the
    codec writes it (a gameweave force names its meld number, the id does not)."""
    rng = random.Random(7)
    checked = 0
    for rules in ("gameweave", "anglo-american", "classic"):
        rearranging = find_profile(rules).rearranging
        for _ in range(4):
            d = Deal(rules)
            while True:
                d.play_chance(rng)
                if d.is_terminal():
                    break
                if not d.pending_table and d.pending_force is None:
                    for a in d.engine_legal():
                        got = d.ids_of(a)
                        if len(got) == 1 and (rearranging or not is_forcing(a)):
                            assert ids.action_name(got[0]) == format_action(a)
                            checked += 1
                legal = d.legal_actions()
                d.apply(legal[rng.randrange(len(legal))])
    assert checked > 100


def test_r12_the_deal_resamples_with_the_bots_inference() -> None:
    """One set-of-three inference in the house: the research name is the bots' function."""
    from gameweave.bots.determinize import impossible_cards
    from gameweave.research import core, deal

    assert core.excluded_from_hand is impossible_cards
    assert deal.impossible_cards is impossible_cards

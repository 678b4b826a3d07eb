"""Issue 21 part A in the table state machine, as pure functions of state, command and time:
the chat (item 4; docs/rules.md TP-9) with its rate limit and the host's mute, Four Card Poker's
last bets and "Same bets" (item 1), the turn id a page cues on (item 2), and the play test's
faults (item 9): the amount to call that the call button says, a player without a phone seated
by the host, the rules and the re-deal in words, the old phone of a seat handed on."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tablehelpers import NOW, Table, new_state, th
from test_table_commands import kind, people, poker, refused

from fourcards.table import (
    Act,
    ActFor,
    Chat,
    Close,
    EnterCards,
    Join,
    Leave,
    Move,
    Mute,
    NewDevice,
    Pause,
    SeatWithoutPhone,
    Sit,
    StartDeal,
    TopUp,
)
from fourcards.table.chat import CHAT_BURST, CHAT_MAX_CHARS, CHAT_WINDOW_S, REACTIONS
from fourcards.table.clock import player_seat
from fourcards.table.games import TableSpec
from fourcards.table.kind import KindTable
from fourcards.table.poker import PokerTable
from fourcards.table.registry import new_table_rules
from fourcards.table.state import CHAT_KEPT, stored
from fourcards.table.views import CHAT_SHOWN, Extras, turn_id, view
from fourcards.table.writes import ChatLine


def seen_by(t: Table, name: str | None) -> dict[str, Any]:
    """The view of the person called ``name`` (``None``: a spectator's)."""
    seat = None if name is None else t.state.people[t.pid(name)]
    return view(t.state, seat, None, Extras(now=t.now))


# ------------------------------------------------------------------- chat


def test_tp9_a_chat_message_is_written_kept_and_shown_to_every_viewer() -> None:
    t = kind(bots=3)
    people(t, "Ben")
    out = t.run(Chat(t.pid("Ben"), "  nice   hand, <b>Ann</b> \U0001f44d "))
    line = ChatLine(1, t.pid("Ben"), 5, "Ben", "nice hand, <b>Ann</b> \U0001f44d", "text", NOW)
    assert out.writes == (line,)  # the store appends it to the table's chat
    assert out.answer == {"chat": line.public()} and out.lines == ()  # the table log stays the game's
    assert t.state.chat == (line,) and t.state.chat_seq == 1
    for who in (None, "Ann", "Ben"):  # spectators read along
        assert seen_by(t, who)["chat"] == [{"id": 1, "seat": 5, "name": "Ben", "text": line.text, "kind": "text",
                                            "at": NOW}]
    reacted = t.run(Chat(t.pid("Ann"), reaction=REACTIONS[0]), at=NOW + 1).answer
    assert reacted == {"chat": {"id": 2, "seat": 1, "name": "Ann", "text": REACTIONS[0], "kind": "reaction",
                                "at": NOW + 1}}


@pytest.mark.parametrize(("text", "reaction", "words"), [
    ("", None, "must not be blank"),
    ("   ", None, "must not be blank"),
    ("x" * (CHAT_MAX_CHARS + 1), None, f"at most {CHAT_MAX_CHARS} characters"),
    ("two\nlines", None, "U+000A"),
    ("tab\there", None, "U+0009"),
    ("private \ue000 use", None, "U+E000"),
    ("reversed \u202e text", None, "U+202E"),
    ("zero\u200bwidth", None, "U+200B"),
    (None, None, "a text or a reaction"),
    ("hi", REACTIONS[0], "a text or a reaction"),
    (None, "\U0001f4a9", "is not a reaction here"),
])
def test_tp9_a_chat_message_that_is_not_printable_text_or_a_reaction_is_refused(text: str | None,
                                                                              reaction: str | None,
                                                                              words: str) -> None:
    t = kind(bots=3)
    refused(t, Chat(t.pid("Ann"), text, reaction), 422, words)


def test_tp9_emoji_with_joiners_and_a_message_of_200_characters_are_accepted() -> None:
    t = kind(bots=3)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 \u2764\ufe0f"
    assert t.run(Chat(t.pid("Ann"), family)).answer["chat"]["text"] == family
    assert len(t.run(Chat(t.pid("Ann"), "y" * CHAT_MAX_CHARS), at=NOW + 5).answer["chat"]["text"]) == CHAT_MAX_CHARS


def test_tp9_only_a_seated_person_chats() -> None:
    t = kind(bots=3)
    people(t, "Ben")
    bot = t.state.players[2]
    refused(t, Chat(bot.player_id, "beep"), 403, "a bot's seat is played by the server")
    t.run(Leave(t.pid("Ben"), t.seat("Ben")))
    refused(t, Chat(t.pid("Ben"), "still here?"), 403, "does not belong to any seat")
    t.run(Close(t.pid("Ann")))
    refused(t, Chat(t.pid("Ann"), "bye"), 409, "this table is closed")


def test_tp9_the_rate_limit_is_a_sliding_window_counted_from_now() -> None:
    t = kind(bots=3)
    people(t, "Ben")
    for i in range(CHAT_BURST):
        t.run(Chat(t.pid("Ben"), f"m{i}"), at=NOW + 0.1 * i)
    err = refused(t, Chat(t.pid("Ben"), "one too many"), 429, f"at most {CHAT_BURST} chat messages in 2 seconds")
    assert "try again in 2.0 s" in err.detail  # the first of the three leaves the window at NOW + 2
    refused(t, Chat(t.pid("Ben"), reaction=REACTIONS[1]), 429, "slow down")  # reactions count too
    t.run(Chat(t.pid("Ann"), "others are not held up"), at=NOW + 0.5)
    late = NOW + CHAT_WINDOW_S + 0.01
    assert t.run(Chat(t.pid("Ben"), "after the window"), at=late).answer["chat"]["text"] == "after the window"
    with pytest.raises(Exception, match="try again in"):  # m1, m2 and this one are in the window again
        from fourcards.table import apply

        apply(t.state, Chat(t.pid("Ben"), "x"), late + 0.05)


def test_tp9_the_state_keeps_the_last_40_messages_and_chat_goes_on_while_paused() -> None:
    t = kind(bots=3)
    t.run(Pause(t.pid("Ann")))
    for i in range(CHAT_KEPT + 5):
        t.run(Chat(t.pid("Ann"), f"line {i}"), at=NOW + i)
    assert len(t.state.chat) == CHAT_KEPT and t.state.chat[0].text == "line 5" and t.state.chat_seq == CHAT_KEPT + 5
    assert [m["id"] for m in seen_by(t, None)["chat"]][-1] == CHAT_KEPT + 5


def test_tp9_the_host_mutes_and_unmutes_a_seat() -> None:
    t = kind(bots=2)
    people(t, "Ben", "Cat")
    refused(t, Mute(t.pid("Ben"), t.seat("Cat")), 403, "only the table's host")
    refused(t, Mute(t.pid("Ann"), 2), 409, "a bot does not chat")
    refused(t, Mute(t.pid("Ann"), 1), 409, "cannot mute their own chat")
    refused(t, Mute(t.pid("Ann"), 9), 404, "seat 9 is empty")
    out = t.run(Mute(t.pid("Ann"), t.seat("Ben")))
    assert out.answer == {"seat": t.seat("Ben"), "name": "Ben", "muted": True}
    assert out.lines == ("The host mutes Ben in the chat",)
    assert stored(t.state)["seats"][str(t.pid("Ben"))]["muted"] is True  # kept with the table
    assert seen_by(t, "Ben")["you"]["muted"] is True
    assert [p["muted"] for p in seen_by(t, None)["players"] if p["name"] == "Ben"] == [True]
    refused(t, Chat(t.pid("Ben"), "hello?"), 403, "the host has muted your chat")
    assert t.run(Mute(t.pid("Ann"), t.seat("Ben"))).lines == ()  # muted already: nothing changes
    t.run(Chat(t.pid("Cat"), "not me"))
    t.run(Mute(t.pid("Ann"), t.seat("Ben"), muted=False))
    assert t.state.log[-1] == "The host lets Ben chat again"
    assert t.run(Chat(t.pid("Ben"), "thanks"), at=NOW + 1).answer["chat"]["text"] == "thanks"


# --------------------------------------------------- Four Card Poker's last bets


def test_issue21_1_the_last_ante_and_aces_up_are_kept_and_offered_as_same_bets() -> None:
    t = poker()
    people(t, "Ben")
    wager = next(a for a in seen_by(t, "Ann")["actions"] if a["kind"] == "wager")
    assert wager["last"] is None and wager["same"] is None  # nothing bet yet
    t.run(Act(t.pid("Ann"), Move("wager", ante=20, aces_up=5)))
    t.run(Act(t.pid("Ben"), Move("wager", ante=10)))
    assert t.state.people[t.pid("Ann")].bets == (20, 5)
    assert stored(t.state)["seats"][str(t.pid("Ann"))]["bets"] == [20, 5]  # kept with the table
    assert [a["kind"] for a in seen_by(t, "Ann")["actions"]] == ["withdraw"]  # on the layout: take back, or deal
    t.run(StartDeal(t.pid("Ann")))
    t.run(Act(t.pid("Ann"), Move("fold")))
    t.run(Act(t.pid("Ben"), Move("fold")))
    assert t.state.last is not None and not t.state.in_progress  # the next round is laid out
    wager = next(a for a in seen_by(t, "Ann")["actions"] if a["kind"] == "wager")
    assert wager["last"] == wager["same"] == {"ante": 20, "aces_up": 5}  # the ante of 20 does not go back to 10
    assert next(a for a in seen_by(t, "Ben")["actions"] if a["kind"] == "wager")["same"] == {"ante": 10,
                                                                                             "aces_up": 0}
    t.run(Act(t.pid("Ann"), Move("wager", ante=20, aces_up=5)))  # one tap: the same bets again
    assert t.state.log[-1] == "Ann bets ante 20 and Aces Up 5"


def test_issue21_1_same_bets_are_not_offered_when_the_chips_no_longer_cover_them() -> None:
    t = poker(starting_chips=100)
    t.run(Act(t.pid("Ann"), Move("wager", ante=40)))  # 40 + a play bet of 40 needs 80
    t.run(StartDeal(t.pid("Ann")))
    t.run(Act(t.pid("Ann"), Move("fold")))
    assert t.balance("Ann") == 60  # an ante of 40 and its play bet no longer fit (FCP-14)
    wager = next(a for a in seen_by(t, "Ann")["actions"] if a["kind"] == "wager")
    assert wager["last"] == {"ante": 40, "aces_up": 0} and wager["same"] is None and wager["ante_max"] == 30
    assert PokerTable.may_wager(t.state, t.state.people[t.pid("Ann")], 30, 0)
    assert not PokerTable.may_wager(t.state, t.state.people[t.pid("Ann")], 0, 0)


# ------------------------------------------------------------------ turns


def test_issue21_2_the_view_names_each_turn_once() -> None:
    t = kind(bots=0, dealing="table")
    people(t, "Ben", "Cat", "Dan")
    t.run(StartDeal(t.pid("Ann")))
    assert seen_by(t, None)["turn"] is None  # a card is due, nobody acts
    t.run(EnterCards(t.pid("Ann"), "Ac Kd Qc Jh"))
    first = seen_by(t, None)["turn"]
    actor = t.state.deal.game.actor
    assert first == f"{t.state.deal.number}:{len(t.state.deal.game.history)}:{actor}" == turn_id(t.state)
    seat = player_seat(t.state, actor)
    t.run(ActFor(t.pid("Ann"), seat.seat, Move("check")))
    assert seen_by(t, None)["turn"] not in (None, first)


# ------------------------------------------------------------ play-test faults


def _short_stack_faces_more_than_it_has() -> tuple[Table, str]:
    t = Table(new_state("kind", dealing="table", turn_clock=0, starting_chips=20, rules={"max_bet": 20}))
    t.run(Sit("Ann", th("Ann"), is_host=True))
    people(t, "Ben", "Cat", "Dan")
    t.run(TopUp(t.pid("Ann"), 100))  # the host's own top-up: Ann can bet past the others
    t.run(StartDeal(t.pid("Ann")))
    t.run(EnterCards(t.pid("Ann"), "Ac Kd Qc Jh"))
    for _ in range(20):
        actor = player_seat(t.state, t.state.deal.game.actor)
        v = seen_by(t, actor.name)
        me = next(e for e in v["deal"]["seats"] if e["seat"] == actor.seat)
        if v["deal"]["bet"] - me["stake"] > me["stack"]:
            return t, actor.name
        kinds = {a["kind"]: a for a in v["actions"]}
        if actor.name == "Ann":  # Ann bets 20: more than the others' 15 chips
            t.run(Act(t.pid("Ann"), Move("bet", amount=20) if "bet" in kinds else Move("call")))
        else:
            t.run(ActFor(t.pid("Ann"), actor.seat, Move("check" if "check" in kinds else "call")))
    raise AssertionError("nobody faced more than their stack")


def test_issue21_9_the_amount_to_call_is_what_the_call_button_says() -> None:
    t, who = _short_stack_faces_more_than_it_has()
    v = seen_by(t, who)
    me = next(e for e in v["deal"]["seats"] if e["name"] == who)
    call = next(a for a in v["actions"] if a["kind"] == "call")
    assert call["all_in"] and call["min_amount"] == me["stack"] < v["deal"]["bet"] - me["stake"]
    assert v["deal"]["to_call"] == call["min_amount"] and v["deal"]["call_all_in"] is True  # "Call 15 (all-in)"


def test_issue21_9_the_host_seats_a_player_without_a_phone_and_the_log_says_so() -> None:
    t = kind(bots=0, dealing="table", seat_approval=True)
    out = t.run(SeatWithoutPhone(t.pid("Ann"), "Cat", th("cat")))
    assert out.answer == {"status": "seated", "seat": 2, "name": "Cat", "balance": 1000}
    assert out.lines == ("The host seats Cat (no phone) at seat 2 with 1,000 chips",)  # not "asks for a seat"
    assert t.state.requests == ()  # no request to approve
    t.run(Join("Ben", th("Ben")))  # a guest still asks
    refused(t, SeatWithoutPhone(t.pid("Ann"), "ben", th("x")), 409, "'ben' has asked for a seat: approve the request")
    refused(t, SeatWithoutPhone(t.pid("Ann"), "CAT", th("x")), 409, "the name 'CAT' is taken at this table: choose")
    t.run(Leave(t.pid("Ann"), t.seat("Cat")))
    back = t.run(SeatWithoutPhone(t.pid("Ann"), "Cat", th("cat2")))
    assert back.lines == ("The host seats Cat (no phone) back at seat 2 with 1,000 chips",)
    people_table = kind(bots=0, dealing="table")
    people(people_table, "Ben")
    refused(people_table, SeatWithoutPhone(people_table.pid("Ben"), "Dan", th("d")), 403, "only the table's host")
    deck = kind(bots=0)
    refused(deck, SeatWithoutPhone(deck.pid("Ann"), "Dan", th("d")), 409, "only at a table dealt with real cards")


def test_issue21_9_a_seat_handed_to_a_new_phone_remembers_the_old_token() -> None:
    t = poker()
    people(t, "Ben")
    for i in range(25):  # the last 20 handed-on tokens are kept
        t.run(NewDevice(t.pid("Ann"), 2, th(f"phone{i}")))
    assert list(t.state.revoked)[-1] == th("phone23") and len(t.state.revoked) == 20
    assert t.state.revoked[th("phone23")] == "Ben" and th("Ben") not in t.state.revoked
    assert stored(t.state)["revoked"] == dict(t.state.revoked)


def test_issue21_9_the_re_deal_is_explained_in_words_without_a_rule_book_citation() -> None:
    for preset, dealt in (("family", "9c 9h"), ("opr903", "9c 9h Kd Qc")):  # opr903 re-deals after the pass
        t = kind(bots=0, dealing="table", preset=preset)
        people(t, "Ben", "Cat", "Dan")
        t.run(StartDeal(t.pid("Ann")))
        t.run(EnterCards(t.pid("Ann"), dealt))
        why = seen_by(t, None)["deal"]["next_card"]["why"]
        assert "all ranks must differ" in why and "seed" not in why and "\u00a7" not in why, why


@pytest.mark.parametrize(("game", "preset", "rules", "label"), [
    ("poker", "live", {}, "Casino rules: play 1x\u20133x"),
    ("poker", "online", {}, "Online rules: 1x or 3x, win cap 8,400"),
    ("poker", "live", {"win_cap": 5000}, "Casino rules, changed: play 1x\u20133x, win cap 5,000"),
    ("kind", "family", {}, "Family rules: ante 5, bets 5\u201310"),
    ("kind", "opr903", {}, "Official rules: ante 5, bets 5\u201310, every duplicate re-dealt"),
    ("kind", "nickel", {}, "Nickel game: ante 5\u00a2, bets 5\u00a2\u201310\u00a2"),
    ("kind", "family", {"max_bet": 20, "max_raises": 2}, "Family rules, changed: ante 5, bets 5\u201320, 2 raises at most"),
])
def test_issue21_9_the_rules_are_named_in_words_for_people(game: str, preset: str, rules: dict[str, Any],
                                                           label: str) -> None:
    table_game, built, _ = new_table_rules(TableSpec(game, preset=preset, rules=rules))
    assert table_game.rules_label(built) == label
    t = Table(replace(new_state(game, preset=preset, rules=rules)))
    assert seen_by(t, None)["table"]["rules_label"] == label
    assert "seed" not in label and "OPR" not in label


def test_issue21_9_every_preset_has_a_label() -> None:
    assert PokerTable.preset_labels() == {"live": "Casino rules: play 1x\u20133x",
                                          "online": "Online rules: 1x or 3x, win cap 8,400"}
    assert set(KindTable.preset_labels()) == {"family", "opr903", "nickel"}


def test_tp9_a_view_with_the_longest_chat_stays_under_48_kib() -> None:
    """13 people with 40-character names in a deal, 60 log lines of 120 characters, the chat full of
    the longest messages (200 four-byte emoji): every view carries the latest 30 and stays small
    (the bound of tests/web/test_issue19_web.py)."""
    import orjson

    t = Table(new_state("kind", turn_clock=30, starting_chips=10**12))
    t.run(Sit("H" * 40, th("host"), is_host=True))
    for i in range(12):
        t.run(Join(f"{i:02d}" * 20, th(str(i))))
    t.run(StartDeal(t.pid("H" * 40)))
    longest = tuple(ChatLine(i, t.pid("H" * 40), 1, "H" * 40, "\U0001f600" * CHAT_MAX_CHARS, "text", NOW + i)
                    for i in range(1, CHAT_KEPT + 1))
    full = replace(t.state, chat=longest, chat_seq=CHAT_KEPT, log=tuple("L" * 120 for _ in range(60)))
    views = [view(full, p, None, Extras(now=NOW)) for p in [*full.players.values(), None]]
    assert all(len(v["chat"]) == CHAT_SHOWN and v["chat"][-1]["id"] == CHAT_KEPT for v in views)
    assert max(len(orjson.dumps(v)) for v in views) <= 48 * 1024


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ann", "Ben"]), st.floats(min_value=0, max_value=1.5)), max_size=25))
def test_tp9_property_no_person_ever_has_more_than_3_messages_in_any_2_seconds(sends: list[tuple[str, float]]) -> None:
    """Whatever the order and spacing of the messages, a person's accepted messages never number
    more than CHAT_BURST in any CHAT_WINDOW_S seconds, and a message is refused only when it
    would make CHAT_BURST + 1 (the sliding window, counted from ``now``)."""
    from fourcards.table import TableError, apply

    t = kind(bots=2)
    people(t, "Ben")
    at = NOW
    accepted: dict[str, list[float]] = {"Ann": [], "Ben": []}
    for who, gap in sends:
        at += gap
        recent = [x for x in accepted[who] if x > at - CHAT_WINDOW_S]
        try:
            t.state = apply(t.state, Chat(t.pid(who), "hi"), at).state
        except TableError as exc:
            assert exc.status == 429 and len(recent) >= CHAT_BURST
            continue
        assert len(recent) < CHAT_BURST
        accepted[who].append(at)
    for times in accepted.values():
        for i, start in enumerate(times):
            assert sum(1 for x in times[i:] if x < start + CHAT_WINDOW_S) <= CHAT_BURST

"""Views: no player's view shows a card that player may not see (property test)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.engine import Card
from tabletop.engine.views import JUDGE, Hidden, Seen, counts, may_see, view
from tests.helpers import table

ZONES = ["library", "hand", "battlefield", "graveyard", "stack", "exile", "command"]


@st.composite
def tables(draw):
    n = draw(st.integers(2, 4))
    players = [f"P{i}" for i in range(n)]
    t = table(players=players, seed=draw(st.integers(0, 10**6)))
    for i in range(draw(st.integers(0, 40))):
        owner = draw(st.sampled_from(players))
        zone = draw(st.sampled_from(ZONES))
        face_down = draw(st.booleans()) and zone not in ("library", "hand")
        t.add_card(Card(f"Secret {i}", ("Creature",)), owner, zone, face_down=face_down)
    for _ in range(draw(st.integers(0, 15))):
        cids = [c for c in t.current if t.live(c) is not None]
        if not cids:
            break
        t.move(draw(st.sampled_from(cids)), draw(st.sampled_from(ZONES)),
               draw(st.sampled_from(players)), face_down=draw(st.booleans()))
    if draw(st.booleans()):
        t.reveal_top(players[0], True)
    return t


# Who may look at a card's face, from the rules texts (not from views.py):
# 400.2   graveyard, battlefield, stack, exile, ante and command are public zones: every
#         player sees a face-up card there; library and hand are hidden zones.
# 401.2   a library is a face-down pile: no player looks at it (a card revealed from it,
#         401.x "play with the top card revealed", is seen by all).
# 402.3   a player looks at their own hand, never at another's (a revealed card is seen).
# 406.3   a card exiled face down can't be examined by any player.
# Beyond these texts (the table's own choice, as the editions' [outside] notes say): a
# face-down permanent or spell is looked at by its controller (707.5 of later texts),
# and a card face down in the command zone (400.9) by its owner.
PUBLIC = {"graveyard", "battlefield", "stack", "exile", "ante", "command"}
LOOKS_AT_FACE_DOWN = {"battlefield": "controller", "stack": "controller", "command": "owner"}


def _allowed(t, obj, viewer):
    zone = obj.zone[1]
    if zone not in PUBLIC:  # hidden: only what its own holder may look at, or revealed
        return obj.revealed or (zone == "hand" and obj.zone[0] == viewer)
    if not obj.face_down:
        return True
    who = LOOKS_AT_FACE_DOWN.get(zone)  # face down: exile (406.3) and the rest, nobody
    return who is not None and getattr(obj, who) == viewer


@settings(max_examples=150, deadline=None)
@given(tables())
def test_400_2_no_view_shows_a_hidden_card(t):
    for viewer in t.players:
        for key, items in view(t, viewer).items():
            assert len(items) == len(t.zones[key])  # counts are always visible
            for item in items:
                obj = t.objs[item.id]
                if isinstance(item, Seen):
                    assert _allowed(t, obj, viewer), (viewer, key, obj)
                else:
                    assert isinstance(item, Hidden) and not hasattr(item, "name")
                    assert not _allowed(t, obj, viewer)


@settings(max_examples=50, deadline=None)
@given(tables())
def test_judge_sees_everything(t):
    for items in view(t, JUDGE).values():
        assert all(isinstance(i, Seen) for i in items)


def test_401_2_library_hidden_even_from_its_owner():
    t = table()
    c = t.add_card(Card("Forest", ("Land",)), "Alice", "library")
    assert not may_see(t, c, "Alice") and may_see(t, c, JUDGE)
    assert counts(t)[("Alice", "library")] == 1


def test_402_3_own_hand_seen_others_counted():
    t = table()
    c = t.add_card(Card("Forest", ("Land",)), "Alice", "hand")
    assert may_see(t, c, "Alice") and not may_see(t, c, "Bob")


def test_revealed_hand_card_seen_by_all_until_it_moves():
    t = table()
    c = t.add_card(Card("Forest", ("Land",)), "Alice", "hand")
    t.reveal(c.cid)
    assert may_see(t, t.obj_of(c.cid), "Bob")
    t.move(c.cid, "library")
    t.move(c.cid, "hand")
    assert not may_see(t, t.obj_of(c.cid), "Bob")


def test_406_3_face_down_exile_hidden_from_everyone():
    t = table()
    c = t.add_card(Card("Forest", ("Land",)), "Alice", "exile", face_down=True)
    assert not may_see(t, c, "Alice") and not may_see(t, c, "Bob")


def test_a_hidden_cards_event_is_on_the_battlefield_and_in_a_hand():
    """The words of an event on a card a player may not see: "on the battlefield" (2016),
    "in play" (1999), "in Alice's hand"."""
    from tabletop.engine import Table, views
    from tabletop.engine.model import Event
    from tests.helpers import BEARS
    for edition, words in (("cr-2016", "a hidden card on the battlefield: tapped"),
                           ("cr-1999", "a hidden card in play: tapped")):
        t = Table(("Alice", "Bob"), edition)
        o = t.add_card(BEARS, "Alice", "battlefield", face_down=True)
        e = Event("tapped", o.cid, o.id, None, o.zone, o.zone)
        assert views.hidden_sentence(t, e) == words
    hand = t.add_card(BEARS, "Alice", "hand")
    e = Event("revealed", hand.cid, hand.id, None, hand.zone, hand.zone)
    assert views.hidden_sentence(t, e) == "a hidden card in Alice's hand: revealed"


ZONE_NAMES = ("hand", "battlefield", "graveyard", "exile", "library", "stack", "command")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 39), st.sampled_from(ZONE_NAMES),
                          st.sampled_from(("Ann", "Ben", "Cat")), st.booleans(),
                          st.sampled_from(("move", "face", "reveal", "draw", "show"))),
                min_size=1, max_size=40))
def test_who_may_name_an_events_card_is_worked_out_alike_for_all_at_once(steps):
    """The log asks, for every event, which players may name its card, all at once
    (views.knowers); the answer is the rule's, asked of each player in turn
    (event_names_card), whatever the card went through."""
    from tabletop.engine import Table, views
    from tabletop.engine.errors import TabletopError
    t = Table(("Ann", "Ben", "Cat"))
    for i in range(40):
        t.add_card(Card(f"Card {i}", ("Creature",)), ("Ann", "Ben", "Cat")[i % 3], "library")
    cids = list(t.current)
    for i, zone, player, flag, what in steps:
        try:
            if what == "move":
                res = t.move(cids[i], zone, player, face_down=flag)
            elif what == "face":
                res = t.turn_face(cids[i], flag)
            elif what == "draw":  # into a hand, out of a library
                res = t.draw(player)
            elif what == "show":  # to one player: the event's own audience
                res = t.show(player, [cids[i]], "Cat" if flag else "Ann")
            else:
                res = t.reveal(cids[i], flag)
        except TabletopError:
            continue
        for e in res.events:
            assert views.knowers(t, e) == tuple(
                p for p in t.players if views.event_names_card(t, e, p)), e

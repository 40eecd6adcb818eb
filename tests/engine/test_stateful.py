"""Stateful property test of the engine (hypothesis RuleBasedStateMachine).

Random tables (2 to 4 players, tokens, replacement effects, every edition) and
random actions, undo, redo, save and load among them. After every step: each
card is in exactly one zone, or (a token, an ability) gone; object ids are unique
and grow; every lineage agrees with the history; ordered zones change only as the
rules allow; undo then redo changes nothing; save then load changes nothing; no
player's view shows a card that player may not see.

CI runs a bounded profile (500 examples); TABLETOP_SOAK=1 runs 20,000."""

import itertools
import json
import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tabletop.engine import Card, Effect, IllegalActionError, Table, saves
from tabletop.engine.editions import EDITION_IDS, get
from tabletop.engine.model import ORDERED
from tabletop.engine.state import SavedLog
from tabletop.engine.views import Hidden, Seen, may_see, view

SOAK = bool(os.environ.get("TABLETOP_SOAK"))
CARDS = [Card("Bear", ("Creature",)), Card("Bolt", ("Instant",)), Card("Plow", ("Sorcery",)),
         Card("Land", ("Land",)), Card("Aura", ("Enchantment",), ("Aura",)),
         Card("Plane", ("Plane",)), Card("Rock", ("Artifact",))]


def fingerprint(t: Table):
    """The table as a player could tell it apart: zones, objects in them, status."""
    zones = {k: [(t.objs[i].cid, t.objs[i].tapped, t.objs[i].face_down,
                  tuple(sorted(t.objs[i].counters.items())), t.objs[i].controller)
                 for i in v] for k, v in t.zones.items()}
    return zones, dict(t.current), {c: [(e.obj, e.zone) for e in es] for c, es in t.lineage.items()}, \
        dict(t.life), t.active


def _uncarried(text: str) -> dict:
    """A save's data with each action as what it did (its name, parameters, events and
    changes), without the objects it carries."""
    d = json.loads(text)
    for key in ("history", "redo"):
        d[key] = [json.loads(a)[:4] for a in d[key]]
    return d


class EngineMachine(RuleBasedStateMachine):
    @initialize(edition=st.sampled_from(EDITION_IDS), n=st.integers(2, 4),
                seed=st.integers(0, 2**16), data=st.data())
    def setup(self, edition, n, seed, data):
        players = [f"P{i}" for i in range(n)]
        self.t = Table(players, edition, seed=seed)
        ed = get(edition)
        for _ in range(data.draw(st.integers(3, 14))):
            card = data.draw(st.sampled_from(CARDS))
            zones = [z for z in ed.zones if z not in ("battlefield",) or
                     not (card.is_type("Instant") or card.is_type("Sorcery"))]
            zone = data.draw(st.sampled_from(zones))
            if card.is_type("Plane") and "command" in ed.zones:
                zone = "command"
            self.t.add_card(card, data.draw(st.sampled_from(players)), zone,
                            token=False)
        for _ in range(data.draw(st.integers(0, 2))):
            self.t.create_token(Card("Token", ("Creature",)), data.draw(st.sampled_from(players)))
        for i in range(data.draw(st.integers(0, 2))):
            watch = data.draw(st.sampled_from(ed.zones))
            instead = data.draw(st.sampled_from(ed.zones))
            affects = data.draw(st.sampled_from(["any", "tokens", "nontokens",
                                                 f"owner:{players[0]}", f"opponents-of:{players[1]}"]))
            self.t.effects.append(Effect(f"e{i}", watch, instead, affects=affects,
                                         optional=data.draw(st.booleans())))
        self.t.history.clear()
        self.max_id = self.t.next_id

    def cids(self):
        return sorted(self.t.current)

    # ---- actions ---------------------------------------------------------------------------
    @rule(data=st.data())
    def move(self, data):
        t = self.t
        cid = data.draw(st.sampled_from(self.cids()))
        zone = data.draw(st.sampled_from(t.edition.zones))
        player = data.draw(st.sampled_from([*list(t.players), None]))
        position = data.draw(st.sampled_from(["top", "bottom", 1, 2, 5]))
        before = {k: list(v) for k, v in t.zones.items()}
        res = t.move(cid, zone, player, position=position, face_down=data.draw(st.booleans()))
        if res.rejected:
            assert {k: list(v) for k, v in t.zones.items()} == before
        self._ordered_only_grew(before, res)

    @rule(data=st.data())
    def move_several(self, data):
        t = self.t
        cids = data.draw(st.lists(st.sampled_from(self.cids()), min_size=2, max_size=4, unique=True))
        zone = data.draw(st.sampled_from(t.edition.zones))
        before = {k: list(v) for k, v in t.zones.items()}
        res = t.move_many(cids, zone, order=data.draw(st.permutations(cids)))
        self._ordered_only_grew(before, res)

    def _ordered_only_grew(self, before, res):
        """400.5: an ordered zone's other objects keep their relative order (an effect
        that puts a library card elsewhere in it moves only that card)."""
        t = self.t
        moved = {e.obj for e in res.events if e.kind == "reordered"}
        for key, old in before.items():
            if key[1] not in ORDERED or any(e.kind == "shuffled" for e in res.events):
                continue
            new = t.zones[key]
            kept_old = [i for i in old if i in new and i not in moved]
            kept_new = [i for i in new if i in kept_old]
            assert kept_old == kept_new, key

    @rule(data=st.data())
    def status(self, data):
        t = self.t
        cid = data.draw(st.sampled_from(self.cids()))
        what = data.draw(st.sampled_from(["tap", "untap", "counter", "face", "modify"]))
        try:
            if what in ("tap", "untap"):
                t.set_tapped(cid, what == "tap")
            elif what == "counter":
                t.add_counters(cid, {"+1/+1": data.draw(st.integers(-2, 2))})
            elif what == "face":
                t.turn_face(cid, data.draw(st.booleans()))
            else:
                t.modify(cid, "changed", data.draw(st.sampled_from(["spell", "ability", "static"])))
        except IllegalActionError:
            pass

    @rule(data=st.data())
    def attach(self, data):
        """A table tool attaches one permanent to another, or takes it off: refused,
        with nothing changed, where the rules or a loop forbid it."""
        t = self.t
        cid = data.draw(st.sampled_from(self.cids()))
        host = data.draw(st.sampled_from([*self.cids(), None]))
        before = fingerprint(t), len(t.history)
        try:
            t.attach(cid, host)
        except IllegalActionError:
            assert (fingerprint(t), len(t.history)) == before

    @rule(data=st.data())
    def table_action(self, data):
        t = self.t
        p = data.draw(st.sampled_from(t.players))
        what = data.draw(st.sampled_from(["draw", "shuffle", "turn", "token", "ability", "cleanup",
                                          "roll", "reveal_top", "mulligan"]))
        if what == "draw":
            t.draw(p, data.draw(st.integers(0, 3)))
        elif what == "shuffle":
            t.shuffle(p)
        elif what == "turn":
            t.next_turn()
        elif what == "token":
            t.create_token(Card("Token", ("Creature",)), p)
        elif what == "ability" and t.edition.has_zone("stack"):
            t.put_ability("does a thing", p)
        elif what == "cleanup":
            t.cleanup(p)
        elif what == "roll":
            t.roll(p, data.draw(st.integers(2, 20)))
        elif what == "reveal_top":
            t.reveal_top(p, data.draw(st.booleans()))
        elif what == "mulligan":
            t.mulligan(p)

    @rule()
    def undo_redo_changes_nothing(self):
        t = self.t
        if not t.history:
            return
        before = fingerprint(t)
        t.undo()
        t.redo()
        assert fingerprint(t) == before

    @rule(n=st.integers(1, 5))
    def undo(self, n):
        for _ in range(n):
            self.t.undo()

    @precondition(lambda self: self.t.redo_stack)
    @rule()
    def redo(self):
        self.t.redo()

    @rule(data=st.data())
    def move_taken_back(self, data):
        """A move whose dialog was cancelled: taken back, as if never made (its log lines
        too), perhaps after the window's autosave had kept them."""
        done = len(self.t.history)
        self.move(data)
        if len(self.t.history) > done:
            if data.draw(st.booleans()):
                saves.dumps(self.t)
            self.t.take_back()

    @rule()
    def saved_as_if_made_afresh(self):
        """A save puts in what earlier saves kept (each action's text, each log line's,
        each card's lineage): it is the very save made with nothing kept, but for the
        objects an action carries (those the table no longer holds). An action's text is
        made once, when the table held some object that an undo since took away; the
        action that undo took back carries it then, and a text made now carries it too.
        So the kept save writes such an object once where the fresh one writes it twice,
        and both open as the same game. The kept forms stay afterwards, so later saves
        in this run build on them."""
        t = self.t
        kept = saves.dumps(t)
        actions = t.history + t.redo_stack
        forms = [(a.raw, a.quoted) for a in actions]
        lines, lineage = t.saved_lines, dict(t.saved_lineage)
        for a in actions:
            assert a.ops is not None  # decoded (one just opened is its text only), then
            a.raw = a.quoted = None  # its text let go: the save encodes it afresh
        t.saved_lines = SavedLog()
        t.saved_lineage.clear()
        fresh = saves.dumps(t)
        assert _uncarried(fresh) == _uncarried(kept)
        if fresh != kept:  # (only objects carried twice): the same game opens
            assert fingerprint(saves.loads(kept)) == fingerprint(t)
        for a, (raw, quoted) in zip(actions, forms, strict=True):
            a.raw, a.quoted = raw, quoted
        t.saved_lines = lines
        t.saved_lineage.clear()
        t.saved_lineage.update(lineage)

    @rule()
    def save_and_load(self):
        before = fingerprint(self.t)
        text = saves.dumps(self.t)
        self.t = saves.loads(text)
        assert fingerprint(self.t) == before
        assert saves.dumps(self.t) == text

    # ---- invariants ------------------------------------------------------------------------
    @invariant()
    def each_card_in_exactly_one_zone(self):
        t = self.t
        seen = {}
        for key, ids in t.zones.items():
            for i in ids:
                assert i not in seen, "an object in two zones"
                seen[i] = key
                assert t.objs[i].zone == key
        for oid in t.current.values():
            obj = t.objs[oid]
            if obj.zone is None:
                assert obj.kind in ("token", "ability") or obj.token, "a card vanished"
            else:
                assert seen.get(oid) == obj.zone
        live_cids = [t.objs[i].cid for i in seen]
        assert len(live_cids) == len(set(live_cids)), "a card is two objects at once"

    @invariant()
    def a_save_may_hold_it(self):
        """Nothing attached to what left, to itself, or in a loop: the consistency
        check every save makes passes."""
        saves.check(self.t)

    @invariant()
    def ids_unique_and_growing(self):
        t = self.t
        assert t.next_id >= self.max_id
        self.max_id = t.next_id
        assert all(o.id < t.next_id for o in t.objs.values())
        for o in t.objs.values():
            if o.prev is not None:
                assert o.prev < o.id or o.prev == o.id

    @invariant()
    def lineage_agrees_with_objects(self):
        t = self.t
        for cid, entries in t.lineage.items():
            if cid not in t.current:  # made by an action that was undone
                assert not entries
                continue
            last = [e for e in entries if e.zone is not None]
            obj = t.objs[t.current[cid]]
            if obj.zone is not None:
                assert last and last[-1].obj == obj.id and last[-1].zone == obj.zone
            for a, b in itertools.pairwise(entries):
                assert b.obj >= a.obj

    @invariant()
    def no_view_leaks(self):
        t = self.t
        for viewer in t.players:
            for items in view(t, viewer).values():
                for item in items:
                    obj = t.objs[item.id]
                    if isinstance(item, Seen):
                        assert may_see(t, obj, viewer)
                        assert not (obj.zone[1] == "library" and not obj.revealed)
                        assert not (obj.zone[1] == "hand" and obj.zone[0] != viewer
                                    and not obj.revealed)
                    else:
                        assert isinstance(item, Hidden) and not may_see(t, obj, viewer)


EngineMachine.TestCase.settings = settings(
    max_examples=20_000 if SOAK else 500, stateful_step_count=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                           HealthCheck.data_too_large])
TestEngineMachine = EngineMachine.TestCase

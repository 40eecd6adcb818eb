"""The changes an action records, one typed class per kind. Each knows how to apply
itself to a table (redo) and how to take itself back (undo); ``saves.py`` encodes
them. They are tuples whose first field is the kind (``OpKind``), so a history is
plain data, cheap to build, and saves keep the layout they always had."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from tabletop.engine.model import Effect, LineageEntry, Obj, ZoneKey


class TableState(Protocol):
    """What an op changes: the table's plain data (``state.TableState`` has it). Said
    here, so the ops need nothing above them."""

    objs: dict[int, Obj]
    current: dict[int, int]
    lineage: dict[int, list[LineageEntry]]
    zones: dict[ZoneKey, list[int]]
    effects: list[Effect]
    life: dict[str, int]


class MoveOp(NamedTuple):
    """A zone change (400.7): the old object leaves ``src``, the new one enters ``dst``."""

    kind: str  # "mv"
    cid: int
    old: int
    new: int
    src: ZoneKey
    sidx: int
    dst: ZoneKey
    at: int
    entry: LineageEntry

    def apply(self, t: TableState) -> None:
        del t.zones[self.src][self.sidx]
        t.objs[self.old].zone = None
        t.objs[self.new].zone = self.dst
        t.current[self.cid] = self.new
        t.zones[self.dst].insert(self.at, self.new)
        t.lineage.setdefault(self.cid, []).append(self.entry)

    def revert(self, t: TableState) -> None:
        t.lineage[self.cid].pop()
        del t.zones[self.dst][self.at]
        t.objs[self.new].zone = None
        t.objs[self.old].zone = self.src
        t.current[self.cid] = self.old
        t.zones[self.src].insert(self.sidx, self.old)


class SetOp(NamedTuple):
    """One attribute of an object changes."""

    kind: str  # "set"
    oid: int
    attr: str
    old: Any
    new: Any

    def apply(self, t: TableState) -> None:
        setattr(t.objs[self.oid], self.attr, self.new)

    def revert(self, t: TableState) -> None:
        setattr(t.objs[self.oid], self.attr, self.old)


class InsertOp(NamedTuple):
    """An object id goes into a zone list at ``at``."""

    kind: str  # "ins"
    key: ZoneKey
    at: int
    oid: int

    def apply(self, t: TableState) -> None:
        t.zones[self.key].insert(self.at, self.oid)

    def revert(self, t: TableState) -> None:
        del t.zones[self.key][self.at]


class DeleteOp(NamedTuple):
    """An object id leaves a zone list at ``at``."""

    kind: str  # "del"
    key: ZoneKey
    at: int
    oid: int

    def apply(self, t: TableState) -> None:
        del t.zones[self.key][self.at]

    def revert(self, t: TableState) -> None:
        t.zones[self.key].insert(self.at, self.oid)


class OrderOp(NamedTuple):
    """A zone's order changes (a shuffle, a reordering)."""

    kind: str  # "zone"
    key: ZoneKey
    old: tuple[int, ...]
    new: tuple[int, ...]

    def apply(self, t: TableState) -> None:
        t.zones[self.key] = list(self.new)

    def revert(self, t: TableState) -> None:
        t.zones[self.key] = list(self.old)


class CurrentOp(NamedTuple):
    """Which object a card is now."""

    kind: str  # "cur"
    cid: int
    old: int | None
    new: int

    def apply(self, t: TableState) -> None:
        t.current[self.cid] = self.new

    def revert(self, t: TableState) -> None:
        if self.old is None:
            del t.current[self.cid]
        else:
            t.current[self.cid] = self.old


class LineageOp(NamedTuple):
    """A card's lineage gains an entry."""

    kind: str  # "lin"
    cid: int
    entry: LineageEntry

    def apply(self, t: TableState) -> None:
        t.lineage.setdefault(self.cid, []).append(self.entry)

    def revert(self, t: TableState) -> None:
        t.lineage[self.cid].pop()


class EffectOp(NamedTuple):
    """A replacement effect comes into force."""

    kind: str  # "eff"
    effect: Effect

    def apply(self, t: TableState) -> None:
        t.effects.append(self.effect)

    def revert(self, t: TableState) -> None:
        t.effects.pop()


class MetaOp(NamedTuple):
    """A table setting changes (the active player, revealed tops, sideboards...)."""

    kind: str  # "meta"
    name: str
    old: Any
    new: Any

    def apply(self, t: TableState) -> None:
        setattr(t, self.name, self.new)

    def revert(self, t: TableState) -> None:
        setattr(t, self.name, self.old)


class LifeOp(NamedTuple):
    """A player's life total changes."""

    kind: str  # "life"
    player: str
    old: int
    new: int

    def apply(self, t: TableState) -> None:
        t.life[self.player] = self.new

    def revert(self, t: TableState) -> None:
        t.life[self.player] = self.old


Op = MoveOp | SetOp | InsertOp | DeleteOp | OrderOp | CurrentOp | LineageOp | EffectOp \
    | MetaOp | LifeOp

"""The changes an action records, one typed class per kind. Each knows how to apply
itself to a table (redo) and how to take itself back (undo); ``saves.py`` encodes
them. They are tuples whose first field is the kind (``OpKind``), so a history is
plain data, cheap to build, and saves keep the layout they always had."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from tabletop.engine.model import (
    OP_CURRENT,
    OP_DELETE,
    OP_EFFECT,
    OP_EFFECT_END,
    OP_INSERT,
    OP_LIFE,
    OP_LINEAGE,
    OP_META,
    OP_MOVE,
    OP_SET,
    OP_ZONE_ORDER,
    CardId,
    Effect,
    LineageEntry,
    Obj,
    ObjId,
    OpKind,
    ZoneKey,
)


class Codec(Protocol):
    """How a save writes what an op holds (saves.py's): zones as numbers, an object's
    attribute values, lineage entries and table settings as JSON, and back, checked."""

    def z(self, key: ZoneKey | None) -> Any: ...

    def unkey(self, i: Any) -> ZoneKey: ...

    def val(self, attr: str, v: Any) -> Any: ...

    def unval(self, attr: str, v: Any) -> Any: ...

    def entry(self, e: LineageEntry) -> list[Any]: ...

    def unentry(self, d: list[Any]) -> LineageEntry: ...

    def meta(self, name: str, v: Any) -> Any: ...

    def unmeta(self, name: str, v: Any) -> Any: ...


class TableState(Protocol):
    """What an op changes: the table's plain data (``state.TableState`` has it). Said
    here, so the ops need nothing above them."""

    objs: dict[ObjId, Obj]
    current: dict[CardId, ObjId]
    lineage: dict[CardId, list[LineageEntry]]
    zones: dict[ZoneKey, list[ObjId]]
    effects: list[Effect]
    life: dict[str, int]

    def hosting(self, oid: ObjId | None) -> None: ...  # an attachment names ``oid``


class MoveOp(NamedTuple):
    """A zone change (400.7): the old object leaves ``src``, the new one enters ``dst``."""

    kind: OpKind
    cid: CardId
    old: ObjId
    new: ObjId
    src: ZoneKey
    sidx: int
    dst: ZoneKey
    at: int
    entry: LineageEntry

    # (the fields unpacked at once: undo and redo run these on the hot path)
    def apply(self, t: TableState) -> None:
        _, cid, old, new, src, sidx, dst, at, entry = self
        zones, objs = t.zones, t.objs
        del zones[src][sidx]
        objs[old].zone = None
        objs[new].zone = dst
        t.current[cid] = new
        zones[dst].insert(at, new)
        t.lineage.setdefault(cid, []).append(entry)

    def revert(self, t: TableState) -> None:
        _, cid, old, new, src, sidx, dst, at, _ = self
        zones, objs = t.zones, t.objs
        t.lineage[cid].pop()
        del zones[dst][at]
        objs[new].zone = None
        objs[old].zone = src
        t.current[cid] = old
        zones[src].insert(sidx, old)

    def encode(self, c: Codec) -> list[Any]:
        return ["v", self.cid, self.old, self.new, c.z(self.src), self.sidx, c.z(self.dst),
                self.at, c.entry(self.entry)]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return MoveOp(OP_MOVE, d[1], d[2], d[3], c.unkey(d[4]), d[5], c.unkey(d[6]), d[7],
                      c.unentry(d[8]))


class SetOp(NamedTuple):
    """One attribute of an object changes."""

    kind: OpKind
    oid: ObjId
    attr: str
    old: Any
    new: Any

    def apply(self, t: TableState) -> None:
        setattr(t.objs[self.oid], self.attr, self.new)
        if self.attr == "attached_to":
            t.hosting(self.new)

    def revert(self, t: TableState) -> None:
        setattr(t.objs[self.oid], self.attr, self.old)
        if self.attr == "attached_to":
            t.hosting(self.old)

    def encode(self, c: Codec) -> list[Any]:
        return ["s", self.oid, self.attr, c.val(self.attr, self.old), c.val(self.attr, self.new)]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return SetOp(OP_SET, d[1], d[2], c.unval(d[2], d[3]), c.unval(d[2], d[4]))


class InsertOp(NamedTuple):
    """An object id goes into a zone list at ``at``."""

    kind: OpKind
    key: ZoneKey
    at: int
    oid: ObjId

    def apply(self, t: TableState) -> None:
        t.zones[self.key].insert(self.at, self.oid)

    def revert(self, t: TableState) -> None:
        del t.zones[self.key][self.at]

    def encode(self, c: Codec) -> list[Any]:
        return ["i", c.z(self.key), self.at, self.oid]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return InsertOp(OP_INSERT, c.unkey(d[1]), d[2], d[3])


class DeleteOp(NamedTuple):
    """An object id leaves a zone list at ``at``."""

    kind: OpKind
    key: ZoneKey
    at: int
    oid: ObjId

    def apply(self, t: TableState) -> None:
        del t.zones[self.key][self.at]

    def revert(self, t: TableState) -> None:
        t.zones[self.key].insert(self.at, self.oid)

    def encode(self, c: Codec) -> list[Any]:
        return ["d", c.z(self.key), self.at, self.oid]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return DeleteOp(OP_DELETE, c.unkey(d[1]), d[2], d[3])


class OrderOp(NamedTuple):
    """A zone's order changes (a shuffle, a reordering)."""

    kind: OpKind
    key: ZoneKey
    old: tuple[ObjId, ...]
    new: tuple[ObjId, ...]

    def apply(self, t: TableState) -> None:
        t.zones[self.key] = list(self.new)

    def revert(self, t: TableState) -> None:
        t.zones[self.key] = list(self.old)

    def encode(self, c: Codec) -> list[Any]:
        return ["z", c.z(self.key), self.old, self.new]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return OrderOp(OP_ZONE_ORDER, c.unkey(d[1]), tuple(d[2]), tuple(d[3]))


class CurrentOp(NamedTuple):
    """Which object a card is now."""

    kind: OpKind
    cid: CardId
    old: ObjId | None
    new: ObjId

    def apply(self, t: TableState) -> None:
        t.current[self.cid] = self.new

    def revert(self, t: TableState) -> None:
        if self.old is None:
            del t.current[self.cid]
        else:
            t.current[self.cid] = self.old

    def encode(self, c: Codec) -> list[Any]:
        return ["c", self.cid, self.old, self.new]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return CurrentOp(OP_CURRENT, d[1], d[2], d[3])


class LineageOp(NamedTuple):
    """A card's lineage gains an entry."""

    kind: OpKind
    cid: CardId
    entry: LineageEntry

    def apply(self, t: TableState) -> None:
        t.lineage.setdefault(self.cid, []).append(self.entry)

    def revert(self, t: TableState) -> None:
        t.lineage[self.cid].pop()

    def encode(self, c: Codec) -> list[Any]:
        return ["l", self.cid, c.entry(self.entry)]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return LineageOp(OP_LINEAGE, d[1], c.unentry(d[2]))


class EffectOp(NamedTuple):
    """A replacement effect comes into force."""

    kind: OpKind
    effect: Effect

    def apply(self, t: TableState) -> None:
        t.effects.append(self.effect)

    def revert(self, t: TableState) -> None:
        t.effects.pop()

    def encode(self, c: Codec) -> list[Any]:
        return ["e", self.effect.to_json()]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return EffectOp(OP_EFFECT, Effect.from_json(d[1]))


class EffectEndOp(NamedTuple):
    """A replacement effect goes out of force (the ``at``-th of those in force)."""

    kind: OpKind
    at: int
    effect: Effect

    def apply(self, t: TableState) -> None:
        del t.effects[self.at]

    def revert(self, t: TableState) -> None:
        t.effects.insert(self.at, self.effect)

    def encode(self, c: Codec) -> list[Any]:
        return ["x", self.at, self.effect.to_json()]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        if not isinstance(d[1], int) or isinstance(d[1], bool):
            raise ValueError("an effect's place is a whole number")
        return EffectEndOp(OP_EFFECT_END, d[1], Effect.from_json(d[2]))


class MetaOp(NamedTuple):
    """A table setting changes (the active player, revealed tops, sideboards...)."""

    kind: OpKind
    name: str
    old: Any
    new: Any

    def apply(self, t: TableState) -> None:
        setattr(t, self.name, self.new)

    def revert(self, t: TableState) -> None:
        setattr(t, self.name, self.old)

    def encode(self, c: Codec) -> list[Any]:
        return ["m", self.name, c.meta(self.name, self.old), c.meta(self.name, self.new)]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return MetaOp(OP_META, d[1], c.unmeta(d[1], d[2]), c.unmeta(d[1], d[3]))


class LifeOp(NamedTuple):
    """A player's life total changes."""

    kind: OpKind
    player: str
    old: int
    new: int

    def apply(self, t: TableState) -> None:
        t.life[self.player] = self.new

    def revert(self, t: TableState) -> None:
        t.life[self.player] = self.old

    def encode(self, c: Codec) -> list[Any]:
        return ["f", self.player, self.old, self.new]

    @staticmethod
    def decode(c: Codec, d: list[Any]) -> Op:
        return LifeOp(OP_LIFE, d[1], d[2], d[3])


Op = MoveOp | SetOp | InsertOp | DeleteOp | OrderOp | CurrentOp | LineageOp | EffectOp \
    | EffectEndOp | MetaOp | LifeOp


# a saved change's tag (what each op's encode writes first) -> the kind of op it is:
# each decodes itself
SAVED: dict[str, Any] = {"v": MoveOp, "s": SetOp, "i": InsertOp, "d": DeleteOp,
                         "z": OrderOp, "c": CurrentOp, "l": LineageOp, "e": EffectOp, "x": EffectEndOp,
                         "m": MetaOp, "f": LifeOp}

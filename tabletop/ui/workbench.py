"""The judge's workbench: setting a table up for a demonstration in the window.

The Setup menu (and the matching entries of a zone's and a card's context menu) puts
any named card into any zone, takes a card off the table, puts replacement effects in
force and takes them out, and modifies an object. Each is one intent (engine/intents.py)
carried out by the engine, undone like any other action, and written by the recorder
as the scenario format's setup (before the first step) or as a step. While recording,
the Scenario dock takes each step's narration and "Expect this" on a card adds its
state to the step's expectations; saving asks for the title and summary and shows the
expectations proposed, to keep or drop each."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tabletop.engine import Card, intents
from tabletop.engine.model import CONTROLLED, ORDERED, CardId, Zone

if TYPE_CHECKING:
    from tabletop.engine.editions import Edition
    from tabletop.scenario.recorder import Recorder
    from tabletop.ui.window_parts import Window

IntentT = TypeVar("IntentT", bound=intents.Intent)

# replacement effects judges demonstrate most, by source: (watch, from, instead, affects);
# "{you}" is the player whose effect it is. The keys are the scenario format's.
KNOWN_EFFECTS: dict[str, tuple[Zone, str, Zone, str]] = {
    "Rest in Peace": (Zone.GRAVEYARD, "any", Zone.EXILE, "any"),
    "Leyline of the Void": (Zone.GRAVEYARD, "any", Zone.EXILE, "opponents-of:{you}"),
    "Wheel of Sun and Moon": (Zone.GRAVEYARD, "any", Zone.LIBRARY, "owner:{you}"),
    "Planar Void": (Zone.GRAVEYARD, "any", Zone.EXILE, "any"),
    "Kalitas, Traitor of Ghet": (Zone.GRAVEYARD, "battlefield", Zone.EXILE,
                                 "opponents-of:{you}"),
}
AFFECTS_WORDS = (("any", "any card"), ("owner:", "cards a player owns"),
                 ("opponents-of:", "cards a player's opponents own"),
                 ("tokens", "tokens only"), ("nontokens", "cards that are not tokens"),
                 ("card", "one card (the selected one)"))


def _zone_box(ed: Edition, zones: Sequence[Zone], chosen: Zone | None,
              any_text: str | None = None) -> QComboBox:
    box = QComboBox()
    if any_text is not None:
        box.addItem(any_text, "any")
    for z in zones:
        box.addItem(ed.zone_name(z), z)
    if chosen is not None:
        box.setCurrentIndex(max(0, box.findData(chosen)))
    return box


def _players_box(players: Sequence[str], chosen: str | None) -> QComboBox:
    box = QComboBox()
    for p in players:
        box.addItem(p, p)
    if chosen is not None and chosen in players:
        box.setCurrentIndex(list(players).index(chosen))
    return box


def _form_dialog(dlg: QDialog, form: QFormLayout, ok: str
                 ) -> tuple[QLabel, QDialogButtonBox]:
    """A dialog's form, then a line saying what is missing, then OK (named ``ok``) and
    Cancel."""
    problem = QLabel()
    problem.setTextFormat(Qt.TextFormat.PlainText)
    problem.setStyleSheet("color: #b00020")
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                               | QDialogButtonBox.StandardButton.Cancel)
    buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok)
    buttons.accepted.connect(dlg.accept)
    buttons.rejected.connect(dlg.reject)
    lay = QVBoxLayout(dlg)
    lay.addLayout(form)
    lay.addWidget(problem)
    lay.addWidget(buttons)
    # wide enough that the fields' examples are read whole, and no wider than a small
    # screen (1024 pixels)
    dlg.setMinimumWidth(480)
    return problem, buttons


class _SetUpDialog(QDialog):
    """A setup dialog whose OK button carries its intent out while it is open: what the
    engine refuses (an instant put onto the battlefield, a value out of range) is said on
    the dialog's problem line, and the dialog stays open with everything the judge chose,
    to change what was refused; it closes once the engine has done it."""

    problem: QLabel

    def __init__(self, parent: QWidget | None) -> None:
        super().__init__(parent)
        # given by the command that opens the dialog: carries the intent out and returns
        # the refusal's words, or None once done
        self.carry_out: Callable[[], str | None] | None = None

    def accept(self) -> None:
        refused = self.carry_out() if self.carry_out is not None else None
        if refused is None:
            super().accept()
        else:
            self.problem.setText(refused)


def parse_counters(text: str) -> tuple[tuple[str, int], ...] | None:
    """"+1/+1=2, charge" -> (("+1/+1", 2), ("charge", 1)); None when it cannot be read."""
    out: list[tuple[str, int]] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        kind, _, n = part.rpartition("=") if "=" in part else (part, "", "1")
        kind = " ".join(kind.split())
        if not kind or not n.strip().isdigit() or not 1 <= int(n) <= 1000:
            return None
        out.append((kind, int(n)))
    return tuple(out)


TYPE_TWO = "Type two letters of a name to choose from the card database."


class AddCardDialog(_SetUpDialog):
    """A named card into a zone: the name completed from the card database (its types
    asked when the database does not know it), whose it is, where, and its status."""

    def __init__(self, parent: QWidget | None, ed: Edition, zones: Sequence[Zone],
                 players: Sequence[str], hosts: Sequence[tuple[str, int]],
                 zone: Zone | None = None, player: str | None = None) -> None:
        super().__init__(parent)
        from tabletop.cards.db import default
        self.db = default()
        self.setWindowTitle("Add a card to the table")
        self.known: Card | None = None
        form = QFormLayout()
        self.name = QLineEdit()
        self.name.setPlaceholderText("a card's name, e.g. Serra Angel")
        self.name.setMaxLength(141)
        self.names = QStringListModel(self)
        comp = QCompleter(self.names, self)
        comp.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        comp.setFilterMode(Qt.MatchFlag.MatchContains)
        self.name.setCompleter(comp)
        self.name.textEdited.connect(self._complete)
        self.name.textChanged.connect(self._known)
        form.addRow("&Name:", self.name)
        self.found = QLabel()
        self.found.setTextFormat(Qt.TextFormat.PlainText)
        self.found.setWordWrap(True)
        # two lines kept for what the database says (a long name wraps): the dialog,
        # sized when it opened, does not grow, and a line set later would be squeezed
        self.found.setMinimumHeight(2 * self.found.fontMetrics().lineSpacing())
        self.found.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        form.addRow("", self.found)
        self.types = QLineEdit()
        self.types.setPlaceholderText("e.g. Legendary Creature — Angel")
        self.types.textChanged.connect(self._check)
        form.addRow("&Types:", self.types)
        self.owner = _players_box(players, player)
        form.addRow("&Owner:", self.owner)
        self.zone = _zone_box(ed, zones, zone or Zone.BATTLEFIELD)
        form.addRow("&Zone:", self.zone)
        self.controller = _players_box(players, player)
        form.addRow("&Controller:", self.controller)
        self.position = QComboBox()
        self.position.addItem("On top", "top")
        self.position.addItem("At the bottom", "bottom")
        form.addRow("&Place in the library:", self.position)
        self.tapped = QCheckBox("&Tapped")
        self.face_down = QCheckBox("&Face down")
        self.commander = QCheckBox("Its owner's co&mmander")
        for b in (self.tapped, self.face_down, self.commander):
            form.addRow("", b)
        self.counters = QLineEdit()
        self.counters.setPlaceholderText("e.g. +1/+1=2, charge=1")
        self.counters.textChanged.connect(self._check)
        form.addRow("Co&unters:", self.counters)
        self.host = QComboBox()
        self.host.addItem("nothing", None)
        for name, oid in hosts:
            self.host.addItem(name, oid)
        form.addRow("&Attached to:", self.host)
        self.owner.currentIndexChanged.connect(
            lambda _i: self.controller.setCurrentIndex(self.owner.currentIndex()))
        self.zone.currentIndexChanged.connect(lambda _i: self._check())
        self.problem, self.buttons = _form_dialog(self, form, "Add")
        self.found.setText(TYPE_TWO)
        self._check()

    def _complete(self, typed: str) -> None:
        self.names.setStringList(self.db.names_like(typed) if len(typed.strip()) >= 2 else [])

    def _known(self, name: str) -> None:
        self.known = self.db.card(name.strip()) if name.strip() else None
        if self.known is not None:
            k = self.known
            line = " ".join([*k.supertypes, *k.types])
            if k.subtypes:
                line += " — " + " ".join(k.subtypes)
            self.types.setText(line)
            self.found.setText(f"The card database knows {k.name}.")
        else:
            self.found.setText("Not in the card database: give its types." if name.strip()
                               else TYPE_TWO)
        self._check()

    def _zone(self) -> Zone:
        return Zone(self.zone.currentData())

    def _check(self) -> None:
        zone = self._zone()
        self.controller.setEnabled(zone in CONTROLLED)
        self.tapped.setEnabled(zone == Zone.BATTLEFIELD)
        self.host.setEnabled(zone == Zone.BATTLEFIELD and self.host.count() > 1)
        self.position.setEnabled(zone in ORDERED)
        why = ""
        if not self.name.text().strip():
            why = "Name the card."
        elif not self.card_types()[1]:
            why = "Give its types (Creature, Land, Instant…)."
        elif parse_counters(self.counters.text()) is None:
            why = "Counters are written kind=number, separated by commas."
        self.problem.setText(why)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not why)

    def card_types(self) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        """(supertypes, types, subtypes) as the Types line says them."""
        from tabletop.cards.db import split_type_line
        sup, types, sub = split_type_line(self.types.text())
        return tuple(sup), tuple(types), tuple(sub)

    def intent(self) -> intents.AddCard:
        sup, types, sub = self.card_types()
        name = " ".join(self.name.text().split())
        k = self.known
        card = k if k is not None and (k.supertypes, k.types, k.subtypes) == (sup, types, sub) \
            else Card(k.name if k else name, types, sub, sup)
        zone = self._zone()
        return intents.AddCard(
            card.name, zone, self.owner.currentData(), card.types, card.subtypes,
            card.supertypes, None,
            self.controller.currentData() if zone in CONTROLLED else None,
            self.tapped.isChecked() and zone == Zone.BATTLEFIELD, self.face_down.isChecked(),
            parse_counters(self.counters.text()) or (),
            self.host.currentData() if zone == Zone.BATTLEFIELD else None,
            self.commander.isChecked(), self.position.currentData(), card)


class EffectDialog(_SetUpDialog):
    """A replacement effect into force, with every key of the scenario format."""

    def __init__(self, parent: QWidget | None, ed: Edition, zones: Sequence[Zone],
                 players: Sequence[str], you: str, taken: Sequence[str],
                 card: tuple[int, str] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Put a replacement effect in force")
        self.taken, self.card = set(taken), card
        form = QFormLayout()
        self.source = QComboBox()
        self.source.setEditable(True)
        self.source.addItems(sorted(KNOWN_EFFECTS))
        self.source.setCurrentText("")
        line = self.source.lineEdit()
        if line is not None:
            line.setPlaceholderText("what creates it, e.g. Rest in Peace")
        form.addRow("&Source:", self.source)
        self.player = _players_box(players, you)
        form.addRow("Its &controller:", self.player)
        self.label = QLineEdit()
        self.label.setPlaceholderText("a short name steps use, e.g. leyline")
        self.label.setMaxLength(60)
        form.addRow("&Label:", self.label)
        self.watch = _zone_box(ed, zones, Zone.GRAVEYARD)
        form.addRow("A card put into (&watch):", self.watch)
        self.origin = _zone_box(ed, zones, None, "anywhere")
        form.addRow("&From:", self.origin)
        self.instead = _zone_box(ed, zones, Zone.EXILE)
        form.addRow("Goes &instead to:", self.instead)
        self.affects = QComboBox()
        for key, words in AFFECTS_WORDS:
            if key != "card" or card is not None:
                self.affects.addItem(words if key != "card" else f"only {card[1]}" if card
                                     else words, key)
        self.whose = _players_box(players, you)
        form.addRow("&Affects:", self.affects)
        form.addRow("… of the &player:", self.whose)
        self.optional = QCheckBox("Its &owner may decline it (optional)")
        form.addRow("", self.optional)
        self.problem, self.buttons = _form_dialog(self, form, "Put in force")
        self.source.currentTextChanged.connect(self._source)
        self.player.currentIndexChanged.connect(lambda _i: self._source(
            self.source.currentText()))
        self.label.textChanged.connect(lambda _t: self._check())
        self.affects.currentIndexChanged.connect(lambda _i: self._check())
        if card is not None:
            self.affects.setCurrentIndex(self.affects.findData("card"))
        self._check()

    def _source(self, text: str) -> None:
        """A known source fills the keys in (the judge may still change each)."""
        import re
        base = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
        label, n = base, 1
        while label in self.taken:
            n += 1
            label = f"{base}_{n}"
        self.label.setText(label)
        known = KNOWN_EFFECTS.get(text.strip())
        if known is not None:
            watch, origin, instead, affects = known
            self.watch.setCurrentIndex(max(0, self.watch.findData(watch)))
            self.origin.setCurrentIndex(max(0, self.origin.findData(origin)))
            self.instead.setCurrentIndex(max(0, self.instead.findData(instead)))
            kind = affects.split(":")[0] + (":" if ":" in affects else "")
            self.affects.setCurrentIndex(max(0, self.affects.findData(kind)))
            self.whose.setCurrentIndex(self.player.currentIndex())
        self._check()

    def _check(self) -> None:
        kind = self.affects.currentData()
        self.whose.setEnabled(kind in ("owner:", "opponents-of:"))
        label = self.label.text().strip()
        why = ("Give it a label." if not label else
               f"An effect labelled {label!r} is in force already." if label in self.taken
               else "")
        self.problem.setText(why)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not why)

    def intent(self) -> intents.AddEffect:
        kind = self.affects.currentData()
        affects = kind + self.whose.currentData() if kind in ("owner:", "opponents-of:") \
            else kind
        return intents.AddEffect(
            self.label.text().strip(), Zone(self.watch.currentData()),
            Zone(self.instead.currentData()), self.source.currentText().strip(),
            str(self.origin.currentData()), affects,
            intents.Ref(self.card[0]) if kind == "card" and self.card else None,
            self.optional.isChecked())


def _refused(res: Any) -> str:
    """What the engine said of a refused intent."""
    return "; ".join(e.text for e in res.events if e.text) or "Refused."


class SetupCommands:
    """The Setup menu's commands of a main window ``w``."""

    def __init__(self, w: Window) -> None:
        self.w = w
        self.dialog: QDialog | None = None  # the dialog open (tests answer it)

    def _at_the_desk(self) -> bool:
        if self.w.c.session is not None:
            self.w.show_message("A network table is played as dealt: set a demonstration "
                                "up at your own table (File > New table).")
            return False
        return True

    def _card(self, cid: int | None = None) -> int | None:
        """The card a command is for: the one whose menu it is, else the selected one."""
        if cid is not None:
            return cid
        items = self.w.scene.selected_cards()
        h = self.w.c.board.handle(items[0].oid) if items else None
        if h is None:
            self.w.show_message("Select a card first (click it).")
            return None
        return int(h.cid)

    def _ask(self, dlg: QDialog) -> bool:
        self.dialog = dlg
        try:
            return bool(dlg.exec())
        finally:
            self.dialog = None

    def _perform(self, intent: intents.Intent) -> Any:
        """The intent, its values checked first (as the wire's are): a value out of range
        is said in a dialog, and nothing is done."""
        try:
            intent.check()
        except intents.IntentError as e:
            self.w.error("Cannot set that up", str(e))
            return None
        return self.w.c.perform(intent)

    def _ask_to(self, dlg: _SetUpDialog, intent: Callable[[], IntentT],
                said: Callable[[IntentT], str]) -> None:
        """Open ``dlg``; its OK carries out the ``intent()`` it shows. A refusal (of
        the intent's values or by the engine) is said in the open dialog; once done, the
        status bar says ``said(intent)``."""
        def carry_out() -> str | None:
            it = intent()
            try:
                it.check()
            except intents.IntentError as e:
                return str(e)
            res = self.w.c.perform(it)
            if res is not None and res.rejected:
                return _refused(res)
            self._done(res, said(it))
            return None
        dlg.carry_out = carry_out
        self._ask(dlg)

    def _done(self, res: Any, said: str) -> None:
        if res is not None and res.events and not res.rejected:
            self.w.show_message(said)
        elif res is not None and res.rejected:
            self.w.show_message(_refused(res))

    # ---- cards ------------------------------------------------------------------------
    def add_card(self, zone: Zone | None = None, player: str | None = None) -> None:
        if not self._at_the_desk():
            return
        b = self.w.c.board
        from tabletop.engine.views import Seen
        hosts = [(f"{f.name} ({f.controller})", int(f.cid))  # the faces this viewer sees
                 for f in b.zones().get((None, Zone.BATTLEFIELD), []) if isinstance(f, Seen)]
        dlg = AddCardDialog(self.w.window(), b.edition, b.zones_on_the_table(), b.players,
                            hosts, zone, player or self.w.seat())
        self._ask_to(dlg, dlg.intent, lambda it: f"Added {it.name} "
                     f"({b.edition.zone_name(it.zone).lower()}).")

    def remove_card(self, cid: int | None = None) -> None:
        cid = self._card(cid) if self._at_the_desk() else None
        if cid is None:
            return
        res = self._perform(intents.RemoveCard(intents.Ref(cid)))
        self._done(res, "Took the card off the table (Edit > Undo puts it back).")

    def modify(self, cid: int | None = None) -> None:
        cid = self._card(cid) if self._at_the_desk() else None
        if cid is None:
            return
        dlg = QDialog(self.w.window())
        dlg.setWindowTitle("Modify the object")
        form = QFormLayout(dlg)
        text = QLineEdit()
        text.setPlaceholderText("what the effect does, e.g. gets +2/+2 and gains flying")
        text.setMaxLength(200)
        origin = QComboBox()
        for o, words in (("spell", "a spell (e.g. Giant Growth)"),
                         ("ability", "an activated or triggered ability"),
                         ("static", "a static ability (e.g. an anthem)")):
            origin.addItem(words, o)
        form.addRow("&Effect:", text)
        form.addRow("&From:", origin)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(False)
        text.textChanged.connect(lambda t: ok.setEnabled(bool(t.strip())))
        buttons.accepted.connect(dlg.accept)
        buttons.rejected.connect(dlg.reject)
        form.addRow(buttons)
        dlg.text, dlg.origin = text, origin  # type: ignore[attr-defined]  # for tests
        if not self._ask(dlg):
            return
        res = self._perform(intents.Modify(intents.Ref(cid), text.text().strip()[:200],
                                              origin.currentData()))
        self._done(res, "The effect applies to it.")

    # ---- effects ----------------------------------------------------------------------
    def add_effect(self, on_card: int | None = None) -> None:
        """A replacement effect into force (``on_card``: one affecting that card only)."""
        if not self._at_the_desk():
            return
        b = self.w.c.board
        card = None
        if on_card is not None:
            card = (on_card, getattr(b.face(on_card), "name", "this card"))
        dlg = EffectDialog(self.w.window(), b.edition, b.zones_on_the_table(), b.players,
                           self.w.seat(), [e.label for e in b.effects()], card)
        self._ask_to(dlg, dlg.intent, lambda it: f"In force: {it.source or it.label}.")

    def end_effect(self, label: str | None = None) -> None:
        if not self._at_the_desk():
            return
        effects = self.w.c.board.effects()
        if not effects:
            self.w.show_message("No replacement effect is in force.")
            return
        if label is None:
            from PySide6.QtWidgets import QInputDialog
            names = [f"{e.source or e.label} ({e.label})" for e in effects]
            dlg = QInputDialog(self.w.window())
            dlg.setWindowTitle("Take an effect out of force")
            dlg.setLabelText("The effect no longer in force:")
            dlg.setComboBoxItems(names)
            if not self._ask(dlg):
                return
            label = effects[names.index(dlg.textValue())].label
        res = self._perform(intents.EndEffect(label))
        self._done(res, f"No longer in force: {label}.")

    # ---- menus ------------------------------------------------------------------------
    def fill_menu(self, menu: QMenu) -> None:
        """The menu bar's Setup menu."""
        act = self.w._act  # type: ignore[attr-defined]  # the window's own helper
        act(menu, "&Add a card…", lambda: self.add_card(), "Ctrl+Alt+N")
        act(menu, "&Remove the card from the table", self.remove_card, "Ctrl+Alt+D")
        act(menu, "&Modify the card…", self.modify, "Ctrl+Alt+M")
        menu.addSeparator()
        act(menu, "Put an &effect in force…", lambda: self.add_effect(), "Ctrl+Alt+E")
        act(menu, "Take an effect &out of force…", lambda: self.end_effect(), "Ctrl+Alt+O")
        menu.addSeparator()
        act(menu, "E&xpect this (while recording)", self.expect_this, "Ctrl+Alt+X")

    def card_menu(self, menu: QMenu, cid: int) -> None:
        """A card's context menu: its Setup entries, at the desk."""
        if self.w.c.session is not None:
            return
        menu.addSeparator()
        sub = menu.addMenu("Setup")
        sub.addAction("Modify it…", lambda: self.modify(cid))
        sub.addAction("Put an effect on it in force…", lambda: self.add_effect(cid))
        sub.addAction("Remove it from the table", lambda: self.remove_card(cid))
        if self.w.c.recorder is not None:
            menu.addAction("Expect this", lambda: self.expect_this(cid))
        menu._setup = sub  # type: ignore[attr-defined]  # kept alive with the menu

    def zone_menu(self, menu: QMenu, zone: Zone, player: str | None) -> None:
        if self.w.c.session is not None:
            return
        menu.addSeparator()
        menu.addAction("Add a card here…", lambda: self.add_card(zone, player))
        if self.w.c.board.effects():
            menu.addAction("Take an effect out of force…", lambda: self.end_effect())

    # ---- recording --------------------------------------------------------------------
    def expect_this(self, cid: int | None = None) -> None:
        rec = self.w.c.recorder
        if rec is None:
            self.w.show_message("Expect this works while recording (File > Record a "
                                "scenario).")
            return
        cid = self._card(cid)
        if cid is None:
            return
        n = rec.expect(CardId(cid))
        if not n:
            self.w.show_message("Nothing recorded yet: expectations follow a step.")
            return
        self.w.show_message(f"Step {n} will expect where this card is now.")
        box = getattr(self.w.scenario_panel, "recording_box", None)
        if box is not None:
            box.refresh()


class RecordingBox(QWidget):
    """In the Scenario dock while recording: the steps recorded so far, and the
    narration of the last one (its ``say``), typed as the judge goes."""

    def __init__(self, w: Window, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.w = w
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.steps = QListWidget()
        self.steps.setWordWrap(True)
        self.say = QLineEdit()
        self.say.setPlaceholderText("What the audience should hear for the last step")
        self.say.textEdited.connect(self._said)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.heading)
        lay.addWidget(self.steps, 1)
        self.say_label = QLabel("Narration (say) for the last step:")
        lay.addWidget(self.say_label)
        lay.addWidget(self.say)
        self.save_button = QPushButton("Stop and save…")
        self.save_button.clicked.connect(self._stop)
        lay.addWidget(self.save_button)
        w.c.changed.connect(lambda _r: self.refresh())
        w.c.reset.connect(self.refresh)
        self.refresh()

    def _stop(self) -> None:
        """Stop recording and save: the File menu's Record entry unticked."""
        self.w.record_action.trigger()

    def _said(self, text: str) -> None:
        rec = self.w.c.recorder
        n = self.steps.count()
        if rec is not None and n:
            rec.says[n] = text

    def refresh(self) -> None:
        rec: Recorder | None = self.w.c.recorder
        self.setVisible(rec is not None)
        self.w.scenario_panel.show_player()
        if rec is None:
            return
        from tabletop.scenario.recorder import step_words
        steps = rec.steps
        n = len(steps)
        self.heading.setText(f"Recording — {n} step{'s' * (n != 1)} so far. "
                             f"Setup before the first step is the file's setup.")
        self.steps.clear()
        names = {label: str(d.get("name", label)) for label, d in rec.cards}
        names.update({str(s[k]): str(s["name"]) for s in steps for k in ("add_card",
                      "create_token", "wish") if k in s and "name" in s})
        for i, step in enumerate(steps, 1):
            line = f"{i}. {step_words(step, names)}"
            if rec.says.get(i):
                line += f"\n   “{rec.says[i]}”"
            if rec.wanted.get(i):
                wanted = len(rec.wanted[i])
                line += (f"\n   expects {wanted} card{'s' * (wanted != 1)} named with "
                         f"Expect this")
            QListWidgetItem(line, self.steps)
        self.steps.scrollToBottom()
        self.say.setEnabled(bool(n))
        self.say.setText(rec.says.get(n, "") if n else "")
        self.say_label.setText(f"Narration (say) for step {n}:" if n else
                               "Narration: after the first step")


class SaveRecordingDialog(QDialog):
    """Title, summary, and each proposed expectation to keep or drop."""

    def __init__(self, parent: QWidget | None, rec: Recorder) -> None:
        super().__init__(parent)
        self.setWindowTitle("Save the recorded scenario")
        self.rec = rec
        rec.text()  # works out the expectations to propose
        form = QFormLayout()
        self.title = QLineEdit(rec.title)
        form.addRow("&Title:", self.title)
        self.summary = QPlainTextEdit(rec.summary)
        self.summary.setPlaceholderText("A paragraph for the audience (optional)")
        self.summary.setMaximumHeight(80)
        form.addRow("&Summary:", self.summary)
        self.expects = QListWidget()
        self.items: dict[tuple[int, int], QListWidgetItem] = {}
        from tabletop.scenario.recorder import expectation_words
        for n, proposed in sorted(rec.proposed.items()):
            for i, x in enumerate(proposed):
                item = QListWidgetItem(f"Step {n}: {expectation_words(x)}", self.expects)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked)
                self.items[(n, i)] = item
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(QLabel("Expectations the recorder proposes (untick to drop one):"))
        lay.addWidget(self.expects, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(640, 480)

    def kept(self, n: int, i: int) -> bool:
        item = self.items.get((n, i))
        return item is None or item.checkState() == Qt.CheckState.Checked

    def apply(self) -> None:
        self.rec.title = " ".join(self.title.text().split()) or self.rec.title
        self.rec.summary = self.summary.toPlainText().strip()


def save_path_default(title: str) -> Path:
    import re

    from tabletop.ui import settings
    stem = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "recorded"
    return settings.documents() / f"{stem[:60]}.toml"

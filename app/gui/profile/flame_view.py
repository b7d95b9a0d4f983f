"""A profile's flame graph in the window, drawn from the same tree and colours as its SVG
(:mod:`app.core.profile.flame`): an icicle per entry (the outermost frame on top), a click
zooms into a frame and a click on a frame above it zooms back out, the search field
highlights the frames matching a regular expression and says their share, hovering shows a
frame's samples and share. Above it, the entry's shares as one stacked bar, class by class."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QMouseEvent, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.document.numbers import count_text, figure
from app.core.profile.flame import Node, colour, matched_samples, tree
from app.core.profile.result import ProfileEntry, ProfileResult
from app.core.profile.rules import SHARES, short_frame
from app.core.profile.stacks import shares

ROW = 18
BAR = 22  # the stacked bar of shares
HIGHLIGHT = QColor(230, 0, 230)


def _rgb(text: str) -> QColor:
    r, g, b = (int(x) for x in text[4:-1].split(","))
    return QColor(r, g, b)


class _Canvas(QGraphicsView):
    """The scene of one entry; tells its owner which frame was clicked."""

    def __init__(self, owner: FlameView) -> None:
        super().__init__()
        self.owner = owner
        self.setScene(QGraphicsScene(self))
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # always there: a bar that came and went would change the width, and the depth drawn
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        item = self.itemAt(event.position().toPoint())
        path = item.data(0) if item is not None else None
        if path is not None:
            self.owner.zoom(path)
        super().mousePressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.owner.later.start()  # once the resizing pauses, not at every step of a drag


class FlameView(QWidget):
    """The flame graph of a profile's entries (module doc)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries: list[ProfileEntry] = []
        self.root: Node | None = None
        self.path: tuple[str, ...] = ()  # the frames from the root to the zoomed one
        self.pattern: re.Pattern[str] | None = None
        self.items: list[tuple[QGraphicsRectItem, str]] = []
        self.entry_box = QComboBox()
        self.entry_box.currentIndexChanged.connect(self._entry_chosen)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search frames (a regular expression, any case)")
        self.search.setClearButtonEnabled(True)
        # A redraw of a large profile takes a fraction of a second: after typing pauses.
        self.later = QTimer(self)
        self.later.setSingleShot(True)
        self.later.setInterval(120)
        self.later.timeout.connect(self.redraw)
        self.search.textChanged.connect(lambda _text: self.later.start())
        self.found = QLabel("")
        self.found.setMinimumWidth(self.found.fontMetrics().horizontalAdvance("x" * 30))
        self.reset = QPushButton("Zoom out")
        self.reset.clicked.connect(lambda: self.zoom(self.path[:1]))
        row = QHBoxLayout()
        row.addWidget(QLabel("Entry:"))
        row.addWidget(self.entry_box, 1)
        row.addWidget(self.search, 1)
        row.addWidget(self.found)
        row.addWidget(self.reset)
        self.canvas = _Canvas(self)
        hint = QLabel(
            "Outermost frame on top, each as wide as its share of the timed calls' samples "
            "(every round's, pooled; the tables give each share's median over rounds); warm "
            "colours are interpreted code, cool ones compiled (the bar on top: each class). "
            "Click a frame to zoom in, one above it to zoom out; hover for its samples."
        )
        hint.setWordWrap(True)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(row)
        column.addWidget(hint)
        column.addWidget(self.canvas, 1)

    def set_result(self, result: Any) -> None:
        """Show ``result``'s entries (a :class:`ProfileResult`; anything else: nothing)."""
        self.entries = [
            e for e in getattr(result, "results", ()) if isinstance(result, ProfileResult)
        ]
        self.entries = [e for e in self.entries if e.stacks()]
        self.entry_box.blockSignals(True)
        self.entry_box.clear()
        self.entry_box.addItems([f"{e.label}, {e.input_label}" for e in self.entries])
        self.entry_box.blockSignals(False)
        self._entry_chosen(0)

    def _entry_chosen(self, index: int) -> None:
        if 0 <= index < len(self.entries):
            entry = self.entries[index]
            self.root = tree(entry.stacks(), entry.label)
            self.bar = shares(entry.stacks())
        else:
            self.root, self.bar = None, {}
        self.path = (self.root.name,) if self.root else ()
        self.redraw()

    def zoom(self, path: tuple[str, ...]) -> None:
        if self.root is not None and path:
            self.path = path
            self.redraw()

    def _read_pattern(self) -> bool:
        """The search field's pattern (None: empty or not a regular expression); False when
        it is not one."""
        text = self.search.text()
        try:
            self.pattern = re.compile(text, re.IGNORECASE) if text else None
        except re.error:
            self.pattern = None  # no highlight of an earlier pattern left
            return False
        return True

    def _node(self, path: tuple[str, ...]) -> Node:
        assert self.root is not None
        node = self.root
        for name in path[1:]:
            node = node.children[name]
        return node

    def redraw(self) -> None:
        self.later.stop()
        readable = self._read_pattern()
        self._draw()
        if not readable:
            self.found.setText("not a regular expression")

    def _draw(self) -> None:
        scene = self.canvas.scene()
        self.metrics = QFontMetrics(scene.font())
        scene.clear()
        self.items = []
        if self.root is None:
            scene.addSimpleText("No samples of timed calls to draw.")
            self.found.setText("")
            return
        width = max(200.0, self.canvas.viewport().width() - 4.0)
        self._draw_bar(scene, width)
        top = BAR + 8
        for depth in range(len(self.path) - 1):  # the zoomed frame's ancestors
            self._box(
                scene,
                self.path[: depth + 1],
                self._node(self.path[: depth + 1]),
                0,
                width,
                top + depth * ROW,
                depth,
            )
        zoomed = self._node(self.path)
        self._layout(scene, self.path, zoomed, 0.0, width, zoomed.value, top, len(self.path) - 1)
        if self.pattern is None:
            self.found.setText("")
        else:
            hit = matched_samples(self.root, self.pattern)
            self.found.setText(f"matched: {figure(100 * hit / self.root.value)} % of samples")
        scene.setSceneRect(QRectF(0, 0, width, scene.itemsBoundingRect().bottom() + 4))

    def _draw_bar(self, scene: QGraphicsScene, width: float) -> None:
        x = 0.0
        for share in SHARES:
            fraction = self.bar.get(share.name, 0.0)
            if not fraction:
                continue
            w = width * fraction
            rect = scene.addRect(QRectF(x, 0, w, BAR), QPen(Qt.PenStyle.NoPen))
            rect.setBrush(QBrush(_rgb(colour(f"x ({share.name})", 2, share=share))))
            rect.setToolTip(
                f"{share.name}: {figure(100 * fraction)} % of the samples\n{share.meaning}"
            )
            self._text(scene, f"{share.name} {figure(100 * fraction)} %", x, 0, w, BAR)
            x += w

    def _layout(
        self,
        scene: QGraphicsScene,
        path: tuple[str, ...],
        node: Node,
        x: float,
        width: float,
        zoom_value: int,
        top: float,
        depth: int,
    ) -> None:
        """Draw ``node`` and its children, as wide as their share of ``zoom_value``."""
        w = width * node.value / zoom_value
        if w < 0.5:
            return
        self._box(scene, path, node, x, w, top + depth * ROW, depth)
        for child in sorted(node.children.values(), key=lambda n: n.name):
            self._layout(scene, (*path, child.name), child, x, width, zoom_value, top, depth + 1)
            x += width * child.value / zoom_value

    def _box(
        self,
        scene: QGraphicsScene,
        path: tuple[str, ...],
        node: Node,
        x: float,
        w: float,
        y: float,
        depth: int,
    ) -> bool:
        assert self.root is not None
        matched = depth > 1 and self.pattern is not None and bool(self.pattern.search(node.name))
        rect = scene.addRect(QRectF(x, y, w, ROW - 1), QPen(QColor("white"), 0.5))
        rect.setBrush(QBrush(HIGHLIGHT if matched else _rgb(colour(node.name, depth))))
        share = 100 * node.value / self.root.value
        rect.setToolTip(f"{node.name}\n{count_text(node.value)} samples, {figure(share)} %")
        rect.setData(0, path)
        self.items.append((rect, node.name))
        label = self._text(scene, short_frame(node.name), x, y, w, ROW - 1)
        if label is not None:
            label.setData(0, path)
        return matched

    def _text(
        self, scene: QGraphicsScene, text: str, x: float, y: float, w: float, h: float
    ) -> QGraphicsSimpleTextItem | None:
        metrics = self.metrics
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, int(w - 6))
        if len(shown) < 3:
            return None
        item = scene.addSimpleText(shown)
        item.setPos(x + 3, y + (h - metrics.height()) / 2)
        item.setAcceptHoverEvents(False)
        return item

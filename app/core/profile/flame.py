"""A profile's flame graph as one self-contained SVG (as Brendan Gregg's flamegraph.pl draws
it, upside down: an icicle, the outermost frame on top): one graph per entry, every frame a
box as wide as its share of the entry's timed samples, coloured by its class. In a browser, a
click zooms into a frame (a click on the entry's top bar zooms out), "Search" highlights the
frames matching a regular expression and says their share; hovering shows a frame's samples
and share."""

from __future__ import annotations

import colorsys
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from app.core.document.numbers import count_text, figure
from app.core.profile.result import ProfileResult
from app.core.profile.rules import INTERPRETED, SHARES, Share, classify, short_frame
from app.core.profile.stacks import SEPARATOR

WIDTH = 1200
ROW = 17
FONT = 11
CHAR_PX = 6.6  # the width of a character at FONT px, for cutting names to their box
MIN_PX = 0.3  # a frame narrower than this is left out (flamegraph.pl's minwidth)
# Interpreted classes red to yellow, compiled ones cyan to blue (magenta marks a search hit).
_HUES = {
    s.name: 0.02 + 0.03 * i if s.group == INTERPRETED else 0.42 + 0.05 * (i - 5)
    for i, s in enumerate(SHARES)
}


@dataclass
class Node:
    name: str
    value: int = 0
    children: dict[str, Node] = field(default_factory=dict)


def tree(stacks: Mapping[str, int], root: str) -> Node:
    """The stacks as a tree of frames under a node named ``root``."""
    top = Node(root)
    for stack, count in stacks.items():
        top.value += count
        node = top
        for frame in stack.split(SEPARATOR):
            node = node.children.setdefault(frame, Node(frame))
            node.value += count
    return top


def matched_samples(node: Node, pattern: re.Pattern[str], depth: int = 0) -> int:
    """The samples under frames whose name ``pattern`` finds (a match's own matching
    descendants not counted twice); the entry and direction frames (depths 0 and 1) are
    labels, not frames, and never match."""
    if depth > 1 and pattern.search(node.name):
        return node.value
    return sum(matched_samples(c, pattern, depth + 1) for c in node.children.values())


def colour(frame: str, depth: int, share: Share | None = None) -> str:
    """A frame's fill: its class's hue (interpreted warm, compiled cool; ``share`` names the
    class instead of the frame's own), its lightness varied by its name so neighbours differ;
    the entry and direction frames grey."""
    if depth <= 1:
        return "rgb(205,205,205)"
    share = share or classify(frame)
    hue = _HUES[share.name]
    jitter = (zlib.crc32(frame.encode()) % 1000) / 1000
    r, g, b = colorsys.hls_to_rgb(hue + 0.03 * jitter, 0.62 + 0.12 * jitter, 0.75)
    return f"rgb({round(r * 255)},{round(g * 255)},{round(b * 255)})"


def _label(name: str, width: float) -> str:
    fits = int((width - 6) / CHAR_PX)
    if fits < 3:
        return ""
    return name if len(name) <= fits else name[: fits - 2] + ".."


def _frames(node: Node, total: int, x: float, depth: int, top: float, out: list[str]) -> int:
    """SVG boxes of ``node`` and its children; returns the deepest depth drawn."""
    width = WIDTH * node.value / total
    if width < MIN_PX:
        return depth - 1
    y = top + depth * ROW
    share = 100 * node.value / total
    title = f"{node.name} ({count_text(node.value)} samples, {figure(share)} %)"
    out.append(
        f'<g class="f" data-x="{x / WIDTH:.6f}" data-w="{node.value / total:.6f}" '
        f'data-d="{depth}" data-n={quoteattr(node.name)}><title>{escape(title)}</title>'
        f'<rect x="{x:.2f}" y="{y}" width="{width:.2f}" height="{ROW - 1}" '
        f'fill="{colour(node.name, depth)}" rx="2"/>'
        f'<text x="{x + 3:.2f}" y="{y + ROW - 5}">'
        f"{escape(_label(short_frame(node.name), width))}</text></g>"
    )
    deepest = depth
    for child in sorted(node.children.values(), key=lambda n: n.name):
        deepest = max(deepest, _frames(child, total, x, depth + 1, top, out))
        x += WIDTH * child.value / total
    return deepest


_SCRIPT = """
function frames(s){return Array.from(s.querySelectorAll('g.f'));}
function fit(g,x,w){const r=g.querySelector('rect'),t=g.querySelector('text');
 r.setAttribute('x',x);r.setAttribute('width',w);t.setAttribute('x',x+3);
 const n=g.dataset.n,c=Math.floor((w-6)/6.6);
 t.textContent=c<3?'':(n.length<=c?n:n.slice(0,c-2)+'..');}
function zoom(g){const s=g.closest('g.entry'),x0=+g.dataset.x,w0=+g.dataset.w,d0=+g.dataset.d;
 for(const f of frames(s)){const x=+f.dataset.x,w=+f.dataset.w,d=+f.dataset.d;
  const inside=x>=x0-1e-9&&x+w<=x0+w0+1e-9&&d>=d0, above=d<d0&&x<=x0+1e-9&&x+w>=x0+w0-1e-9;
  f.style.display=(inside||above)?'':'none';
  if(inside)fit(f,(x-x0)/w0*W,w/w0*W);else if(above)fit(f,0,W);}}
function search(){const re=prompt('Frames matching (a regular expression):');if(re===null)return;
 let rx;try{rx=new RegExp(re,'i');}catch(e){alert(e.message);return;}
 for(const s of document.querySelectorAll('g.entry')){let hit=0;const seen=[];
  for(const f of frames(s)){const m=re!==''&&+f.dataset.d>1&&rx.test(f.dataset.n);
   f.querySelector('rect').style.fill=m?'rgb(230,0,230)':'';
   const x=+f.dataset.x,w=+f.dataset.w;
   if(m&&!seen.some(p=>x>=p[0]&&x+w<=p[0]+p[1]+1e-9)){seen.push([x,w]);hit+=w;}}
  s.querySelector('text.found').textContent=re===''?'':'matched: '+(100*hit).toFixed(1)+' %';}}
document.addEventListener('click',e=>{const g=e.target.closest('g.f');if(g)zoom(g);});
"""


def flame_svg(result: ProfileResult) -> str:
    """The whole SVG document (module doc)."""
    body: list[str] = []
    top = 40
    for e in result.results:
        stacks = e.stacks()
        total = sum(stacks.values())
        if not total:
            continue
        title = f"{e.label}, {e.input_label}: {count_text(total)} samples of timed calls"
        body.append(f'<g class="entry"><text class="h" x="0" y="{top - 8}">{escape(title)}</text>')
        body.append(f'<text class="found" x="{WIDTH}" y="{top - 8}" text-anchor="end"></text>')
        out: list[str] = []
        deepest = _frames(tree(stacks, e.label), total, 0.0, 0, top, out)
        body.extend(out)
        body.append("</g>")
        top += (deepest + 1) * ROW + 40
    if not body:
        body.append(f'<text class="h" x="0" y="{top}">No samples of timed calls to draw.</text>')
        top += 20
    legend = " · ".join(s.name for s in SHARES)
    height = top + 20
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="Verdana, sans-serif" font-size="{FONT}">\n'
        "<style>g.f{cursor:pointer} g.f:hover rect{stroke:black;stroke-width:0.5} "
        "text.h{font-size:13px;font-weight:bold} text.b{cursor:pointer;fill:#0645ad}</style>\n"
        f"<script><![CDATA[const W={WIDTH};{_SCRIPT}]]></script>\n"
        f'<text class="h" x="0" y="14">Where the time goes (icicle: outermost frame on top; '
        f"click a frame to zoom, the top bar to zoom out)</text>\n"
        f'<text class="b" x="{WIDTH}" y="14" text-anchor="end" onclick="search()">Search</text>\n'
        + "\n".join(body)
        + f'\n<text x="0" y="{height - 6}" fill="#555">Classes, warm = interpreted, cool = '
        f"compiled: {escape(legend)}</text>\n</svg>\n"
    )

"""The balance report as one self-contained HTML file: inline SVG charts, plain
tables, a few lines of script to sort them, and the figures themselves as JSON.

Pure functions of the figures dict; every text from a deck file is escaped.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

CSS = """
.warning { background: #fff3cd; border: 1px solid #d9a400; padding: .5em .8em; }
body { font: 15px/1.45 Georgia, 'Times New Roman', serif; margin: 2em auto; max-width: 72em;
       color: #222; background: #fbf8f1; padding: 0 1em; }
h1, h2 { font-weight: normal; border-bottom: 1px solid #bbb; }
.charts { display: flex; flex-wrap: wrap; gap: 2em; }
figure { margin: 0; } figcaption { font-size: 90%; color: #555; max-width: 30em; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 2px 6px; border-bottom: 1px solid #ddd; text-align: right; }
th { cursor: pointer; background: #eee8da; position: sticky; top: 0; }
td.name, th.name { text-align: left; }
tr.clear td { background: #f6d9c6; font-weight: bold; }
.note { color: #555; font-size: 90%; }
svg text { font: 11px sans-serif; fill: #333; }
@media print { th { position: static; } }
"""

SORT_JS = """
document.querySelectorAll('table.sortable th').forEach((th, col) => {
  th.addEventListener('click', () => {
    const body = th.closest('table').tBodies[0];
    const rows = [...body.rows];
    const dir = th.dataset.dir === 'asc' ? -1 : 1; th.dataset.dir = dir === 1 ? 'asc' : 'desc';
    const key = r => { const v = r.cells[col].dataset.v ?? r.cells[col].textContent;
                       const n = parseFloat(v); return isNaN(n) ? v : n; };
    rows.sort((a, b) => { const x = key(a), y = key(b);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y
              : String(x).localeCompare(String(y));
      return c * dir; });
    rows.forEach(r => body.appendChild(r));
  });
});
"""


def _fmt(x: float | None, digits: int = 1, pct: bool = False) -> str:
    if x is None:
        return "–"
    return f"{x * 100:.{digits}f}%" if pct else f"{x:.{digits}f}"


def bar_chart_ci(rows: list[dict[str, Any]], label: str, expected: float, width: int = 360,
                 height: int = 220) -> str:
    """Bars with 95% interval whiskers and a dashed line at the fair share."""
    n = max(1, len(rows))
    top: float = max([1e-9, expected, *(r["ci95"][1] for r in rows)]) * 1.1
    left, bottom, plot_h = 40, 30, height - 45
    step = (width - left - 10) / n

    def y(v: float) -> float:
        return height - bottom - v / top * plot_h

    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="{escape(label)}">']
    for t in range(0, 5):
        v = top * t / 4
        parts.append(f'<line x1="{left}" x2="{width - 5}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'stroke="#ddd"/><text x="{left - 4}" y="{y(v) + 4:.1f}" '
                     f'text-anchor="end">{v * 100:.0f}%</text>')
    for i, r in enumerate(rows):
        x = left + i * step + step * 0.15
        w = step * 0.7
        parts.append(f'<rect x="{x:.1f}" y="{y(r["share"]):.1f}" width="{w:.1f}" '
                     f'height="{y(0) - y(r["share"]):.1f}" fill="#6b5b95">'
                     f'<title>{r["share"] * 100:.1f}% (95%: {r["ci95"][0] * 100:.1f}–'
                     f'{r["ci95"][1] * 100:.1f}%)</title></rect>')
        cx = x + w / 2
        lo, hi = y(r["ci95"][0]), y(r["ci95"][1])
        parts.append(f'<path d="M{cx:.1f} {lo:.1f}V{hi:.1f}M{cx - 6:.1f} {lo:.1f}h12M{cx - 6:.1f} '
                     f'{hi:.1f}h12" stroke="#222" fill="none"/>')
        parts.append(f'<text x="{cx:.1f}" y="{height - bottom + 14}" text-anchor="middle">'
                     f'{escape(label)} {i + 1}</text>')
    parts.append(f'<line x1="{left}" x2="{width - 5}" y1="{y(expected):.1f}" y2="{y(expected):.1f}" '
                 'stroke="#c0392b" stroke-dasharray="5 3"/>')
    parts.append("</svg>")
    return "".join(parts)


def histogram(hist: list[list[int]], label: str, width: int = 420, height: int = 220,
              colour: str = "#4a7c59") -> str:
    """Counts by value, one bar per value (values are few: rounds, Family Values)."""
    if not hist:
        return "<p>No data.</p>"
    lo, hi = hist[0][0], hist[-1][0]
    values = dict((v, c) for v, c in hist)
    step = 5 if all(v % 5 == 0 for v in values) else 1
    xs = list(range(lo, hi + 1, step))
    top = max(values.values())
    left, bottom, plot_h = 34, 30, height - 45
    bw = (width - left - 10) / len(xs)
    parts = [f'<svg width="{width}" height="{height}" role="img" aria-label="{escape(label)}">']
    for t in range(0, 5):
        v = top * t / 4
        yy = height - bottom - v / top * plot_h
        parts.append(f'<line x1="{left}" x2="{width - 5}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#ddd"/>'
                     f'<text x="{left - 4}" y="{yy + 4:.1f}" text-anchor="end">{v:.0f}</text>')
    every = max(1, len(xs) // 10)
    for i, v in enumerate(xs):
        c = values.get(v, 0)
        h = c / top * plot_h
        x = left + i * bw
        parts.append(f'<rect x="{x + 0.5:.1f}" y="{height - bottom - h:.1f}" width="{max(bw - 1, 1):.1f}" '
                     f'height="{h:.1f}" fill="{colour}"><title>{escape(label)} {v}: {c}</title></rect>')
        if i % every == 0:
            parts.append(f'<text x="{x + bw / 2:.1f}" y="{height - bottom + 14}" '
                         f'text-anchor="middle">{v}</text>')
    parts.append("</svg>")
    return "".join(parts)


def diff_bar(diff: float | None, clear: bool, width: int = 90) -> str:
    """A small centred bar for a win-share difference between -50 and +50 points."""
    if diff is None:
        return ""
    mid = width / 2
    w = max(-mid, min(mid, diff / 0.5 * mid))
    x = mid if w >= 0 else mid + w
    colour = "#c0392b" if clear else "#999"
    return (f'<svg width="{width}" height="10"><line x1="{mid}" x2="{mid}" y1="0" y2="10" stroke="#333"/>'
            f'<rect x="{x:.1f}" y="2" width="{abs(w):.1f}" height="6" fill="{colour}"/></svg>')


def _seat_table(rows: list[dict[str, Any]], label: str) -> str:
    body = "".join(
        f"<tr><td class=name>{escape(label)} {r['seat']}</td><td>{_fmt(r['share'], pct=True)}</td>"
        f"<td>{_fmt(r['ci95'][0], pct=True)} – {_fmt(r['ci95'][1], pct=True)}</td></tr>" for r in rows)
    return (f"<table><thead><tr><th class=name>{escape(label)}</th><th>win share</th>"
            f"<th>95% interval</th></tr></thead><tbody>{body}</tbody></table>")


def _card_rows(fig: dict[str, Any]) -> str:
    games = max(1, fig["games"])
    rows = []
    for c in fig["cards"]:
        played = c["played"]
        own = c["on_own"] / played if played else None
        other = c["on_other"] / played if played else None
        diff = c["win_share_difference"]
        rows.append(
            f'<tr class="{"clear" if c["clear"] else ""}" data-id="{escape(c["id"])}">'
            f'<td class=name>{escape(c["name"])}</td>'
            f'<td class=name>{escape(c["type"].replace("_", " "))}</td>'
            f'<td data-v="{c["drawn"]}">{c["drawn"] / games:.2f}</td>'
            f'<td data-v="{played}">{played / games:.2f}</td>'
            f'<td data-v="{own if own is not None else -1}">{_fmt(own, 0, pct=True)}</td>'
            f'<td data-v="{other if other is not None else -1}">{_fmt(other, 0, pct=True)}</td>'
            f'<td data-v="{c["cancelled"]}">{c["cancelled"]}</td>'
            f'<td data-v="{c["mean_self_worth_effect"] if c["mean_self_worth_effect"] is not None else 0}">'
            f'{_fmt(c["mean_self_worth_effect"])}</td>'
            f'<td data-v="{c["win_share_played"] if c["win_share_played"] is not None else -1}">'
            f'{_fmt(c["win_share_played"], pct=True)}</td>'
            f'<td data-v="{diff if diff is not None else 0}">'
            f'{"" if diff is None else f"{diff * 100:+.1f}"}</td>'
            f'<td data-v="{diff if diff is not None else 0}">{diff_bar(diff, c["clear"])}</td>'
            f'<td data-v="{c["p_value"] if c["p_value"] is not None else 2}">'
            f'{_fmt(c["p_value"], 3)}{" ✱" if c["clear"] else ""}</td></tr>')
    return "".join(rows)


def _backs_section(fig: dict[str, Any]) -> str:
    backs = fig.get("guests_and_stories") or []
    if not backs:
        return ""
    games = max(1, fig["games"])
    rows = "".join(
        f'<tr data-id="{escape(b["id"])}"><td class=name>{escape(b["name"])}</td>'
        f'<td class=name>{escape(b["type"])}</td><td>{b["claims"] / games:.2f}</td>'
        f'<td>{b["follows"] / games:.2f}</td><td>{_fmt(b["win_share_claimed"], pct=True)}</td></tr>'
        for b in backs)
    return ("<h2>Guests and Stories</h2><p>Per game: how often each Story was claimed (R-H5) and each "
            "Guest followed a card into another family (R-H7); the win share of players who claimed "
            "the Story.</p><table class=sortable id=backs><thead><tr><th class=name>card</th>"
            "<th class=name>type</th><th>claims / game</th><th>follows / game</th>"
            f"<th>win share if claimed</th></tr></thead><tbody>{rows}</tbody></table>")


def _cap_warning(fig: dict[str, Any]) -> str:
    """The same warning as ``gloom deck check --simulate``: too many capped games."""
    warning = fig.get("cap_warning")
    return f'<p class="warning"><b>Warning:</b> {escape(warning)}</p>' if warning else ""


def render_report(fig: dict[str, Any]) -> str:
    """The whole report page."""
    n, games = fig["players"], fig["games"]
    deck = fig["deck"]
    title = f"Balance report: {deck['name']}"
    bots = ", ".join(dict.fromkeys(fig["bots"]))
    rounds, fvs = fig["rounds"], fig["family_values"]
    clear = [c for c in fig["cards"] if c["clear"]]
    clear_list = ", ".join(escape(c["name"]) for c in clear) or "none"
    data = json.dumps(fig).replace("</", "<\\/")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{CSS}</style></head><body>
<h1>{escape(title)}</h1>
<p>{games} games for {n} players between <b>{escape(bots)}</b> bots; sets:
{escape(", ".join(deck["sets"]))}; run seed {fig["seed"]}
({fig["capped_games"]} game(s) ended at the turn cap). Every game can be replayed:
<code>gloom simulate</code> with the same seed plays the same games.</p>
{_cap_warning(fig)}
<h2>Who wins</h2>
<div class="charts">
<figure>{bar_chart_ci(fig["win_share_by_seat"], "seat", 1 / n)}
<figcaption>Win share by seat, with 95% Wilson intervals. The dashed line is a fair
share (1/{n}). Ties share a win.</figcaption></figure>
<figure>{bar_chart_ci(fig["win_share_by_turn_order"], "turn", 1 / n)}
<figcaption>Win share by place in the turn order (turn 1 is the player who went first).
</figcaption></figure>
<div>{_seat_table(fig["win_share_by_seat"], "seat")}<br>
{_seat_table(fig["win_share_by_turn_order"], "turn")}</div>
</div>

<h2>How long, how gloomy</h2>
<div class="charts">
<figure>{histogram(rounds["histogram"], "rounds")}
<figcaption>Game length in rounds: mean {rounds["mean"]:.1f}, median {rounds["median"]},
from {rounds["min"]} to {rounds["max"]}.</figcaption></figure>
<figure>{histogram(fvs["histogram"], "Family Value", colour="#8e4a49")}
<figcaption>Family Values at the end of the game, every player: mean {fvs["mean"]:.1f};
the winners' mean is {fvs["winning_mean"]:.1f} (lowest wins).</figcaption></figure>
</div>

<h2>Cards</h2>
<p>Per game: how often each card was drawn and played; on whose Character (the player's own
or another's); plays cancelled by a response; the mean change in the target's Self-Worth
once the card lay on its stack; the win share of players who played it, and the difference
from the players who did not. A difference is flagged <b>✱ clear</b> when its p-value
(a pooled two-proportion z-test) is below {fig["clear_threshold"]:.2g}: 5% shared out
over every card tested (Bonferroni), so a flag is rarely chance. Cards played or skipped in
fewer than 20 player-games are not tested. A difference is an association, not a cause:
a card may be played by players already winning.</p>
<p>Clear differences: {clear_list}.</p>
<table class="sortable" id="cards"><thead><tr><th class=name>card</th><th class=name>type</th>
<th>drawn / game</th><th>played / game</th><th>on own</th><th>on other's</th><th>cancelled</th>
<th>mean Δ Self-Worth</th><th>win share if played</th><th>difference (points)</th><th></th>
<th>p</th></tr></thead>
<tbody>{_card_rows(fig)}</tbody></table>
{_backs_section(fig)}
<p class="note">Click a column heading to sort. The figures are also in this page as JSON
(<code>script#figures</code>), and <code>gloom balance ... --json</code> prints them.</p>
<script type="application/json" id="figures">{data}</script>
<script>{SORT_JS}</script>
</body></html>
"""

// The SVG board: any size 5..25, coordinates, stones with team marks, last move, territory map,
// a keyboard cursor (arrow keys, Enter plays) and an ARIA grid naming every point and what is on it.
import { LETTERS, vertex } from './format.js';
import { GridBoard } from './gridboard.js';
import { teamStyle, territorySvg } from './palette.js';
import { PressHold } from './presshold.js';

const S = 10; // one grid step in SVG units

function starPoints(size) {
  if (size < 7) return [];
  const edge = size >= 13 ? 3 : 2;
  const lines = [edge, size - 1 - edge];
  const mid = (size - 1) / 2;
  const odd = size % 2 === 1;
  const pts = [];
  for (const r of lines) for (const c of lines) pts.push([c, r]);
  if (odd) {
    pts.push([mid, mid]);
    if (size >= 19) for (const e of lines) pts.push([mid, e], [e, mid]);
  }
  return pts;
}

/** A cross over a stone judged dead: red with a light halo, so it shows on stones of every colour. */
export function deadMark(x, y, d) {
  const path = `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}`;
  return `<g class="dead-mark"><path class="halo" d="${path}"/><path d="${path}"/></g>`;
}

/** A dashed ring on a stone in seki (alive, though the opponent surrounds it), haloed like the cross. */
export function sekiMark(x, y, r) {
  return `<g class="seki-mark"><circle class="halo" cx="${x}" cy="${y}" r="${r}"/><circle cx="${x}" cy="${y}" r="${r}"/></g>`;
}

/** A short dash on a dame point (an empty point that counts for nobody): no team's mark is a dash. */
export function dameMark(x, y, d) {
  const path = `M${x - d} ${y}H${x + d}`;
  return `<g class="dame-mark"><path class="halo" d="${path}"/><path d="${path}"/></g>`;
}

export class BoardView extends GridBoard {
  /**
   * handlers: onActivate(p) on a press released on p (or a click) or Enter, onHover(p | null) as the pointer
   * moves, onCursor(p) when the keyboard cursor moves, onKey(event) for keys the board does not use.
   */
  constructor(host, handlers = {}) {
    super(host, handlers, 'Go board');
    this.svg.classList.add('board-go');
    this.overlayState = {};
    // Mouse and touch choose a point on release; guide lines show the held point (presshold.js).
    this.press = new PressHold(this.svg, {
      pointAt: (x, y) => this.pointAt(x, y),
      onHold: (p) => this.mark({ guide: p }),
      onRelease: (p) => {
        this.setCursor(p, false);
        this.activate(p, false);
      },
    });
  }

  /** The point whose cell is at client coordinates (x, y), or null: off the board, or something covers it. */
  pointAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const cell = el && el.closest ? el.closest('[data-p]') : null;
    return cell && this.hits.contains(cell) ? Number(cell.dataset.p) : null;
  }

  /** Pointer events by where they are: a held pointer is captured by the whole board. */
  pointOf(event) {
    return event.type.startsWith('pointer') ? this.pointAt(event.clientX, event.clientY) : super.pointOf(event);
  }

  get size() {
    return this.view.size;
  }

  pointed(p) {
    this.handlers.onHover?.(p);
  }

  activate(p, keyboard) {
    this.handlers.onActivate?.(p, keyboard);
  }

  cursorMoved(p) {
    this.handlers.onCursor?.(p);
  }

  drawOverlay() {
    this.overlay(this.overlayState);
  }

  x(p) {
    return this.margin + (p % this.view.size) * S;
  }

  y(p) {
    return this.margin + (this.view.size - 1 - Math.floor(p / this.view.size)) * S;
  }

  /**
   * view: {size, board (team per point, 0 empty), palette, coords, last (point|null), territory (owner per
   * point|null), dead (Set of points), seki (Set of points: stones in seki), dame (Set of points: empty points
   * that count for nobody), shade (per point {team, strength 0..1} or null: the Area estimate), label,
   * pressable (a press may play: guide lines show while it is held, and touch does not scroll the page)}
   */
  render(view) {
    const sizeChanged = !this.view || this.view.size !== view.size || this.view.coords !== view.coords;
    this.view = view;
    const n = view.size;
    this.margin = view.coords ? 1.5 * S : 0.7 * S;
    const m = this.margin;
    const full = 2 * m + (n - 1) * S;
    this.svg.setAttribute('viewBox', `0 0 ${full} ${full}`);
    this.svg.setAttribute('aria-label', view.label || `Go board ${n} by ${n}`);
    this.svg.dataset.size = String(n);
    this.svg.style.touchAction = view.pressable ? 'none' : ''; // a finger held on the board aims, not scrolls
    this.svg.dataset.palette = String(view.palette).split('/')[0];
    if (sizeChanged) this.base.innerHTML = this.grid(n, m, full, view.coords);
    this.marks.innerHTML = this.stones(view);
    this.hitLayer(view, sizeChanged);
    this.overlay(this.overlayState);
  }

  grid(n, m, full, coords) {
    const end = m + (n - 1) * S;
    let out = `<rect class="wood" x="0" y="0" width="${full}" height="${full}" rx="2" fill="${this.woodPaint()}"/>`;
    let lines = '';
    for (let i = 1; i < n - 1; i++) {
      const t = m + i * S;
      lines += `M${m} ${t}H${end}M${t} ${m}V${end}`;
    }
    out += `<path class="lines" d="${lines}"/><rect class="edge" x="${m}" y="${m}" width="${end - m}" height="${end - m}"/>`;
    for (const [c, r] of starPoints(n)) {
      out += `<circle class="star" cx="${m + c * S}" cy="${m + (n - 1 - r) * S}" r="${S * 0.12}"/>`;
    }
    if (coords) {
      for (let i = 0; i < n; i++) {
        const t = m + i * S;
        const letter = LETTERS[i];
        const number = n - i;
        out += `<text class="coord" x="${t}" y="${m * 0.42}">${letter}</text>`;
        out += `<text class="coord" x="${t}" y="${full - m * 0.42}">${letter}</text>`;
        out += `<text class="coord" x="${m * 0.42}" y="${t}">${number}</text>`;
        out += `<text class="coord" x="${full - m * 0.42}" y="${t}">${number}</text>`;
      }
    }
    return out;
  }

  stones(view) {
    const r = S * 0.48;
    let out = '';
    const dead = view.dead || new Set();
    if (view.shade) out += this.shading(view);
    let shadows = ''; // all shadows first, so that none falls on a neighbouring stone
    let stones = '';
    view.board.forEach((team, p) => {
      if (!team) return;
      const style = teamStyle(view.palette, team);
      const x = this.x(p);
      const y = this.y(p);
      if (!dead.has(p)) shadows += this.shadowSvg(x, y, r);
      const cls = dead.has(p) ? 'stone dead' : 'stone';
      stones += `<g class="${cls}" data-team="${team}">${this.stoneSvg(style, x, y, r)}</g>`;
    });
    out += `<g class="shadows">${shadows}</g>${stones}`;
    if (view.territory) {
      view.territory.forEach((owner, p) => {
        if (!owner || (view.board[p] && !dead.has(p))) return;
        out += `<g class="territory" data-team="${owner}">${territorySvg(teamStyle(view.palette, owner), this.x(p), this.y(p), S * 0.2)}</g>`;
      });
    }
    dead.forEach((p) => {
      if (view.board[p]) out += deadMark(this.x(p), this.y(p), S * 0.26);
    });
    (view.seki || new Set()).forEach((p) => {
      if (view.board[p]) out += sekiMark(this.x(p), this.y(p), S * 0.36);
    });
    (view.dame || new Set()).forEach((p) => {
      if (!view.board[p]) out += dameMark(this.x(p), this.y(p), S * 0.2);
    });
    if (view.last !== null && view.last !== undefined && view.board[view.last]) {
      out += this.lastMoveSvg(teamStyle(view.palette, view.board[view.last]), this.x(view.last), this.y(view.last), r);
    }
    return out;
  }

  /** The "Area" estimate: each point shaded in its likely owner's colour (under its stone, if any). */
  shading(view) {
    let out = '';
    view.shade.forEach((s, p) => {
      if (!s) return;
      const { fill } = teamStyle(view.palette, s.team);
      const opacity = (0.25 + 0.5 * s.strength).toFixed(2);
      out += `<rect class="area-shade" data-team="${s.team}" x="${this.x(p) - S / 2}" y="${this.y(p) - S / 2}" width="${S}" height="${S}" fill="${fill}" fill-opacity="${opacity}"/>`;
    });
    return out;
  }

  describe(view, p) {
    const team = view.board[p];
    let text = `${vertex(p, view.size)}: `;
    if (team) {
      const style = teamStyle(view.palette, team);
      text += `team ${team} stone (${style.name}, ${style.shape || `letter ${style.letter}`})`;
      if (view.dead && view.dead.has(p)) text += ', dead';
      if (view.seki && view.seki.has(p)) text += ', in seki';
      if (p === view.last) text += ', last move';
    } else {
      text += 'empty';
      if (view.dame && view.dame.has(p)) text += ', dame';
    }
    const owner = view.territory ? view.territory[p] : 0;
    if (owner && (!team || (view.dead && view.dead.has(p)))) text += `, ${view.shade ? 'estimated ' : ''}territory of team ${owner}`;
    return text;
  }

  hitLayer(view, rebuild) {
    const n = view.size;
    if (rebuild) {
      let out = '';
      for (let row = n - 1; row >= 0; row--) {
        out += `<g role="row" aria-rowindex="${n - row}">`;
        for (let col = 0; col < n; col++) {
          const p = row * n + col;
          out += `<rect role="gridcell" id="${this.id}-p${p}" data-p="${p}" x="${this.x(p) - S / 2}" y="${this.y(p) - S / 2}" width="${S}" height="${S}" class="hit"/>`;
        }
        out += '</g>';
      }
      this.hits.innerHTML = out;
      this.cells = [...this.hits.querySelectorAll('[data-p]')].sort((a, b) => a.dataset.p - b.dataset.p);
    }
    for (let p = 0; p < n * n; p++) {
      const label = this.describe(view, p);
      const cell = this.cells[p];
      if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
    }
  }

  /** Dgo's red guide lines along the row and the column of a held point, from edge to edge. */
  guideSvg(p) {
    const lo = this.margin;
    const hi = this.margin + (this.view.size - 1) * S;
    const x = this.x(p);
    const y = this.y(p);
    return `<g class="guide" data-point="${p}" stroke="#d7191c" stroke-width="${S * 0.09}" stroke-linecap="round">`
      + `<line class="guide-row" x1="${lo}" y1="${y}" x2="${hi}" y2="${y}"/>`
      + `<line class="guide-col" x1="${x}" y1="${lo}" x2="${x}" y2="${hi}"/></g>`;
  }

  /** Change some transient marks and keep the others. */
  mark(changes) {
    this.overlay({ ...this.overlayState, ...changes });
  }

  /**
   * Transient marks: {hover: {p, team, legal}, preview: {p, team}, guide: p (held down, drawn when
   * view.pressable)}; the keyboard cursor is drawn too.
   */
  overlay(state) {
    this.overlayState = state;
    if (!this.view) return;
    const r = S * 0.48;
    let out = '';
    const { hover, preview, guide } = state;
    if (guide !== null && guide !== undefined && this.view.pressable) out += this.guideSvg(guide);
    if (preview && !this.view.board[preview.p]) {
      const style = teamStyle(this.view.palette, preview.team);
      const x = this.x(preview.p);
      const y = this.y(preview.p);
      out += `<g class="preview">${this.stoneSvg(style, x, y, r)}</g>`;
    }
    if (hover && (!preview || hover.p !== preview.p)) {
      const x = this.x(hover.p);
      const y = this.y(hover.p);
      if (hover.legal) {
        const style = teamStyle(this.view.palette, hover.team);
        out += `<g class="ghost">${this.stoneSvg(style, x, y, r)}</g>`;
      } else {
        const d = S * 0.22;
        out += `<path class="illegal" d="M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}"/>`;
      }
    }
    const cursor = this.keyboard ? this.cursor : null;
    if (cursor !== null && cursor < this.view.size ** 2) {
      const x = this.x(cursor);
      const y = this.y(cursor);
      out += `<rect class="cursor" x="${x - S / 2 + 0.6}" y="${y - S / 2 + 0.6}" width="${S - 1.2}" height="${S - 1.2}" rx="1"/>`;
    }
    this.over.innerHTML = out;
  }
}

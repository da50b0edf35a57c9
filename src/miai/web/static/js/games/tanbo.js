// Tanbo (SPEC §4): stones on the points of a 19×19 grid (GTP letters without I, row 1 at the bottom). Stones
// of one root are joined by a line in their colour, so each root reads as a tree; the legal points of the
// player to move are dotted, and the roots the last move removed are shown as faint rings.
import { teamStyle } from '../palette.js';
import { CellBoard, edgeLabels, f, memo, squarePath } from './cellboard.js';

const S = 10;
const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

export function vertexName(p, size) {
  return LETTERS[p % size] + String(Math.floor(p / size) + 1);
}

function pointAt(value, size) {
  if (typeof value === 'number') return value;
  const m = /^([A-HJ-Z])(\d+)$/.exec(String(value).toUpperCase());
  if (!m) return null;
  const col = LETTERS.indexOf(m[1]);
  const row = Number(m[2]) - 1;
  return col < size && row >= 0 && row < size ? row * size + col : null;
}

/** Each stone's root (orthogonally connected stones of one colour) as an index into a list of roots. */
function roots(position) {
  const { cells, size } = position;
  const rootOf = new Array(cells.length).fill(-1);
  const list = [];
  cells.forEach((team, start) => {
    if (team <= 0 || rootOf[start] >= 0) return;
    const stones = [start];
    rootOf[start] = list.length;
    for (let i = 0; i < stones.length; i++) {
      const p = stones[i];
      const col = p % size;
      for (const q of [col > 0 ? p - 1 : -1, col < size - 1 ? p + 1 : -1, p - size, p + size]) {
        if (q >= 0 && q < cells.length && cells[q] === team && rootOf[q] < 0) {
          rootOf[q] = list.length;
          stones.push(q);
        }
      }
    }
    list.push(stones);
  });
  return { rootOf, list };
}

export class TanboBoard extends CellBoard {
  constructor(host, handlers) {
    super(host, handlers, 'Tanbo board');
    this.roots = memo(roots);
    this.legalPoints = memo((position) => new Set((position.legal || []).map((v) => pointAt(v, position.size))));
  }

  get kind() {
    return 'tanbo';
  }

  get margin() {
    return this.view.coords ? 1.5 * S : 0.7 * S;
  }

  frame() {
    const side = 2 * this.margin + (this.size - 1) * S;
    return { width: side, height: side };
  }

  xy(p) {
    const n = this.size;
    return [this.margin + (p % n) * S, this.margin + (n - 1 - Math.floor(p / n)) * S];
  }

  cellPath(p, scale = 1) {
    return squarePath(this.xy(p), (S / 2) * scale);
  }

  drawBase() {
    const n = this.size;
    const m = this.margin;
    const { width } = this.frame();
    const end = m + (n - 1) * S;
    let lines = '';
    for (let i = 0; i < n; i++) {
      const t = m + i * S;
      lines += `M${f(m)} ${f(t)}H${f(end)}M${f(t)} ${f(m)}V${f(end)}`;
    }
    let out = `<rect class="wood" x="0" y="0" width="${f(width)}" height="${f(width)}" rx="2" fill="${this.woodPaint()}"/><path class="lines" d="${lines}"/>`;
    if (this.view.coords) {
      for (let i = 0; i < n; i++) {
        const t = m + i * S;
        out += edgeLabels(LETTERS[i], n - i, [t, m * 0.42], [t, width - m * 0.42], [m * 0.42, t], [width - m * 0.42, t]);
      }
    }
    return out;
  }

  stone(p, team, cls, r = S * 0.4) {
    const [x, y] = this.xy(p);
    const style = teamStyle(this.view.palette, team);
    return `<g class="${cls}" data-team="${team}">${this.stoneSvg(style, x, y, r)}</g>`;
  }

  removed() {
    const last = this.view.position.last;
    const out = [];
    for (const v of (last && last.removed) || []) {
      const p = pointAt(v, this.size);
      if (p !== null) out.push(p);
    }
    return out;
  }

  drawPieces() {
    const { cells, size } = this.view.position;
    let out = '';
    // Root lines first, under the stones: one segment per pair of neighbouring stones of one colour.
    for (const team of [1, 2]) {
      let d = '';
      cells.forEach((v, p) => {
        if (v !== team) return;
        const [x, y] = this.xy(p);
        if (p % size < size - 1 && cells[p + 1] === team) d += `M${f(x)} ${f(y)}H${f(x + S)}`;
        if (p + size < cells.length && cells[p + size] === team) d += `M${f(x)} ${f(y)}V${f(y - S)}`;
      });
      if (d) {
        const style = teamStyle(this.view.palette, team);
        out += `<path class="root-outline" d="${d}"/><path class="root-line" data-team="${team}" d="${d}" stroke="${style.fill}"/>`;
      }
    }
    let shadows = '';
    let stones = '';
    cells.forEach((team, p) => {
      if (team <= 0) return;
      const [x, y] = this.xy(p);
      shadows += this.shadowSvg(x, y, S * 0.4);
      stones += this.stone(p, team, 'stone');
    });
    out += `<g class="shadows">${shadows}</g>${stones}`;
    const previous = this.view.previous;
    for (const p of this.removed()) {
      const [x, y] = this.xy(p);
      const team = previous ? previous[p] : 0;
      const stroke = team > 0 ? teamStyle(this.view.palette, team).fill : '#7a1111';
      out += `<g class="removed" data-team="${team}"><circle cx="${f(x)}" cy="${f(y)}" r="${f(S * 0.34)}" stroke="${stroke}"/><path d="M${f(x - 2)} ${f(y - 2)}L${f(x + 2)} ${f(y + 2)}M${f(x + 2)} ${f(y - 2)}L${f(x - 2)} ${f(y + 2)}"/></g>`;
    }
    const placed = this.placed();
    if (placed !== null && cells[placed] > 0) {
      const [x, y] = this.xy(placed);
      out += this.lastMoveSvg(teamStyle(this.view.palette, cells[placed]), x, y, S * 0.4);
    }
    if (this.view.position.to_move && !this.view.position.over) {
      const team = this.view.position.to_move.team;
      const fill = teamStyle(this.view.palette, team).fill;
      for (const p of this.legalPoints(this.view.position)) {
        if (p === null) continue;
        const [x, y] = this.xy(p);
        out += `<circle class="legal-dot" data-team="${team}" cx="${f(x)}" cy="${f(y)}" r="${f(S * 0.14)}" fill="${fill}"/>`;
      }
    }
    return out;
  }

  /** The point the last move played (its `points` also hold the removed ones). */
  placed() {
    const last = this.view.position.last;
    return last && last.move ? pointAt(last.move, this.size) : null;
  }

  isTarget(p) {
    return this.view.canPlay && this.legalPoints(this.view.position).has(p);
  }

  drawSelection() {
    const { preview, canPlay, position } = this.view;
    if (!canPlay) return '';
    const team = position.to_move.team;
    let out = '';
    const chosen = preview ? pointAt(preview, this.size) : null;
    if (chosen !== null) out += this.stone(chosen, team, 'preview');
    if (this.hover !== null && this.hover !== chosen && this.isTarget(this.hover)) out += this.stone(this.hover, team, 'ghost');
    return out;
  }

  describe(p) {
    const { cells } = this.view.position;
    const team = cells[p];
    let text = `${vertexName(p, this.size)}: `;
    if (team > 0) {
      const { rootOf, list } = this.roots(this.view.position);
      const count = list[rootOf[p]].length;
      text += `${this.teamName(team)} stone, root of ${count} stone${count > 1 ? 's' : ''}`;
      if (this.placed() === p) text += ', last move';
    } else {
      text += 'empty';
      if (this.removed().includes(p)) text += ', removed by the last move';
      if (this.view.position.to_move && !this.view.position.over && this.legalPoints(this.view.position).has(p)) {
        text += `, legal for ${this.moverName()}`;
      }
    }
    return text;
  }

  activate(p, keyboard) {
    const why = this.view.position.cells[p] ? 'that point is taken' : 'a stone must touch exactly one stone of your colour';
    this.place(p, keyboard, vertexName(p, this.size), why);
  }
}

export const TANBO = {
  key: 'tanbo',
  title: 'Tanbo',
  names: ['Black', 'White'],
  fields: [],
  Board: TanboBoard,
  palette: (base) => base,
  help: 'Click a dotted point: a new stone must touch exactly one stone of your colour.',
  boardLabel: (position) =>
    `Tanbo board ${position.size} by ${position.size}. Arrow keys move the cursor, Enter plays.`,
  actions: () => [],
  moveText: (move) => move,
  describeOptions: () => [],
  endReasons: {
    eliminated: (winner, loser) => `${loser} has no stones left`,
    cap: () => 'the move cap was reached; the side with more stones wins',
  },
};

// Amazons (SPEC §2): a 10×10 checkered board (file a on the left, rank 1 at the bottom), queens of both
// colours and burnt squares. A move takes three clicks: one of your queens, where it goes, where its arrow
// lands; each step highlights the legal targets. Clicking the queen again steps back, Escape cancels.
import { teamStyle } from '../palette.js';
import { CellBoard, edgeLabels, f, memo, squarePath } from './cellboard.js';

const S = 10;
const FILES = 'abcdefghijklmnopqrstuvwxyz';
const ARROW = -1;

export function squareName(p, size) {
  return FILES[p % size] + String(Math.floor(p / size) + 1);
}

export function squareAt(text, size) {
  const m = /^([a-z])(\d+)$/.exec(text);
  if (!m) return null;
  const col = FILES.indexOf(m[1]);
  const row = Number(m[2]) - 1;
  return col >= 0 && col < size && row >= 0 && row < size ? row * size + col : null;
}

/** "a4-d4/d7" (or "a4-d4,d7") -> {from, to, arrow} points, or null. */
export function parseMove(text, size) {
  const m = /^([a-z]\d+)-([a-z]\d+)[/,]([a-z]\d+)$/.exec(String(text || '').trim().toLowerCase());
  if (!m) return null;
  const [from, to, arrow] = [m[1], m[2], m[3]].map((s) => squareAt(s, size));
  return from === null || to === null || arrow === null ? null : { from, to, arrow };
}

const STEPS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];

/** Squares a queen (or an arrow) on `p` reaches along lines of open squares; `open(q)` says which are. */
function reach(p, size, open) {
  const out = [];
  for (const [dr, dc] of STEPS) {
    let r = Math.floor(p / size) + dr;
    let c = (p % size) + dc;
    while (r >= 0 && r < size && c >= 0 && c < size && open(r * size + c)) {
      out.push(r * size + c);
      r += dr;
      c += dc;
    }
  }
  return out;
}

/** Move events leave out the 2,000-odd legal moves: the same tree, generated from the board. */
function generated(position) {
  const out = new Map();
  const { cells, size } = position;
  if (position.over || !position.to_move) return out;
  for (let from = 0; from < cells.length; from += 1) {
    if (cells[from] !== position.to_move.team) continue;
    const tos = new Map();
    for (const to of reach(from, size, (q) => cells[q] === 0)) {
      tos.set(to, new Set(reach(to, size, (q) => q === from || cells[q] === 0)));
    }
    if (tos.size) out.set(from, tos);
  }
  return out;
}

/** The legal moves as from -> to -> Set of arrow squares. */
export function legalTree(position) {
  if (!position.legal) return generated(position);
  const out = new Map();
  for (const text of position.legal) {
    const m = parseMove(text, position.size);
    if (!m) continue;
    if (!out.has(m.from)) out.set(m.from, new Map());
    const tos = out.get(m.from);
    if (!tos.has(m.to)) tos.set(m.to, new Set());
    tos.get(m.to).add(m.arrow);
  }
  return out;
}

function crown(x, y, r) {
  const pts = [[-0.8, 0.5], [-0.95, -0.5], [-0.45, 0], [0, -0.8], [0.45, 0], [0.95, -0.5], [0.8, 0.5]];
  const body = `M${pts.map(([a, b]) => `${f(x + a * r)} ${f(y + b * r)}`).join('L')}Z`;
  const base = `M${f(x - 0.8 * r)} ${f(y + 0.62 * r)}H${f(x + 0.8 * r)}V${f(y + 0.9 * r)}H${f(x - 0.8 * r)}Z`;
  return body + base;
}

export class AmazonsBoard extends CellBoard {
  constructor(host, handlers) {
    super(host, handlers, 'Amazons board');
    this.moves = memo((position) => legalTree(position));
    this.from = null;
    this.to = null;
  }

  get kind() {
    return 'amazons';
  }

  get margin() {
    return this.view.coords ? 1.2 * S : 0.3 * S;
  }

  frame() {
    const side = 2 * this.margin + this.size * S;
    return { width: side, height: side };
  }

  xy(p) {
    const n = this.size;
    return [this.margin + (p % n) * S + S / 2, this.margin + (n - 1 - Math.floor(p / n)) * S + S / 2];
  }

  cellPath(p, scale = 1) {
    return squarePath(this.xy(p), (S / 2) * scale);
  }

  drawBase() {
    const n = this.size;
    const { width } = this.frame();
    let light = '';
    let dark = '';
    for (let p = 0; p < n * n; p++) {
      // a1 is dark, as on a chessboard
      if ((Math.floor(p / n) + (p % n)) % 2 === 0) dark += this.cellPath(p);
      else light += this.cellPath(p);
    }
    let out = `<rect class="amazons-frame" x="0" y="0" width="${f(width)}" height="${f(width)}" rx="2"/>`;
    out += `<path class="sq-light" d="${light}"/><path class="sq-dark" d="${dark}"/>`;
    if (this.view.coords) {
      const m = this.margin;
      for (let i = 0; i < n; i++) {
        const [x] = this.xy(i);
        const [, y] = this.xy(i * n);
        out += edgeLabels(FILES[i], i + 1, [x, m * 0.5], [x, width - m * 0.5], [m * 0.5, y], [width - m * 0.5, y]);
      }
    }
    return out;
  }

  queen(p, team, cls) {
    const [x, y] = this.xy(p);
    const style = teamStyle(this.view.palette, team);
    return `<g class="${cls}" data-team="${team}"><path d="${crown(x, y, S * 0.36)}" fill="${style.fill}" stroke="${style.ink}" stroke-width="${style.outline ? 0.9 : 0.5}" stroke-linejoin="round"/></g>`;
  }

  arrow(p, cls) {
    const [x, y] = this.xy(p);
    const d = S * 0.22;
    return `<g class="${cls}"><path class="burnt" d="${this.cellPath(p, 0.78)}"/><path class="burnt-x" d="M${f(x - d)} ${f(y - d)}L${f(x + d)} ${f(y + d)}M${f(x + d)} ${f(y - d)}L${f(x - d)} ${f(y + d)}"/></g>`;
  }

  lastMove() {
    const last = this.view.position.last;
    return last ? parseMove(last.move, this.size) : null;
  }

  drawPieces() {
    const { cells } = this.view.position;
    let out = '';
    const last = this.lastMove();
    if (last) {
      // The last move's three squares tinted under the pieces (from, to, arrow), and the path it took.
      out += `<path class="last-from" d="${this.cellPath(last.from)}"/><path class="last-move last-to" d="${this.cellPath(last.to)}"/>`;
      out += `<path class="last-arrow" d="${this.cellPath(last.arrow)}"/>`;
      const [x1, y1] = this.xy(last.from);
      const [x2, y2] = this.xy(last.to);
      const [x3, y3] = this.xy(last.arrow);
      out += `<path class="last-trail" d="M${f(x1)} ${f(y1)}L${f(x2)} ${f(y2)}L${f(x3)} ${f(y3)}"/>`;
    }
    cells.forEach((v, p) => {
      if (v === ARROW) out += this.arrow(p, 'arrow');
      else if (v > 0) out += this.queen(p, v, 'queen');
    });
    return out;
  }

  /** Which click comes next: "from", "to" or "arrow". */
  stage() {
    if (this.to !== null) return 'arrow';
    return this.from !== null ? 'to' : 'from';
  }

  targets() {
    const moves = this.moves(this.view.position);
    const stage = this.stage();
    if (stage === 'from') return new Set(moves.keys());
    const tos = moves.get(this.from) || new Map();
    if (stage === 'to') return new Set(tos.keys());
    return tos.get(this.to) || new Set();
  }

  isTarget(p) {
    this.svg.dataset.stage = this.stage();
    return this.view.canPlay && this.targets().has(p);
  }

  drawSelection() {
    const { canPlay, preview, position } = this.view;
    if (!canPlay) return '';
    const team = position.to_move ? position.to_move.team : 0;
    let out = '';
    const chosen = preview ? parseMove(preview, this.size) : null;
    const moving = chosen || (this.from !== null ? { from: this.from, to: this.to, arrow: null } : null);
    if (moving) {
      out += `<path class="selected" d="${this.cellPath(moving.from, 0.94)}"/>`;
      if (moving.to !== null) {
        out += `<path class="vacated" d="${this.cellPath(moving.from, 0.8)}"/>`;
        out += this.queen(moving.to, team, chosen ? 'preview' : 'moving');
      }
      if (moving.arrow !== null) out += this.arrow(moving.arrow, 'preview');
    }
    if (!chosen) {
      const stage = this.stage();
      for (const p of this.targets()) {
        if (stage === 'from') continue; // every movable queen is outlined by the "target" cell class
        const [x, y] = this.xy(p);
        out += `<circle class="target-dot ${stage}" cx="${f(x)}" cy="${f(y)}" r="${f(S * (stage === 'to' ? 0.16 : 0.13))}"/>`;
      }
    }
    return out;
  }

  describe(p) {
    const v = this.view.position.cells[p];
    let text = `${squareName(p, this.size)}: `;
    if (v === ARROW) text += 'arrow';
    else if (v > 0) text += `${this.teamName(v)} queen`;
    else text += 'empty';
    const last = this.lastMove();
    if (last && p === last.from) text += ', last move from here';
    if (last && p === last.to) text += ', last move to here';
    if (last && p === last.arrow) text += ', last arrow';
    if (this.view.canPlay) {
      const stage = this.stage();
      if (p === this.from) text += ', selected queen';
      if (p === this.to) text += ', chosen destination';
      if (this.targets().has(p)) text += { from: ', can move', to: ', legal destination', arrow: ', legal arrow target' }[stage];
    }
    return text;
  }

  refresh() {
    this.svg.dataset.stage = this.stage();
    this.labelCells();
    this.drawOverlay();
  }

  cancel(quiet = false) {
    const had = this.from !== null || (!quiet && Boolean(this.view && this.view.preview));
    this.from = null;
    this.to = null;
    if (this.view && !quiet) {
      if (this.view.preview) this.handlers.onCancel?.();
      this.refresh();
    }
    return had;
  }

  hint(text, bad = false) {
    this.handlers.onHint?.(text, bad);
  }

  activate(p, keyboard) {
    const name = squareName(p, this.size);
    if (!this.view.canPlay) {
      this.hint(this.describe(p));
      return;
    }
    const preview = this.view.preview ? parseMove(this.view.preview, this.size) : null;
    if (preview) {
      if (p === preview.arrow) {
        this.handlers.onMove(this.view.preview, keyboard); // Enter on the arrow again submits
        return;
      }
      this.handlers.onCancel?.(); // a new click starts another move
    }
    const moves = this.moves(this.view.position);
    const stage = this.stage();
    const own = this.view.position.cells[p] === this.view.position.to_move.team;
    if (stage === 'from' || (stage === 'to' && p !== this.from && own)) {
      if (!moves.has(p)) {
        this.hint(`${name}: ${own ? 'this queen cannot move' : `choose one of your queens (${this.moverName()})`}`, true);
        return;
      }
      this.from = p;
      this.to = null;
      this.refresh();
      this.hint(`${name} selected: choose where it moves (${moves.get(p).size} squares highlighted). Click it again or press Escape to cancel.`);
    } else if (stage === 'to') {
      if (p === this.from) {
        this.cancel(true);
        this.refresh();
        this.hint('Move cancelled.');
      } else if (moves.get(this.from).has(p)) {
        this.to = p;
        this.refresh();
        const n = moves.get(this.from).get(p).size;
        this.hint(`${squareName(this.from, this.size)}-${name}: now choose where the arrow lands (${n} squares highlighted). Click the queen again to choose another square.`);
      } else {
        this.hint(`${name}: the queen on ${squareName(this.from, this.size)} cannot reach this square`, true);
      }
    } else if (p === this.to) {
      this.to = null;
      this.refresh();
      this.hint(`Choose where the queen on ${squareName(this.from, this.size)} moves.`);
    } else if (moves.get(this.from).get(this.to).has(p)) {
      const text = `${squareName(this.from, this.size)}-${squareName(this.to, this.size)}/${name}`;
      this.from = null;
      this.to = null;
      this.refresh();
      this.handlers.onMove(text, keyboard);
    } else {
      this.hint(`${name}: the arrow cannot fly there from ${squareName(this.to, this.size)}`, true);
    }
  }
}

export const AMAZONS = {
  key: 'amazons',
  title: 'Amazons',
  names: ['White', 'Black'],
  fields: [],
  Board: AmazonsBoard,
  palette: (base) => `${base}/swap`, // the first player is White
  help: 'Three clicks make a move: one of your queens, the square it moves to, the square its arrow lands on.',
  boardLabel: (position) =>
    `Amazons board ${position.size} by ${position.size}. Choose a queen, its destination and its arrow with clicks or the arrow keys and Enter; Escape cancels.`,
  actions: () => [],
  moveText: (move) => move,
  describeOptions: () => [],
  endReasons: {
    noMoves: (winner, loser) => `${loser} cannot move`,
  },
};

// Hex (SPEC §3): an n×n rhombus of hexagons in HexWiki orientation (row 1 at the top, a1 an acute corner,
// every row shifted half a cell to the right of the one above). Team 1 joins the top and bottom edges, team 2
// the left and right ones; each pair of edges is drawn in its team's colour. One click places a stone.
import { teamStyle } from '../palette.js';
import { CellBoard, edgeLabels, f, memo } from './cellboard.js';

const S = 10; // the width of a hexagon (flat side to flat side)
const R = S / Math.sqrt(3); // its corner radius
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'; // HexWiki columns: every letter, i included

export function cellName(p, size) {
  return LETTERS[p % size] + String(Math.floor(p / size) + 1);
}

// Corners of a pointy-top hexagon, clockwise from the top.
const CORNERS = [-90, -30, 30, 90, 150, 210].map((deg) => [Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)]);
const [TOP, UPPER_RIGHT, LOWER_RIGHT, BOTTOM, LOWER_LEFT, UPPER_LEFT] = [0, 1, 2, 3, 4, 5];

export class HexBoard extends CellBoard {
  constructor(host, handlers) {
    super(host, handlers, 'Hex board');
    this.legalSet = memo((legal) => new Set(legal || []));
  }

  get kind() {
    return 'hex';
  }

  get up() {
    return -1; // row 0 (HexWiki row 1) is at the top
  }

  get margin() {
    return this.view.coords ? 1.5 * S : 0.8 * S;
  }

  frame() {
    const n = this.size;
    return { width: 2 * this.margin + (n - 1) * 1.5 * S + S, height: 2 * this.margin + (n - 1) * 1.5 * R + 2 * R };
  }

  centre(p) {
    if (p === undefined) return super.centre();
    const n = this.size;
    const row = Math.floor(p / n);
    const col = p % n;
    return [this.margin + S / 2 + (col + row / 2) * S, this.margin + R + row * 1.5 * R];
  }

  corner(p, i, scale = 1) {
    const [x, y] = this.centre(p);
    return [x + CORNERS[i][0] * R * scale, y + CORNERS[i][1] * R * scale];
  }

  cellPath(p, scale = 1) {
    return `M${CORNERS.map((_, i) => this.corner(p, i, scale).map(f).join(' ')).join('L')}Z`;
  }

  style(team) {
    return teamStyle(this.view.palette, team);
  }

  /** The two edges of each team: a path through the outer corners of the cells along that edge. */
  edges() {
    const n = this.size;
    const at = (p, i) => this.corner(p, i).map(f).join(' ');
    const path = (pts) => `M${pts.join('L')}`;
    const top = [];
    const bottom = [];
    const left = [];
    const right = [];
    for (let i = 0; i < n; i++) {
      top.push(at(i, UPPER_LEFT), at(i, TOP));
      bottom.push(at((n - 1) * n + i, LOWER_LEFT), at((n - 1) * n + i, BOTTOM));
      left.push(at(i * n, UPPER_LEFT), at(i * n, LOWER_LEFT));
      right.push(at(i * n + n - 1, TOP), at(i * n + n - 1, UPPER_RIGHT));
    }
    top.push(at(n - 1, UPPER_RIGHT));
    bottom.push(at(n * n - 1, LOWER_RIGHT));
    left.push(at((n - 1) * n, BOTTOM));
    right.push(at(n * n - 1, LOWER_RIGHT));
    return { 1: [path(top), path(bottom)], 2: [path(left), path(right)] };
  }

  drawBase() {
    const n = this.size;
    const { width, height } = this.frame();
    let out = `<rect class="hex-bg" x="0" y="0" width="${f(width)}" height="${f(height)}" rx="2"/>`;
    const edges = this.edges();
    for (const team of [1, 2]) {
      const fill = this.style(team).fill;
      for (const d of edges[team]) {
        out += `<path class="hex-edge-outline" d="${d}"/><path class="hex-edge" data-team="${team}" d="${d}" stroke="${fill}"/>`;
      }
    }
    let cells = '';
    for (let p = 0; p < n * n; p++) cells += this.cellPath(p);
    out += `<path class="hex-cells" d="${cells}" fill="${this.woodPaint()}"/>`;
    if (this.view.coords) {
      const m = this.margin;
      for (let i = 0; i < n; i++) {
        const [tx, ty] = this.centre(i);
        const [bx, by] = this.centre((n - 1) * n + i);
        const [lx, ly] = this.centre(i * n);
        const [rx, ry] = this.centre(i * n + n - 1);
        const [top, bottom] = [[tx, ty - R - m * 0.45], [bx, by + R + m * 0.45]];
        out += edgeLabels(LETTERS[i], i + 1, top, bottom, [lx - S / 2 - m * 0.5, ly], [rx + S / 2 + m * 0.5, ry]);
      }
    }
    return out;
  }

  stone(p, team, cls) {
    const [x, y] = this.centre(p);
    const style = this.style(team);
    return `<g class="${cls}" data-team="${team}">${this.stoneSvg(style, x, y, S * 0.4)}</g>`;
  }

  drawPieces() {
    const { cells } = this.view.position;
    const last = this.lastPoints();
    let shadows = '';
    let out = '';
    cells.forEach((team, p) => {
      if (team <= 0) return;
      const [x, y] = this.centre(p);
      shadows += this.shadowSvg(x, y, S * 0.4);
      out += this.stone(p, team, 'stone');
    });
    out = `<g class="shadows">${shadows}</g>${out}`;
    for (const p of last) {
      if (!cells[p]) continue;
      const [x, y] = this.centre(p);
      out += this.lastMoveSvg(this.style(cells[p]), x, y, S * 0.4);
    }
    // Empty cells the player to move may not take (the centre-row ban on the first move).
    if (this.active()) {
      const legal = this.legalSet(this.view.position.legal);
      cells.forEach((team, p) => {
        if (!team && !legal.has(cellName(p, this.size))) out += `<path class="banned" d="${this.cellPath(p, 0.8)}"/>`;
      });
    }
    return out;
  }

  active() {
    return Boolean(this.view.position.to_move) && !this.view.position.over;
  }

  isTarget(p) {
    return this.view.canPlay && this.legalSet(this.view.position.legal).has(cellName(p, this.size));
  }

  drawSelection() {
    const { preview, canPlay, position } = this.view;
    let out = '';
    const team = position.to_move ? position.to_move.team : 0;
    if (preview && preview !== 'swap' && canPlay) {
      const p = this.pointNamed(preview);
      if (p !== null) out += this.stone(p, team, 'preview');
    }
    if (this.hover !== null && canPlay && this.isTarget(this.hover) && this.pointNamed(preview) !== this.hover) {
      out += this.stone(this.hover, team, 'ghost');
    }
    return out;
  }

  pointNamed(text) {
    if (!text) return null;
    const m = /^([a-z])(\d+)$/.exec(text);
    if (!m) return null;
    const col = LETTERS.indexOf(m[1]);
    const row = Number(m[2]) - 1;
    return col < this.size && row >= 0 && row < this.size ? row * this.size + col : null;
  }

  describe(p) {
    const { cells } = this.view.position;
    const team = cells[p];
    let text = `${cellName(p, this.size)}: `;
    if (team > 0) {
      text += `${this.teamName(team)} stone`;
      if (this.lastPoints().has(p)) text += ', last move';
    } else {
      text += 'empty';
      if (this.active() && !this.legalSet(this.view.position.legal).has(cellName(p, this.size))) text += ', not allowed now';
    }
    return text;
  }

  activate(p, keyboard) {
    const why = this.view.position.cells[p] ? 'that cell is taken' : 'the opening rule forbids this cell now';
    this.place(p, keyboard, cellName(p, this.size), why);
  }
}

export const OPENINGS = {
  swap: 'swap rule',
  centre_row_ban: 'no first stone on the centre row',
  none: 'no opening rule',
};

export const HEX = {
  key: 'hex',
  title: 'Hex',
  names: ['Black', 'White'],
  fields: [
    { name: 'size', label: 'Board size', type: 'number', min: 5, max: 19, value: 11, help: '5 to 19; 11, 13 and 19 are usual' },
    { name: 'opening', label: 'Opening rule', type: 'select', value: 'swap', choices: Object.entries(OPENINGS) },
  ],
  Board: HexBoard,
  palette: (base) => base,
  help: 'Click an empty cell to place a stone.',
  boardLabel: (position, names) =>
    `Hex board ${position.size} by ${position.size}: ${names[0]} joins the top and bottom edges, ${names[1]} the left and right edges. Arrow keys move the cursor, Enter plays.`,
  actions: (position) => (position.legal && position.legal.includes('swap')
    ? [{ move: 'swap', id: 'swap', label: 'Swap', confirm: ['Swap?', 'You take over the first stone (mirrored across the long diagonal); your opponent moves next.', 'Swap'] }]
    : []),
  moveText: (move) => move,
  describeOptions: (o) => [OPENINGS[o.opening] || o.opening].filter(Boolean),
  endReasons: {
    connection: (winner) => `${winner} joined their two edges`,
  },
};

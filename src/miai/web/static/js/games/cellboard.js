// What every board of a non-Go game shares on top of the grid of focusable cells (gridboard.js): the view a
// game draws, the cells' labels and target highlights, the hovered cell and the keyboard cursor drawn.
// A game's board subclasses it and draws its own cells; see games/registry.js for the contract.

import { GridBoard } from '../gridboard.js';

export const f = (n) => n.toFixed(2);

/** Parse a list of legal moves once per position (positions are replaced, never changed in place). */
export function memo(fn) {
  let key = null;
  let value = null;
  return (arg) => {
    if (arg !== key) {
      key = arg;
      value = fn(arg);
    }
    return value;
  };
}

/** The path of a square of half-side h centred on (x, y). */
export function squarePath([x, y], h) {
  return `M${f(x - h)} ${f(y - h)}H${f(x + h)}V${f(y + h)}H${f(x - h)}Z`;
}

/** A column's label above and below the board and a row's label left and right of it, at those points. */
export function edgeLabels(column, row, top, bottom, left, right) {
  const text = ([x, y], label) => `<text class="coord" x="${f(x)}" y="${f(y)}">${label}</text>`;
  return text(top, column) + text(bottom, column) + text(left, row) + text(right, row);
}

function positionKey(position) {
  return `${position.plies}:${position.cells.join('')}`;
}

export class CellBoard extends GridBoard {
  /**
   * handlers: onMove(text, keyboard) when a whole move is chosen, onCancel() when a chosen move is dropped,
   * onHint(text, bad) to explain a click or the cursor, onKey(event) for keys the board does not use.
   */
  constructor(host, handlers, roleDescription) {
    super(host, handlers, roleDescription);
    this.hover = null;
    this.svg.classList.add(`board-${this.kind}`);
  }

  destroy() {
    this.svg.remove();
  }

  get size() {
    return this.view.position.size;
  }

  pointed(p) {
    if (p !== this.hover) {
      this.hover = p;
      this.drawOverlay();
    }
  }

  cursorMoved(p) {
    this.handlers.onHint?.(this.describe(p), false);
  }

  /**
   * view: {position (the kind's position object), names (team names), palette, coords, canPlay (the viewer
   * may enter a move now), preview (a chosen move's text or null), previous (cells before the last move or
   * null), label}.
   */
  render(view) {
    const old = this.view;
    const rebuild = !old || old.position.size !== view.position.size || old.coords !== view.coords || old.palette !== view.palette;
    if (old && positionKey(old.position) !== positionKey(view.position)) this.cancel(true);
    if (!view.canPlay) this.cancel(true);
    this.view = view;
    const { width, height } = this.frame();
    this.svg.setAttribute('viewBox', `0 0 ${f(width)} ${f(height)}`);
    this.svg.setAttribute('aria-label', view.label);
    this.svg.dataset.size = String(view.position.size);
    if (rebuild) {
      this.base.innerHTML = this.drawBase();
      this.buildHits();
    }
    this.marks.innerHTML = this.drawPieces();
    this.labelCells();
    this.drawOverlay();
  }

  buildHits() {
    const n = this.size;
    const rows = [];
    for (let i = 0; i < n; i++) rows.push(this.up === 1 ? n - 1 - i : i);
    let out = '';
    rows.forEach((row, i) => {
      out += `<g role="row" aria-rowindex="${i + 1}">`;
      for (let col = 0; col < n; col++) {
        const p = row * n + col;
        out += `<path role="gridcell" id="${this.id}-p${p}" data-p="${p}" d="${this.cellPath(p)}" class="hit"/>`;
      }
      out += '</g>';
    });
    this.hits.innerHTML = out;
    this.cells = [...this.hits.querySelectorAll('[data-p]')].sort((a, b) => a.dataset.p - b.dataset.p);
  }

  labelCells() {
    const n = this.size;
    for (let p = 0; p < n * n; p++) {
      const label = this.describe(p);
      const cell = this.cells[p];
      if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
      cell.classList.toggle('target', this.isTarget(p));
    }
  }

  drawOverlay() {
    if (!this.view) return;
    let out = this.drawSelection();
    const cursor = this.keyboard ? this.cursor : null;
    if (cursor !== null && cursor < this.size ** 2) out += `<path class="cursor" d="${this.cellPath(cursor, 0.86)}"/>`;
    this.over.innerHTML = out;
  }

  teamName(team) {
    const names = this.view.names || [];
    return names[team - 1] || `Team ${team}`;
  }

  moverName() {
    const tm = this.view.position.to_move;
    return tm ? this.teamName(tm.team) : '';
  }

  lastPoints() {
    const last = this.view.position.last;
    return new Set(last && last.points ? last.points : []);
  }

  /** One click places a stone (Hex, Tanbo): cell p, named `name`, is played if legal, else `illegal` says why. */
  place(p, keyboard, name, illegal) {
    if (!this.view.canPlay) {
      this.handlers.onHint?.(this.describe(p), false);
      return;
    }
    if (!this.isTarget(p)) {
      this.handlers.onHint?.(`${name}: illegal, ${illegal}`, true);
      return;
    }
    this.handlers.onMove(name, keyboard);
  }

  // --- what a game's board provides

  /** {width, height} of the view box. */
  frame() {
    throw new Error('frame() not implemented');
  }

  /** SVG path of a cell's outline, scaled by `scale` around its centre (clicks, cursor, highlights). */
  cellPath() {
    throw new Error('cellPath() not implemented');
  }

  drawBase() {
    return '';
  }

  drawPieces() {
    return '';
  }

  /** Marks that change while the user chooses a move (selected piece, targets, hover). */
  drawSelection() {
    return '';
  }

  /** The cell's text for screen readers: its name and what is on it. */
  describe() {
    return '';
  }

  /** Whether the cell is a legal target of the next click (drawn as a highlight; class "target"). */
  isTarget() {
    return false;
  }
}

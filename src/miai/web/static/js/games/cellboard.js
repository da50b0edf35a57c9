// What every board of a non-Go game shares: an SVG with a base layer, pieces, an overlay and a layer of
// focusable cells (an ARIA grid naming each cell), a keyboard cursor (arrow keys, Enter activates), clicks.
// A game's board subclasses it and draws its own cells; see games/registry.js for the contract.

const NS = 'http://www.w3.org/2000/svg';
let boards = 0;

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

function positionKey(position) {
  return `${position.plies}:${position.cells.join('')}`;
}

export class CellBoard {
  /**
   * handlers: onMove(text, keyboard) when a whole move is chosen, onCancel() when a chosen move is dropped,
   * onHint(text, bad) to explain a click or the cursor, onKey(event) for keys the board does not use.
   */
  constructor(host, handlers, roleDescription) {
    this.id = `board${++boards}`;
    this.handlers = handlers;
    this.view = null;
    this.cursor = null;
    this.keyboard = false;
    this.hover = null;
    this.svg = document.createElementNS(NS, 'svg');
    this.svg.classList.add('board', `board-${this.kind}`);
    this.svg.setAttribute('role', 'grid');
    this.svg.setAttribute('tabindex', '0');
    this.svg.setAttribute('aria-roledescription', roleDescription);
    this.base = document.createElementNS(NS, 'g');
    this.marks = document.createElementNS(NS, 'g');
    this.over = document.createElementNS(NS, 'g');
    this.hits = document.createElementNS(NS, 'g');
    for (const layer of [this.base, this.marks, this.over]) layer.setAttribute('aria-hidden', 'true');
    this.over.classList.add('overlay');
    this.svg.append(this.base, this.marks, this.over, this.hits);
    host.append(this.svg);
    this.svg.addEventListener('pointermove', (e) => {
      const p = this.pointOf(e);
      if (p !== this.hover) {
        this.hover = p;
        this.drawOverlay();
      }
    });
    this.svg.addEventListener('pointerleave', () => {
      this.hover = null;
      this.drawOverlay();
    });
    this.svg.addEventListener('click', (e) => {
      const p = this.pointOf(e);
      if (p === null) return;
      this.setCursor(p, false);
      this.activate(p, false);
    });
    this.svg.addEventListener('keydown', (e) => this.key(e));
    this.svg.addEventListener('pointerdown', () => {
      this.keyboard = false; // the cursor square is for keyboard users only
    });
    this.svg.addEventListener('focus', () => {
      if (!this.svg.matches(':focus-visible') || !this.view) return;
      this.keyboard = true;
      this.setCursor(this.cursor === null ? this.centre() : this.cursor, true);
    });
  }

  destroy() {
    this.svg.remove();
  }

  pointOf(event) {
    const target = event.target.closest ? event.target.closest('[data-p]') : null;
    return target ? Number(target.dataset.p) : null;
  }

  get size() {
    return this.view.position.size;
  }

  centre() {
    const n = this.size;
    return Math.floor(n / 2) * n + Math.floor(n / 2);
  }

  /** +1 when row 0 is at the bottom (ArrowUp goes to a higher row), -1 when row 0 is at the top. */
  get up() {
    return 1;
  }

  key(event) {
    if (!this.view) return;
    const n = this.size;
    const p = this.cursor === null ? this.centre() : this.cursor;
    const row = Math.floor(p / n);
    const col = p % n;
    const moves = {
      ArrowUp: [row + this.up, col], ArrowDown: [row - this.up, col], ArrowLeft: [row, col - 1],
      ArrowRight: [row, col + 1], Home: [row, 0], End: [row, n - 1],
    };
    if (event.key in moves) {
      const [r, c] = moves[event.key];
      event.preventDefault();
      this.setCursor(Math.max(0, Math.min(n - 1, r)) * n + Math.max(0, Math.min(n - 1, c)), true);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.setCursor(p, true);
      this.activate(p, true);
    } else if (event.key === 'Escape' && this.cancel()) {
      event.preventDefault();
      this.handlers.onHint?.('Move cancelled.', false);
    } else {
      this.handlers.onKey?.(event);
    }
  }

  setCursor(p, fromKeyboard) {
    this.cursor = p;
    if (fromKeyboard) this.keyboard = true;
    this.svg.setAttribute('aria-activedescendant', `${this.id}-p${p}`);
    this.drawOverlay();
    if (fromKeyboard) this.handlers.onHint?.(this.describe(p), false);
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

  activate() {}

  /** Drop a half-entered move; `quiet` when the position changed. Returns whether there was one. */
  cancel() {
    return false;
  }
}

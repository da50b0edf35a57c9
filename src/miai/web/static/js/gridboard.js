// What the Go board (board.js) and the other games' boards (games/cellboard.js) share: an SVG with a base
// layer, pieces, an overlay and a layer of focusable cells (an ARIA grid), a keyboard cursor (arrow keys,
// Home/End, Enter or Space activates, Escape cancels a half-entered move), clicks, and how stones are painted
// (a lit gradient per colour, defined once per board, a soft shadow, the last move's ring).
import { markSvg, rimColour, shadowGradient, stoneGradient } from './palette.js';

const NS = 'http://www.w3.org/2000/svg';
let boards = 0;

export class GridBoard {
  constructor(host, handlers, roleDescription) {
    this.id = `board${++boards}`;
    this.handlers = handlers;
    this.view = null;
    this.cursor = null;
    this.keyboard = false;
    this.svg = document.createElementNS(NS, 'svg');
    this.svg.classList.add('board');
    this.svg.setAttribute('role', 'grid');
    this.svg.setAttribute('tabindex', '0');
    this.svg.setAttribute('aria-roledescription', roleDescription);
    this.defs = document.createElementNS(NS, 'defs');
    this.painted = new Set(); // ids of the gradients in this.defs
    this.base = document.createElementNS(NS, 'g');
    this.marks = document.createElementNS(NS, 'g');
    this.over = document.createElementNS(NS, 'g');
    this.hits = document.createElementNS(NS, 'g');
    for (const layer of [this.base, this.marks, this.over]) layer.setAttribute('aria-hidden', 'true');
    this.over.classList.add('overlay');
    this.svg.append(this.defs, this.base, this.marks, this.over, this.hits);
    host.append(this.svg);
    this.svg.addEventListener('pointermove', (e) => this.pointed(this.pointOf(e)));
    this.svg.addEventListener('pointerleave', () => this.pointed(null));
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

  /** `url(#id)` of a gradient, added to this board's defs the first time it is asked for. */
  paint(id, markup) {
    if (!this.painted.has(id)) {
      this.painted.add(id);
      this.defs.insertAdjacentHTML('beforeend', markup(id));
    }
    return `url(#${id})`;
  }

  /** The board's wood: faint diagonal bands, lighter and darker, around the wood colour (app.css --wood). */
  woodPaint() {
    return this.paint(`${this.id}-wood`, (id) => `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1">`
      + '<stop offset="0" stop-color="#e0b862"/><stop offset=".3" stop-color="#d9b05a"/><stop offset=".55" stop-color="#dfb660"/>'
      + '<stop offset=".8" stop-color="#d8ae56"/><stop offset="1" stop-color="#ddb45d"/></linearGradient>');
  }

  /** A stone of a team's `style` centred on (x, y) with radius r: lit, rimmed, and marked unless plain. */
  stoneSvg(style, x, y, r) {
    const fill = this.paint(`${this.id}-stone-${style.fill.slice(1).toLowerCase()}`, (id) => stoneGradient(id, style.fill));
    const cls = style.outline ? ' class="hc"' : '';
    return `<circle cx="${x.toFixed(2)}" cy="${y.toFixed(2)}" r="${r.toFixed(2)}" fill="${fill}" stroke="${rimColour(style)}"${cls}/>${markSvg(style, x, y, r * 0.42)}`;
  }

  /** The shadow a stone of radius r at (x, y) casts down and to the right (drawn under every stone). */
  shadowSvg(x, y, r) {
    const fill = this.paint(`${this.id}-shadow`, shadowGradient);
    return `<circle class="shadow" cx="${(x + r * 0.12).toFixed(2)}" cy="${(y + r * 0.18).toFixed(2)}" r="${(r * 1.1).toFixed(2)}" fill="${fill}"/>`;
  }

  /**
   * The last move's ring on its stone, in the colour that shows on that stone. A plain stone gets a ring
   * inside it; a stone that carries its team's mark (with three colours and more, on the colour-blind safe
   * palettes) a broad band along its edge instead, far outside the mark: White's mark is itself a small
   * ring, and a ring beside it would make every white stone look just played (issue 32).
   */
  lastMoveSvg(style, x, y, r) {
    const marked = style.marked !== false;
    const ring = marked ? 0.86 : 0.5;
    const width = marked ? 0.22 : 0.14;
    return `<circle class="last-move${marked ? ' edge' : ''}" data-ink="${style.ink}" cx="${x.toFixed(2)}" cy="${y.toFixed(2)}" r="${(r * ring).toFixed(2)}" stroke="${style.ink}" stroke-width="${(r * width).toFixed(2)}"/>`;
  }

  pointOf(event) {
    const target = event.target.closest ? event.target.closest('[data-p]') : null;
    return target ? Number(target.dataset.p) : null;
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
    if (fromKeyboard) this.cursorMoved(p);
  }

  // --- what a board provides

  /** The number of cells along a side. */
  get size() {
    throw new Error('size not implemented');
  }

  /** The pointer is over cell p (null: over no cell, or off the board). */
  pointed() {}

  /** A click on cell p, or Enter on it (`keyboard`). */
  activate() {}

  /** The keyboard cursor moved to cell p. */
  cursorMoved() {}

  /** Draws the overlay (transient marks and the keyboard cursor). */
  drawOverlay() {}

  /** Drop a half-entered move; `quiet` when the position changed. Returns whether there was one. */
  cancel() {
    return false;
  }
}

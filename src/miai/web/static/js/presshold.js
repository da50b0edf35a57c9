// Press and hold on the Go board, as in Dgo: while the mouse button (or a finger) is down, guide lines run
// through the point under it and follow it; releasing on a point chooses that point, releasing off the board,
// Escape or a cancelled touch chooses nothing. Pointer Events, so mouse, pen and touch share one path.

const CLICK_AFTER_MS = 1000; // a click this soon after the release of a press belongs to that press

export class PressHold {
  /**
   * svg: the board's element. pointAt(x, y): the point at client coordinates, or null off the board.
   * onHold(p | null): the held point changed (null: the press ended). onRelease(p): released on point p.
   */
  constructor(svg, { pointAt, onHold, onRelease }) {
    this.svg = svg;
    this.pointAt = pointAt;
    this.onHold = onHold;
    this.onRelease = onRelease;
    this.pointerId = null; // the pointer held down now
    this.held = null;
    this.pressId = null; // the pointer of the last press, until it is released
    this.upAt = -Infinity; // when that press was released
    this.onKey = (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation(); // the page's own Escape (dropping a preview) is not wanted as well
      this.end();
    };
    svg.addEventListener('pointerdown', (e) => this.down(e));
    svg.addEventListener('pointermove', (e) => this.move(e));
    svg.addEventListener('pointerup', (e) => this.up(e));
    svg.addEventListener('pointercancel', (e) => this.mine(e) && this.end());
    // Only the board's own capture: taking over a touch's implicit capture also "loses" one on a cell.
    svg.addEventListener('lostpointercapture', (e) => e.target === svg && this.mine(e) && this.end());
    svg.addEventListener('contextmenu', (e) => this.pointerId !== null && e.preventDefault()); // a long touch
    // The release (or Escape) decided already: the click that follows a press must not choose again.
    svg.addEventListener('click', (e) => {
      if (e.timeStamp - this.upAt < CLICK_AFTER_MS) {
        this.upAt = -Infinity;
        e.stopImmediatePropagation();
      }
    }, true); // capture: before the board's own click handler
  }

  mine(e) {
    return this.pointerId !== null && e.pointerId === this.pointerId;
  }

  down(e) {
    this.pressId = null;
    this.upAt = -Infinity;
    if (!e.isPrimary || e.button !== 0 || this.pointerId !== null) return;
    const p = this.pointAt(e.clientX, e.clientY);
    if (p === null) return;
    this.pointerId = e.pointerId;
    this.pressId = e.pointerId;
    this.svg.setPointerCapture?.(e.pointerId); // moves and the release come here, even off the board
    window.addEventListener('keydown', this.onKey, true);
    this.hold(p);
  }

  move(e) {
    if (this.mine(e)) this.hold(this.pointAt(e.clientX, e.clientY));
  }

  up(e) {
    if (e.pointerId === this.pressId) {
      this.pressId = null;
      this.upAt = e.timeStamp;
    }
    if (!this.mine(e)) return;
    const p = this.pointAt(e.clientX, e.clientY);
    this.end();
    if (p !== null) this.onRelease(p);
  }

  hold(p) {
    if (p === this.held) return;
    this.held = p;
    this.onHold(p);
  }

  /** The press is over (released, cancelled or Escape): the guide goes. */
  end() {
    if (this.pointerId === null) return;
    const id = this.pointerId;
    this.pointerId = null;
    window.removeEventListener('keydown', this.onKey, true);
    if (this.svg.hasPointerCapture?.(id)) this.svg.releasePointerCapture(id);
    this.hold(null);
  }
}

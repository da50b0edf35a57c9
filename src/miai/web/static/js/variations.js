// An uploaded record's variations in the move list (issue 19), as Sabaki and OGS show them: a branch marker
// beside the move a variation replaces; choosing it opens the variation's moves under that move, and a move
// there shows its line on the board. The server gives every move of the tree with the stones it captured
// (GET /games/{id}/record), so the board of a variation is the main line's board where it branches plus
// its own moves: no rules are played here.
import { get } from './api.js';
import { h } from './dom.js';

export class Variations {
  /**
   * onShow(view, ply): show `view` ({board, last, position, label}) on the board, `ply` the main-line move
   * it branches after; label(team) names a team, text(move) words a move, stone(team) its swatch.
   */
  constructor({ onShow, label, text, stone }) {
    this.onShow = onShow;
    this.label = label;
    this.text = text;
    this.stone = stone;
    this.nodes = [];
    this.children = new Map(); // node id (or 'start') -> child ids, in the record's order
    this.opened = new Set(); // variations whose moves are listed
    this.current = null; // the node shown, or null
  }

  async load(path) {
    const data = await get(path);
    this.nodes = data.nodes;
    this.children = new Map();
    for (const n of this.nodes) {
      const key = n.parent === null ? 'start' : n.parent;
      if (!this.children.has(key)) this.children.set(key, []);
      this.children.get(key).push(n.id);
    }
  }

  /** The record's comment (SGF C[]) on the move shown: the variation's move on screen, else the main line's
   * move `ply`; '' for none. */
  commentOf(ply) {
    const n = this.current !== null ? this.nodes[this.current]
      : this.nodes.find((x) => x.main && x.ply === ply);
    return (n && n.comment) || '';
  }

  get any() {
    return this.nodes.some((n) => !n.main);
  }

  /** Branch markers on the rendered move list (`list` has one li per main-line move, `data-ply`). */
  decorate(list, history) {
    this.list = list;
    this.history = history;
    for (const n of this.nodes) {
      if (!n.main || !this.others(n).length) continue;
      const item = list.querySelector(`li[data-ply="${n.ply}"]`);
      if (item) this.mark(item, n);
    }
    this.highlight();
  }

  /** The variations beside node `n`: its siblings after the first (the first child is the line itself). */
  others(n) {
    const siblings = this.children.get(n.parent === null ? 'start' : n.parent) || [];
    return siblings[0] === n.id ? siblings.slice(1).map((id) => this.nodes[id]) : [];
  }

  mark(item, n) {
    for (const v of this.others(n)) {
      const shown = this.opened.has(v.id);
      const button = h('button.link.variation-marker', {
        type: 'button',
        'aria-expanded': String(shown),
        'aria-label': `Variation instead of this move: ${this.label(v.team)} ${this.text(v.move)}`,
        dataset: { node: String(v.id) },
        onclick: () => this.toggle(item, v),
      }, '◆ ', this.text(v.move));
      item.append(' ', button);
      if (shown) item.after(this.line(v));
    }
  }

  toggle(item, v) {
    const open = item.parentNode.querySelector(`ol.variation[data-start="${v.id}"]`);
    if (open) {
      open.remove();
      this.opened.delete(v.id);
      item.querySelector(`button[data-node="${v.id}"]`).setAttribute('aria-expanded', 'false');
      return;
    }
    this.opened.add(v.id);
    item.querySelector(`button[data-node="${v.id}"]`).setAttribute('aria-expanded', 'true');
    item.after(this.line(v));
    this.show(v.id);
  }

  /** A variation's moves, from its first along the first child each time; branches inside it get markers. */
  line(start) {
    const items = [];
    for (let n = start; n; n = this.nodes[(this.children.get(n.id) || [])[0]]) {
      const stone = this.stone(n.team);
      const item = h('li', { dataset: { node: String(n.id) } },
        h('button.link', { type: 'button', onclick: () => this.show(n.id) },
          stone ? [stone, h('span.sr-only', `${this.label(n.team)} `)] : `${this.label(n.team)} `, this.text(n.move)));
      items.push(item);
      if (this.others(n).length) this.mark(item, n);
    }
    const list = h('ol.variation', { 'aria-label': `Variation: ${this.text(start.move)}`, dataset: { start: String(start.id) } }, items);
    list.style.counterReset = `ply ${start.ply - 1}`; // numbered as the moves of the game it branches from
    return list;
  }

  /** Show node `id` on the board: the main line's board where its line branches, then its line's moves. */
  show(id) {
    const path = [];
    let n = this.nodes[id];
    while (n && !n.main) {
      path.unshift(n);
      n = n.parent === null ? null : this.nodes[n.parent];
    }
    const ply = n ? n.ply : 0;
    const base = this.history[Math.min(ply, this.history.length - 1)];
    if (!base) return;
    const board = base.board.slice();
    for (const m of path) {
      if (m.point !== null) board[m.point] = m.team;
      for (const p of m.removed) board[p] = 0;
    }
    const last = path[path.length - 1];
    const lastView = { team: last.team, move: last.move, point: last.point };
    this.current = id;
    this.highlight();
    this.onShow({
      board,
      last: lastView,
      position: { ...base.position, board, last: lastView, to_move: null },
      label: `Variation after move ${ply}, its move ${path.length}: ${this.label(last.team)} ${this.text(last.move)}`,
    }, ply);
  }

  /** Back to the main line (the page shows one of its moves). */
  leave() {
    this.current = null;
    this.highlight();
  }

  highlight() {
    if (!this.list) return;
    for (const li of this.list.querySelectorAll('ol.variation li')) {
      const on = li.dataset.node === String(this.current);
      li.classList.toggle('current', on);
      if (on) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    }
  }
}

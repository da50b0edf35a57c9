// The game record beside the board: every move in the game's own notation after its team's stone, the shown one
// highlighted; a move is a button that shows the board after it (when the page has the history).
import { clear, h } from './dom.js';

export class MoveList {
  constructor(onPick) {
    this.onPick = onPick;
    this.list = h('ol#move-list', { 'aria-label': 'Moves' });
    this.empty = h('p.muted.small', 'No moves yet.');
    this.card = h('section.card.moves-card', { 'aria-labelledby': 'moves-title', hidden: true },
      h('h2#moves-title', 'Moves'), this.empty, this.list);
    this.items = [];
    this.current = null;
  }

  /**
   * moves: [{team, move}]; label(team) and text(move) for people; mark(team) the team's stone (a node), shown
   * instead of its name (which screen readers still read), or null to show the name; `steppable` when clicks
   * can show a move.
   */
  render(moves, label, text, steppable, shown, mark = () => null) {
    this.card.hidden = moves === null;
    if (moves === null) return;
    this.empty.hidden = moves.length > 0;
    this.items = moves.map((m, i) => {
      const stone = mark(m.team);
      const who = stone ? [stone, h('span.sr-only', `${label(m.team)} `)] : [`${label(m.team)} `];
      const words = [...who, text(m.move)];
      return h('li', { dataset: { ply: String(i + 1) } },
        steppable ? h('button.link', { type: 'button', onclick: () => this.onPick(i + 1) }, ...words) : words);
    });
    clear(this.list, this.items);
    this.current = null;
    this.setCurrent(shown);
  }

  setCurrent(shown) {
    if (this.current === shown) return;
    this.current = shown;
    this.items.forEach((li, i) => {
      li.classList.toggle('current', i + 1 === shown);
      if (i + 1 === shown) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    });
    const item = this.items[shown - 1];
    if (item && !this.card.hidden) this.reveal(item);
  }

  /** Scroll the list, and only the list, to show `item`: scrollIntoView would scroll the page too, pushing
   * the board out of view when a long game opens at its last move. */
  reveal(item) {
    const box = this.list.getBoundingClientRect();
    const at = item.getBoundingClientRect();
    const shift = (start, end, low, high) => (start < low ? start - low : Math.max(0, end - high));
    this.list.scrollTop += shift(at.top, at.bottom, box.top, box.bottom);
    this.list.scrollLeft += shift(at.left, at.right, box.left, box.right);
  }
}

// Stepping through a game's moves on the game page: the first / previous / next / last buttons with the move
// counter, the move list beside the board (movelist.js), `?move=N` links, and an uploaded record's variations
// (variations.js). The page shows the live position while `viewIndex` is null.
import { h, icon, toast } from '../dom.js';
import { moveText } from '../format.js';
import { MoveList } from '../movelist.js';
import { swatch } from '../palette.js';
import { Variations } from '../variations.js';

export class Stepper {
  constructor(page) {
    this.page = page;
    this.counter = h('span.counter', { id: 'move-counter' });
    const button = (where, label) =>
      h('button.secondary.icon', { type: 'button', 'aria-label': label, title: label, onclick: () => this.step(where) }, icon(where));
    this.buttons = {
      first: button('first', 'First move'),
      prev: button('prev', 'Previous move'),
      next: button('next', 'Next move'),
      last: button('last', 'Last move'),
    };
    this.fullscreenButton = h('button.secondary.small#fullscreen', { type: 'button' }, icon('fullscreen'), h('span', 'Full screen'));
    this.el = h('div.stepper', { role: 'group', 'aria-label': 'Move history' },
      this.buttons.first, this.buttons.prev, this.counter, this.buttons.next, this.buttons.last, this.fullscreenButton);
    this.moveList = new MoveList((i) => this.showMove(i));
    // An uploaded record's comment (SGF C[]) on the move shown: text, never markup.
    this.comment = h('section.move-comment#move-comment', { hidden: true, 'aria-live': 'polite', 'aria-label': 'Comment on this move' });
  }

  /** `?move=N`: show the board after move N (the last one when N is beyond it); not a whole number: ignored. */
  openAt(text) {
    const page = this.page;
    if (text === null || !/^\d{1,9}$/.test(text) || !page.history.length) return;
    this.showMove(Math.min(Number(text), page.history.length - 1));
  }

  /** Show the board after move `i` (from the move list). */
  showMove(i) {
    const page = this.page;
    if (!page.history.length || i >= page.history.length) return;
    this.leaveVariation();
    page.viewIndex = i === page.history.length - 1 ? null : i;
    if (!page.live()) page.boardPlay.setPreview(null);
    page.renderBoard();
    page.controls.render();
  }

  step(where) {
    const page = this.page;
    if (!page.snap || !page.history.length) return;
    const lastIndex = page.history.length - 1;
    let i = page.shownIndex();
    if (where === 'first') i = 0;
    else if (where === 'prev') i = Math.max(0, i - 1);
    else if (where === 'next') i = Math.min(lastIndex, i + 1);
    else i = lastIndex;
    this.leaveVariation();
    page.viewIndex = i === lastIndex ? null : i;
    if (!page.live()) page.boardPlay.setPreview(null);
    page.renderBoard();
    page.controls.render();
  }

  leaveVariation() {
    const page = this.page;
    page.variation = null;
    if (page.variations) page.variations.leave();
  }

  /** An uploaded record's whole tree: its variations go into the move list (variations.js). */
  async loadVariations() {
    const page = this.page;
    const variations = new Variations({
      onShow: (view, ply) => {
        page.variation = view;
        page.viewIndex = ply;
        page.boardPlay.setPreview(null);
        page.renderBoard();
        page.controls.render();
      },
      label: (t) => page.teamLabel(t),
      text: moveText,
      stone: (t) => swatch(page.palette, t, 14),
    });
    try {
      await variations.load(`/games/${page.id}/record${page.q()}`);
      page.variations = variations;
    } catch (err) {
      toast(`The record's variations could not be read: ${err.raw || err.message}`, 'error');
    }
  }

  renderMoves() {
    const page = this.page;
    const snap = page.snap;
    const started = snap.status === 'active' || snap.status === 'finished';
    const shown = page.history.length ? page.shownIndex() : (snap.moves || []).length;
    const stone = (t) => (t ? swatch(page.palette, t, 14) : null);
    this.moveList.render(started ? snap.moves || [] : null, (t) => page.teamLabel(t), moveText, page.history.length > 1, shown, stone);
    if (page.variations) page.variations.decorate(this.moveList.list, page.history);
  }

  /** The counter and the buttons for move `shown` of `total`. */
  render(shown, total) {
    const page = this.page;
    const snap = page.snap;
    const move = shown > 0 && snap.moves ? snap.moves[shown - 1] : null;
    const what = move ? ` · ${page.teamLabel(move.team)}: ${moveText(move.move)}` : '';
    this.moveList.setCurrent(shown);
    this.counter.textContent = page.variation ? page.variation.label : `Move ${shown} of ${total}${what}`;
    const canStep = page.history.length > 1;
    this.buttons.first.disabled = !canStep || shown === 0;
    this.buttons.prev.disabled = !canStep || shown === 0;
    this.buttons.next.disabled = !canStep || page.live();
    this.buttons.last.disabled = !canStep || page.live();
    this.el.hidden = !(snap.status === 'active' || snap.status === 'finished');
    const comment = page.variations ? page.variations.commentOf(shown) : '';
    this.comment.textContent = comment;
    this.comment.hidden = !comment;
  }
}

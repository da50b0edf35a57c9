// The game page's board: made for the game's kind (Go's BoardView, or the kind's own board from
// games/registry.js), drawn at the move shown, and a move chosen on it: hover and keyboard hints with the
// rules' verdict (client-side; the server decides), a preview until Submit Move, or one click.
import { BoardView } from '../board.js';
import { isPractice, vertex } from '../format.js';
import { teamNames } from '../gameparts.js';
import { kindOf } from '../games/registry.js';
import { setBoardRatio } from '../layout.js';
import { REASONS, analyzePlay } from '../rules.js';
import { settings } from '../session.js';

export class BoardPlay {
  constructor(page) {
    this.page = page;
    this.hover = null;
  }

  /** The board of this game's kind, made on the first snapshot (Go's BoardView, or the kind's CellBoard). */
  make() {
    const page = this.page;
    const entry = kindOf(page.snap.kind);
    if (page.board && entry === page.entry) return;
    if (page.board) page.board.svg.remove();
    page.entry = entry;
    page.preview = null;
    if (!entry) {
      page.board = new BoardView(page.boardHost, {
        onActivate: (p, keyboard) => this.activate(p, keyboard),
        onHover: (p) => this.hovered(p),
        onCursor: (p) => this.cursorMoved(p),
        onKey: (e) => this.boardKey(e),
      });
      return;
    }
    page.board = new entry.Board(page.boardHost, {
      onMove: (text, keyboard) => this.chosen(text, keyboard),
      onCancel: () => this.setPreview(null),
      onHint: (text, bad) => {
        page.hint.textContent = text;
        page.hint.classList.toggle('bad', Boolean(bad));
        page.srLive.textContent = text;
      },
      onKey: (e) => this.boardKey(e),
    });
  }

  /** Draw the board at the move shown; returns the view drawn. */
  draw() {
    const page = this.page;
    const view = this.view();
    page.board.render(view);
    setBoardRatio(page.game, page.board.svg);
    if (!page.entry) page.board.mark({ preview: page.preview !== null && page.live() ? { p: page.preview, team: page.snap.to_move.team } : null, hover: null });
    return view;
  }

  view() {
    const page = this.page;
    const s = settings();
    const snap = page.snap;
    const position = page.shownPosition();
    if (page.entry) {
      const names = teamNames(snap) || [];
      const shown = page.shownIndex();
      const before = page.history.length && shown > 0 ? page.history[shown - 1] : null;
      return {
        position: position.position,
        names,
        palette: page.palette,
        coords: s.coordinates !== false,
        canPlay: page.myTurn(),
        preview: page.live() ? page.preview : null,
        previous: before ? before.board : null,
        label: `${page.entry.boardLabel(position.position, names)} PageUp and PageDown step through the moves.`,
      };
    }
    const finished = snap.status === 'finished' && snap.result;
    const showTerritory = finished && page.live() && page.cards.showTerritory;
    const estimate = page.estimate.shown() ? page.estimate.area : null;
    const marks = (key) => new Set(showTerritory && !estimate ? (snap.result[key] || []).map((v) => this.pointOf(v)) : []);
    return {
      size: snap.options.size,
      board: position.board,
      last: position.last ? position.last.point : null,
      palette: page.palette,
      coords: s.coordinates !== false,
      territory: showTerritory ? snap.result.territory : estimate ? estimate.owner : null,
      dead: estimate ? estimate.dead : marks('dead'),
      seki: marks('seki'),
      dame: marks('dame'),
      shade: estimate ? estimate.shade : page.review.shade(page.history.length ? page.shownIndex() : 0),
      pressable: page.myTurn(),
      label: `Go board ${snap.options.size} by ${snap.options.size}. Arrow keys move the cursor, Enter plays, PageUp and PageDown step through the moves.`,
    };
  }

  pointOf(text) {
    const n = this.page.snap.options.size;
    const col = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.indexOf(text[0]);
    return (Number(text.slice(1)) - 1) * n + col;
  }

  /** A whole move chosen on another game's board: play it at once, or preview it until Submit. */
  chosen(text, keyboard) {
    const page = this.page;
    if (!page.myTurn()) return;
    if ((keyboard && page.preview === text) || this.oneClick()) {
      page.moves.play(text);
      return;
    }
    this.setPreview(text);
  }

  previewText() {
    const page = this.page;
    if (page.preview === null) return '';
    return page.entry ? page.entry.moveText(page.preview) : vertex(page.preview, page.snap.options.size);
  }

  /** Whether a point is legal for the team to move, and why not (client-side; the server decides). */
  judge(p) {
    const page = this.page;
    const snap = page.snap;
    const n = snap.options.size;
    const position = page.shownPosition();
    const where = vertex(p, n);
    if (snap.status !== 'active') return { p, legal: false, text: `${where}` };
    if (!page.live()) return { p, legal: false, text: `${where}: you are looking at an earlier move; go to the last move to play` };
    const team = snap.to_move.team;
    const rules = snap.rules || {};
    const a = analyzePlay(position.board, n, p, team, rules, page.history);
    const mine = page.myTurn();
    let text = `${where}: ${a.legal ? 'legal' : `illegal, ${REASONS[a.reason]}`}`;
    if (a.legal && a.captured && a.captured.length) text += `, captures ${a.captured.length}`;
    if (!mine) text += page.me() && page.me().team ? ' (not your turn)' : '';
    return { p, team, legal: a.legal && mine, reason: a.reason, text };
  }

  hovered(p) {
    const page = this.page;
    if (p === null || !page.snap || page.snap.status !== 'active') {
      this.hover = null;
      page.board.mark({ hover: null });
      return;
    }
    const j = this.judge(p);
    this.hover = j;
    page.hint.textContent = j.text;
    page.hint.classList.toggle('bad', !j.legal && page.myTurn());
    page.board.mark({ hover: page.myTurn() ? { p, team: j.team, legal: j.legal } : null });
  }

  cursorMoved(p) {
    const page = this.page;
    const desc = page.board.describe(page.board.view, p);
    const j = page.snap.status === 'active' && page.live() ? this.judge(p) : null;
    const text = j ? `${desc}. ${j.text.split(': ').slice(1).join(': ')}` : desc;
    page.hint.textContent = text;
    page.srLive.textContent = text;
  }

  boardKey(event) {
    if (event.key === 'PageUp') this.page.stepper.step('prev');
    else if (event.key === 'PageDown') this.page.stepper.step('next');
    else if (event.key === 'Escape') this.setPreview(null);
  }

  activate(p, keyboard) {
    const page = this.page;
    if (!page.snap || page.snap.status !== 'active') return;
    if (!page.myTurn()) {
      page.hint.textContent = page.live() ? 'It is not your turn.' : 'Go to the last move to play.';
      return;
    }
    if (keyboard && page.preview === p) {
      this.submitPreview();
      return;
    }
    const j = this.judge(p);
    if (!j.legal) {
      page.hint.textContent = j.text;
      page.hint.classList.add('bad');
      page.srLive.textContent = j.text;
      return;
    }
    if (this.oneClick()) {
      page.moves.play(vertex(p, page.snap.options.size));
      return;
    }
    this.setPreview(p);
  }

  /** A whole move chosen on the board plays at once in practice games (as in Dgo) or with the one-click
   * setting: Go's point, Hex's or Tanbo's cell, Amazons' third click (the arrow). */
  oneClick() {
    return settings().one_click || isPractice(this.page.snap.options);
  }

  setPreview(p) {
    const page = this.page;
    page.preview = p;
    const team = page.snap && page.snap.to_move ? page.snap.to_move.team : 1;
    if (page.entry) page.renderBoard();
    else page.board.mark({ preview: p === null ? null : { p, team } });
    page.controls.render();
    if (p !== null) {
      const again = page.entry || page.board.cursor === p ? ' or Enter again' : '';
      const text = `Preview ${this.previewText()}: press Submit Move${again} to play it.`;
      page.hint.textContent = text;
      page.hint.classList.remove('bad');
      page.srLive.textContent = text;
    }
  }

  submitPreview() {
    const page = this.page;
    if (page.preview === null) return;
    page.moves.play(page.entry ? page.preview : vertex(page.preview, page.snap.options.size));
  }
}

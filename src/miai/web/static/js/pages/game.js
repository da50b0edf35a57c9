// The game page: board, turn and clock, teams, chat, history stepping, result and territory, live updates.
// This entry lays the page out and keeps what its parts share: the snapshot, the move history, the move shown
// and the move previewed, with the questions about them (whose turn, which position). Each part is a module
// in ../gamepage/ that reaches the others through the page:
//   feed.js       loading the game and applying its live events
//   boardplay.js  the board: made for the game's kind, drawn, and a move chosen on it (hover, preview, click)
//   moves.js      sending a move, and what the page says when that fails
//   controls.js   the buttons under the board: Submit Move, Pass, Resign, a draw offer, practice undo and redo
//   stepper.js    stepping through the moves, the move list and an uploaded record's variations
//   estimate.js   the "Area" territory estimate
//   clockbar.js   the teams' clocks and the time left to move
//   lobby.js      the status line and the lobby's buttons (join, confirm, leave, decline, invite, computers)
//   cards.js      the side cards: teams, result, rules
//   chatcard.js   the game's chat
// Go has its own board and hover rules; every other game's board comes from games/registry.js and hands back
// whole moves as text (this.entry is that game's entry, null for Go).
import { inviteQuery } from '../api.js';
import { ServerClock } from '../clocks.js';
import { clear, h, toast } from '../dom.js';
import { optionsSummary } from '../format.js';
import { gameTitle, teamName, teamNames } from '../gameparts.js';
import { BoardPlay } from '../gamepage/boardplay.js';
import { SideCards } from '../gamepage/cards.js';
import { GameChat } from '../gamepage/chatcard.js';
import { ClockBar } from '../gamepage/clockbar.js';
import { Controls } from '../gamepage/controls.js';
import { AreaEstimate } from '../gamepage/estimate.js';
import { GameFeed } from '../gamepage/feed.js';
import { Lobby } from '../gamepage/lobby.js';
import { MoveSender } from '../gamepage/moves.js';
import { Stepper } from '../gamepage/stepper.js';
import { FullscreenButton, watchAbove } from '../layout.js';
import { boardPalette } from '../palette.js';
import { ReviewPanel } from '../review.js';
import { settings } from '../session.js';
import { readySoundOnFirstGesture, soundToggle } from '../sound.js';
import { tabSession } from '../storage.js';
import { isRecord, recordTitle } from '../uploaded.js';

export async function gamePage(main, params, query) {
  const page = new GamePage(main, Number(params.id), query.get('invite'));
  await page.feed.load();
  page.stepper.openAt(query.get('move')); // `?move=N` (the archive's links): the history at move N
  return () => page.destroy();
}

class GamePage {
  constructor(main, id, invite) {
    this.main = main;
    this.id = id;
    this.invite = invite || tabSession.get(`miai-invite-${id}`);
    this.snap = null;
    this.history = []; // [{board, mover, last, position}] position before the first move, then after each move
    this.viewIndex = null; // null: follow the game; else a move number in the history
    this.variations = null; // an uploaded record's variations (variations.js), once loaded
    this.variation = null; // the variation's position shown, branching after move `viewIndex`; null: none
    this.preview = null; // Go: a point; other games: a move's text
    this.entry = null;
    this.board = null; // made once the snapshot says which game this is (boardplay.js)
    this.drawTeams = [];
    this.redo = null; // moves that can be redone in a practice game, when known
    this.busy = false; // a move or a practice step is on its way
    this.clock = new ServerClock(); // the server's time: clocks run on it, not on this computer's clock
    this.build();
  }

  q(first = '?') {
    return inviteQuery(this.invite, first);
  }

  // ------------------------------------------------------------------ layout

  build() {
    this.title = h('h1', `Game ${this.id}`);
    this.summary = h('p.muted.small.summary');
    this.watchers = h('p.muted.small.watchers#watchers', { hidden: true }); // spectators (not players)
    this.boardHost = h('div.board-wrap');
    this.hint = h('p.hint', { id: 'hint' }, '\u00a0');
    this.srLive = h('p.sr-only', { 'aria-live': 'assertive', id: 'sr-live' });
    this.feed = new GameFeed(this);
    this.boardPlay = new BoardPlay(this);
    this.moves = new MoveSender(this);
    this.stepper = new Stepper(this);
    this.controls = new Controls(this);
    this.estimate = new AreaEstimate(this);
    this.clocks = new ClockBar(this);
    this.lobby = new Lobby(this);
    this.cards = new SideCards(this);
    this.review = new ReviewPanel({ // the engine review of a finished game (review.js)
      path: (rest) => `/games/${this.id}${rest}${this.q()}`,
      jump: (i) => this.stepper.showMove(i),
      redraw: () => this.renderBoard(),
      teamLabel: (t) => this.teamLabel(t),
    });
    this.chat = new GameChat(this);
    // The board with its clocks and controls fits the window (app.css); this block is what goes full screen.
    this.playArea = h('div.game-play#game-play',
      h('section.board-area', { 'aria-label': 'Board' }, this.boardHost),
      h('section.play-panel', { 'aria-label': 'Status and controls' },
        this.lobby.statusBox,
        this.lobby.thinking,
        this.lobby.lobbyBox,
        this.clocks.bar,
        this.hint,
        this.srLive,
        this.stepper.el,
        this.stepper.comment,
        this.controls.actions,
        this.controls.drawBox,
        this.controls.practiceBox,
        this.estimate.box,
        this.stepper.moveList.card,
      ),
    );
    // On a phone the chat is a sheet over the page's foot, one tap away (app.css); beside the board elsewhere.
    this.chatButton = h('button.secondary.small#chat-open', {
      type: 'button', 'aria-expanded': 'false', 'aria-controls': 'game-chat', onclick: () => this.showChat(!this.chatOpen),
    }, 'Chat');
    this.stepper.el.append(this.chatButton);
    this.chat.card.id = 'game-chat';
    this.chat.card.prepend(h('button.secondary.small.chat-close#chat-close', { type: 'button', onclick: () => this.showChat(false) }, 'Close chat'));
    this.chatOpen = false;
    this.game = h('div.game',
      h('div.game-head', soundToggle((text) => toast(text, 'error')), this.title, this.summary, this.watchers),
      this.playArea,
      h('aside.side', { 'aria-label': 'Game information' },
        this.cards.resultBox,
        this.chat.card,
        this.review.card,
        this.cards.teamsBox,
        this.cards.infoBox,
      ),
    );
    clear(this.main, this.game);
    this.stopWatchingAbove = watchAbove(this.game);
    this.fullscreen = new FullscreenButton(this.playArea, this.stepper.fullscreenButton, (text) => toast(text, 'error'));
    this.palette = settings().palette;
    this.clocks.start();
    readySoundOnFirstGesture();
  }

  /** The phone's chat sheet: open (its input focused) or closed. */
  showChat(open) {
    this.chatOpen = open;
    this.game.classList.toggle('chat-open', open);
    this.chatButton.setAttribute('aria-expanded', String(open));
    if (open) this.chat.panel.input.focus({ preventScroll: true });
  }

  destroy() {
    this.clocks.stop();
    this.stopWatchingAbove();
    this.fullscreen.stop();
    this.feed.stop();
  }

  // ------------------------------------------------------------------ state questions

  me() {
    return this.snap && this.snap.you;
  }

  isMine(team) {
    return this.snap.you && this.snap.you.team === team;
  }

  live() {
    return this.viewIndex === null;
  }

  myTurn() {
    const me = this.me();
    return Boolean(
      me && this.snap.status === 'active' && this.snap.to_move && this.snap.to_move.user_id === me.user_id && this.live(),
    );
  }

  shownIndex() {
    return this.viewIndex === null ? this.history.length - 1 : this.viewIndex;
  }

  shownPosition() {
    const snap = this.snap;
    const n = snap.options.size;
    if (!snap.position) {
      const empty = new Array(n * n).fill(0);
      return { board: empty, last: null, position: { kind: snap.kind, size: n, cells: empty, to_move: null, last: null, plies: 0, over: false } };
    }
    if (this.variation) return this.variation;
    if (this.live() || !this.history.length) return { board: snap.position.board, last: snap.position.last, position: snap.position };
    const entry = this.history[this.viewIndex];
    return { board: entry.board, last: entry.last, position: entry.position };
  }

  teamLabel(t) {
    if (!t) return 'Remaining teams'; // the agreed draw, a record of no team (team null)
    return teamName(this.palette, t, teamNames(this.snap, this.palette));
  }

  // ------------------------------------------------------------------ rendering

  render() {
    const snap = this.snap;
    const s = settings();
    // Shapes on the stones where they help: more than two colours, accessible palettes, or the setting.
    this.palette = boardPalette(this.entry ? this.entry.palette(s.palette) : s.palette, snap.options.teams, s.stone_marks);
    const title = isRecord(snap) ? recordTitle(snap) : gameTitle(snap, this.entry ? `${this.entry.title} game ${snap.id}` : `Game ${snap.id}`);
    this.title.textContent = title;
    this.summary.textContent = isRecord(snap) ? `Uploaded record · ${optionsSummary(snap.options, snap.kind, false)}` : optionsSummary(snap.options, snap.kind);
    document.title = `${title} · Miai`;
    this.estimate.update();
    this.renderBoard();
    this.lobby.render();
    this.clocks.render();
    this.controls.render();
    this.cards.render();
    this.stepper.renderMoves();
    this.review.update(snap, this.palette);
    this.chat.update(snap, this.palette);
  }

  /** The board at the move shown, with the review's marks on it and the stepper's counter below. */
  renderBoard() {
    const view = this.boardPlay.draw();
    const total = this.snap.moves ? this.snap.moves.length : 0;
    const shown = this.history.length ? this.shownIndex() : total;
    if (!this.entry) this.review.decorate(this.board, shown, view.board);
    this.review.showAt(shown);
    this.stepper.render(shown, total);
    this.boardHost.classList.toggle('history', !this.live());
  }
}

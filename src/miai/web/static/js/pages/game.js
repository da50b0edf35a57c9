// The game page: board, turn and clock, teams, chat, history stepping, result and territory, live updates.
// Go has its own board and hover rules here; every other game's board comes from games/registry.js and hands
// back whole moves as text (this.entry is that game's entry, null for Go).
import { get, inviteQuery, post } from '../api.js';
import { areaSummary } from '../area.js';
import { readGame } from '../bell.js';
import { BoardView } from '../board.js';
import { ChatPanel } from '../chat.js';
import { LowTimeAlarm, ServerClock, turnClocks } from '../clocks.js';
import { offline } from '../connection.js';
import { clear, confirmDialog, h, icon, link, toast } from '../dom.js';
import { isPractice, moveText, optionsSummary, removalReason, secondsUntil, vertex } from '../format.js';
import {
  clockNames, deadlineText, gameTitle, markLegend, playerName, ratingNote, resultSection, rulesList, teamName, teamNames,
  teamsList,
} from '../gameparts.js';
import { kindOf } from '../games/registry.js';
import { MoveList } from '../movelist.js';
import { isRecord, recordTeams, recordTitle } from '../uploaded.js';
import { Variations } from '../variations.js';
import { FullscreenButton, setBoardRatio, watchAbove } from '../layout.js';
import { LiveSocket, socketUrl } from '../live.js';
import { watchingText } from '../livecards.js';
import { boardPalette, swatch } from '../palette.js';
import { ReviewPanel } from '../review.js';
import { REASONS, analyzePlay } from '../rules.js';
import { session, settings } from '../session.js';
import { beep, moveSound, readySoundOnFirstGesture, soundToggle } from '../sound.js';
import { tabSession } from '../storage.js';

const CANCELLED = {
  declined: 'the challenge was declined',
  no_players: 'nobody was left to play (computers do not play alone)',
};

const REFRESH_EVENTS = new Set([
  'created', 'joined', 'confirming', 'confirmed', 'left', 'unconfirmed_removed', 'declined', 'started',
  'finished', 'result_corrected', 'flagged', 'computer_added', 'cancelled',
]);

export async function gamePage(main, params, query) {
  const page = new GamePage(main, Number(params.id), query.get('invite'));
  await page.load();
  page.openAt(query.get('move')); // `?move=N` (the archive's links): the history at move N
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
    this.hover = null;
    this.drawTeams = [];
    this.lastV = 0;
    this.showTerritory = true;
    this.areaOn = false; // the "Area" view: the server's live territory estimate
    this.area = null; // its summary for the position `area.key`
    this.areaKey = null; // the position last asked for
    this.areaTicket = 0; // answers to older requests are dropped
    this.busy = false;
    this.sendError = null; // the move error shown in the hint, cleared once the page catches up
    this.unsure = null; // { move, before }: a move sent as the network failed, until the page knows its fate
    this.refreshing = null;
    this.clock = new ServerClock(); // the server's time: clocks run on it, not on this computer's clock
    this.alarm = new LowTimeAlarm();
    this.build();
  }

  q(first = '?') {
    return inviteQuery(this.invite, first);
  }

  // ------------------------------------------------------------------ layout

  build() {
    const s = settings();
    this.title = h('h1', `Game ${this.id}`);
    this.summary = h('p.muted.small.summary');
    this.watchers = h('p.muted.small.watchers#watchers', { hidden: true }); // spectators (not players)
    this.clockBar = h('div.clock-bar#clocks', { role: 'group', 'aria-label': 'Clocks', hidden: true });
    this.statusBox = h('div.status', { id: 'status', 'aria-live': 'polite' });
    this.boardHost = h('div.board-wrap');
    this.hint = h('p.hint', { id: 'hint' }, '\u00a0');
    this.srLive = h('p.sr-only', { 'aria-live': 'assertive', id: 'sr-live' });
    this.counter = h('span.counter', { id: 'move-counter' });
    this.stepButtons = {
      first: h('button.secondary.icon', { type: 'button', 'aria-label': 'First move', title: 'First move', onclick: () => this.step('first') }, icon('first')),
      prev: h('button.secondary.icon', { type: 'button', 'aria-label': 'Previous move', title: 'Previous move', onclick: () => this.step('prev') }, icon('prev')),
      next: h('button.secondary.icon', { type: 'button', 'aria-label': 'Next move', title: 'Next move', onclick: () => this.step('next') }, icon('next')),
      last: h('button.secondary.icon', { type: 'button', 'aria-label': 'Last move', title: 'Last move', onclick: () => this.step('last') }, icon('last')),
    };
    const fullscreen = h('button.secondary.small#fullscreen', { type: 'button' }, icon('fullscreen'), h('span', 'Full screen'));
    this.stepper = h('div.stepper', { role: 'group', 'aria-label': 'Move history' },
      this.stepButtons.first, this.stepButtons.prev, this.counter, this.stepButtons.next, this.stepButtons.last, fullscreen);
    this.submitButton = h('button.primary#submit-move', { type: 'button', onclick: () => this.submitPreview() }, 'Submit Move');
    this.passButton = h('button.secondary#pass', { type: 'button', onclick: () => this.pass() }, 'Pass');
    this.resignButton = h('button.danger#resign', { type: 'button', onclick: () => this.resign() }, 'Resign');
    this.drawBox = h('div.draw');
    this.practiceBox = h('div.practice', { role: 'group', 'aria-label': 'Take back moves' });
    this.redo = null; // moves that can be redone in a practice game, when known
    this.areaButton = h('button.secondary.small#area', { type: 'button', 'aria-pressed': 'false', onclick: () => this.toggleArea(!this.areaOn) }, 'Area');
    this.areaCheck = h('input#show-estimate', { type: 'checkbox', onchange: (e) => this.toggleArea(e.target.checked) });
    this.areaLabel = h('label.small', this.areaCheck, ' Show territory estimate');
    this.areaScore = h('p.small.area-score#area-score', { 'aria-live': 'polite' });
    this.areaBox = h('div.area-box', { role: 'group', 'aria-label': 'Territory estimate' }, this.areaButton, this.areaLabel, this.areaScore);
    this.extraActions = h('span.extra-actions'); // moves of the game's own, such as Hex's swap
    this.actions = h('div.actions', this.submitButton, this.extraActions, this.passButton, this.resignButton);
    this.lobbyBox = h('div.lobby-box');
    this.teamsBox = h('section.card', { 'aria-labelledby': 'teams-title' });
    this.resultBox = h('section.card.result-card', { 'aria-labelledby': 'result-title', hidden: true });
    this.infoBox = h('section.card.info', { 'aria-labelledby': 'info-title' });
    const chatCard = this.chatCard = h('div.card.chat-card');
    this.board = null; // made once the snapshot says which game this is
    this.review = new ReviewPanel({ // the engine review of a finished game (review.js)
      path: (rest) => `/games/${this.id}${rest}${this.q()}`,
      jump: (i) => this.showMove(i),
      redraw: () => this.renderBoard(),
      teamLabel: (t) => this.teamLabel(t),
    });
    this.moveList = new MoveList((i) => this.showMove(i));
    this.chat = new ChatPanel(chatCard, (channel, text) => post(`/games/${this.id}/chat`, { channel, text }));
    // The board with its clocks and controls fits the window (app.css); this block is what goes full screen.
    this.playArea = h('div.game-play#game-play',
      h('section.board-area', { 'aria-label': 'Board' }, this.boardHost),
      h('section.play-panel', { 'aria-label': 'Status and controls' },
        this.statusBox,
        this.lobbyBox,
        this.clockBar,
        this.hint,
        this.srLive,
        this.stepper,
        this.actions,
        this.drawBox,
        this.practiceBox,
        this.areaBox,
      ),
    );
    this.game = h('div.game',
      h('div.game-head', soundToggle((text) => toast(text, 'error')), this.title, this.summary, this.watchers),
      this.playArea,
      h('aside.side', { 'aria-label': 'Game information' },
        this.resultBox,
        this.review.card,
        this.teamsBox,
        this.moveList.card,
        chatCard,
        this.infoBox,
      ),
    );
    clear(this.main, this.game);
    this.stopWatchingAbove = watchAbove(this.game);
    this.fullscreen = new FullscreenButton(this.playArea, fullscreen, (text) => toast(text, 'error'));
    this.palette = s.palette;
    this.clockTimer = setInterval(() => this.tick(), 200); // often enough that a shown second is never late
    readySoundOnFirstGesture();
  }

  destroy() {
    clearInterval(this.clockTimer);
    this.stopWatchingAbove();
    this.fullscreen.stop();
    if (this.socket) this.socket.stop();
  }

  // ------------------------------------------------------------------ loading and live updates

  async load() {
    try {
      await this.applySnapshot(await this.fetchSnapshot());
    } catch (err) {
      clear(this.main, h('div.card', h('h1', `Game ${this.id}`), h('p.error', err.message), link('/', 'Back to the lobby')));
      return;
    }
    if (this.me()) readGame(this.id); // the player is looking at it: its "your turn" is read
    if (this.snap.invite_code) {
      this.invite = this.snap.invite_code;
      tabSession.set(`miai-invite-${this.id}`, this.invite);
    }
    this.socket = new LiveSocket(`game${this.id}`, {
      url: () => socketUrl(`/games/${this.id}/ws?since=${this.lastV}&watchers=1${this.q('&')}`),
      onMessage: (m) => this.onMessage(m),
      onOpen: (reconnected) => {
        if (reconnected) this.catchUp();
      },
      onGiveUp: (code, reason) => toast(`Live updates stopped: ${reason || code}`, 'error'),
      check: async () => {
        try {
          await get(`/games/${this.id}${this.q()}`);
          return true;
        } catch (err) {
          return !(err.status === 403 || err.status === 404);
        }
      },
    }).start();
  }

  /** Back after a lost connection: the snapshot is the truth, and errors about unsent moves are stale. */
  async catchUp() {
    if (!(await this.refresh())) return;
    if (this.unsure) this.settleUnsure();
    else this.clearSendError();
    toast('Reconnected; the game is up to date.');
  }

  /** GET the snapshot; the server's time in it sets the page's clock (off by at most half the round trip). */
  async fetchSnapshot() {
    const sent = performance.now();
    const snap = await get(`/games/${this.id}${this.q()}`);
    this.clock.sample(snap.now, sent, performance.now());
    return snap;
  }

  /**
   * Take a snapshot as the truth, unless live events newer than it were applied meanwhile (then the caller
   * fetches again). Rebuilds the move history from the events when it does not match the moves.
   */
  async applySnapshot(snap) {
    if (this.snap && snap.version < this.lastV) {
      this.refreshAgain = true;
      return;
    }
    const started = snap.status === 'active' || snap.status === 'finished';
    this.snap = snap;
    this.makeBoard();
    this.lastV = Math.max(this.lastV, snap.version);
    if (typeof snap.redo === 'number') this.redo = snap.redo; // practice games: the server keeps the redo line
    if (!started) this.history = [];
    else if (this.history.length !== snap.moves.length + 1) await this.loadHistory();
    if (isRecord(snap) && !this.variations) await this.loadVariations();
    this.render();
    this.chat.reset(this.snap.chat || []);
  }

  /** An uploaded record's whole tree: its variations go into the move list (variations.js). */
  async loadVariations() {
    const variations = new Variations({
      onShow: (view, ply) => {
        this.variation = view;
        this.viewIndex = ply;
        this.setPreview(null);
        this.renderBoard();
        this.renderActions();
      },
      label: (t) => this.teamLabel(t),
      text: moveText,
      stone: (t) => swatch(this.palette, t, 14),
    });
    try {
      await variations.load(`/games/${this.id}/record${this.q()}`);
      this.variations = variations;
    } catch (err) {
      toast(`The record's variations could not be read: ${err.message}`, 'error');
    }
  }

  /** Every event of the game, page by page. */
  async allEvents() {
    const events = [];
    let since = 0;
    for (;;) {
      const data = await get(`/games/${this.id}/events?since=${since}${this.q('&')}`);
      events.push(...data.events);
      // `until`: the last version the server looked at (it skips events this viewer may not read).
      if (data.until >= data.version || data.until <= since) return events;
      since = data.until;
    }
  }

  /**
   * Positions before and after every move, from the "started" and "move" events (they carry `position`);
   * a "reset" (undo in practice games) cuts the history back to the moves still on the board.
   */
  async loadHistory() {
    let history = [];
    try {
      const events = await this.allEvents();
      const teams = this.snap.options.teams;
      for (const e of events) {
        if (e.t === 'started') {
          const pos = e.d.position;
          const first = pos.to_move ? pos.to_move.team : 1;
          history = [historyEntry(pos, ((first + teams - 2) % teams) + 1)];
        } else if ((e.t === 'move' || e.t === 'draw_agreed') && history.length) { // draw_agreed: older games' draws
          history.push(historyEntry(e.d.position, e.d.team, e.d.move));
        } else if (e.t === 'reset') {
          history = cutBack(history, e.d);
        } else if (e.t === 'draw') {
          this.drawTeams = e.d.teams;
        }
      }
      const wanted = this.snap.moves.length; // live moves may have arrived while we waited
      history = history.slice(0, wanted + 1);
      if (history.length !== wanted + 1) history = [];
    } catch {
      history = []; // the current position still shows; only stepping back is unavailable
    }
    this.history = history;
  }

  onMessage(m) {
    if (m.t === 'watchers') { // the server's spectator count, sent on connecting and as it changes
      this.watchers.hidden = !m.d.count;
      this.watchers.textContent = watchingText(m.d.count);
      return;
    }
    if (m.t === 'snapshot') {
      this.clock.hint(m.d.now, performance.now());
      this.lastV = 0;
      this.history = [];
      this.applySnapshot(m.d);
      return;
    }
    if (m.t === 'review') { // an engine review's progress (unversioned, like `watchers`)
      this.review.onMessage(m.d);
      return;
    }
    if (m.v === null || m.v === undefined) return; // acks, errors, pongs
    if (m.v <= this.lastV) return;
    this.lastV = m.v;
    switch (m.t) {
      case 'move':
        this.applyMove(m.d);
        break;
      case 'chat':
        this.chat.add([m.d], true);
        break;
      case 'draw':
        this.drawTeams = m.d.teams;
        this.renderActions();
        if (!this.isMine(m.d.team)) toast(`Team ${m.d.team} ${m.d.accept ? 'offers a draw' : 'withdrew its draw offer'}.`);
        break;
      case 'started':
        this.history = [];
        this.refresh();
        break;
      case 'reset':
        this.applyReset(m.d);
        break;
      default:
        if (REFRESH_EVENTS.has(m.t)) this.refresh();
    }
  }

  isMine(team) {
    return this.snap.you && this.snap.you.team === team;
  }

  /**
   * Fetch the snapshot again (lifecycle events); several requests in a row collapse into one.
   * Resolves true once the page shows the server's state, false when the snapshot could not be had.
   */
  refresh() {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        do {
          this.refreshAgain = false;
          await this.applySnapshot(await this.fetchSnapshot());
        } while (this.refreshAgain);
        return true;
      } catch (err) {
        toast(err.message, 'error');
        return false;
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  applyMove(d) {
    const snap = this.snap;
    if (!snap.moves) return this.refresh();
    if (!['pass', 'resign', 'timeout', 'autopass', 'draw'].includes(d.move)) moveSound(); // a stone (or piece) goes down
    snap.moves.push({ ply: d.ply, team: d.team, seat: d.seat, move: d.move, user_id: d.user_id });
    if (this.history.length === snap.moves.length) {
      this.history.push(historyEntry(d.position, d.team, d.move));
    } else {
      this.history = []; // out of step (a missed event): the refresh below rebuilds it from the events
      this.refresh();
    }
    snap.position = d.position;
    const tm = d.position.to_move;
    snap.to_move = tm ? { team: tm.team, seat: tm.seat, user_id: this.userAt(tm.team, tm.seat) } : {};
    if (d.position.over) snap.status = 'finished'; // the result follows in the "finished" event
    if (d.deadline) snap.deadline = d.deadline;
    if (d.clocks) snap.clocks = d.clocks;
    snap.turn_started_at = d.turn_started_at || new Date(this.clock.now()).toISOString();
    const me = this.me();
    // Practice games: a move keeps the redo line only when it is the next undone move; the snapshot says which.
    if (isPractice(this.snap.options) && this.redo !== 0) this.refresh();
    if (me && d.user_id === me.user_id) this.clearSendError(); // it reached the server after all
    if (d.move === 'resign' || d.move === 'timeout') {
      const p = snap.players.find((x) => x.team === d.team && x.seat === d.seat);
      if (p) p.state = d.move === 'timeout' ? 'timed_out' : 'resigned';
    }
    if (this.preview !== null && (this.entry || d.position.board[this.preview] || !this.myTurn())) this.preview = null;
    const who = d.team ? `, ${playerName(snap, d.team, d.seat)}` : ''; // an agreed draw is no player's move
    this.srLive.textContent = `${this.teamLabel(d.team)}${who}: ${moveText(d.move)}.${this.myTurn() ? ' Your turn.' : ''}`;
    this.render();
  }

  /** Undo in a practice game: the position goes back; the move records come with a fresh snapshot. */
  applyReset(d) {
    this.history = cutBack(this.history, d);
    this.viewIndex = null;
    this.preview = null;
    this.redo = d.redo;
    Object.assign(this.snap, { position: d.position, to_move: d.to_move || {}, status: 'active', result: null, deadline: null });
    this.render();
    this.refresh();
  }

  userAt(team, seat) {
    const p = this.snap.players.find((x) => x.team === team && x.seat === seat);
    if (p) return p.user_id;
    // Local practice games: one person at one screen plays every colour.
    return this.snap.options.mode === 'local' && this.snap.players.length ? this.snap.players[0].user_id : null;
  }

  // ------------------------------------------------------------------ state questions

  me() {
    return this.snap && this.snap.you;
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

  /** The board of this game's kind, made on the first snapshot (Go's BoardView, or the kind's CellBoard). */
  makeBoard() {
    const entry = kindOf(this.snap.kind);
    if (this.board && entry === this.entry) return;
    if (this.board) this.board.svg.remove();
    this.entry = entry;
    this.preview = null;
    if (!entry) {
      this.board = new BoardView(this.boardHost, {
        onActivate: (p, keyboard) => this.activate(p, keyboard),
        onHover: (p) => this.hovered(p),
        onCursor: (p) => this.cursorMoved(p),
        onKey: (e) => this.boardKey(e),
      });
      return;
    }
    this.board = new entry.Board(this.boardHost, {
      onMove: (text, keyboard) => this.chosen(text, keyboard),
      onCancel: () => this.setPreview(null),
      onHint: (text, bad) => {
        this.hint.textContent = text;
        this.hint.classList.toggle('bad', Boolean(bad));
        this.srLive.textContent = text;
      },
      onKey: (e) => this.boardKey(e),
    });
  }

  /** A whole move chosen on another game's board: play it at once, or preview it until Submit. */
  chosen(text, keyboard) {
    if (!this.myTurn()) return;
    if ((keyboard && this.preview === text) || settings().one_click) {
      this.play(text);
      return;
    }
    this.setPreview(text);
  }

  previewText() {
    if (this.preview === null) return '';
    return this.entry ? this.entry.moveText(this.preview) : vertex(this.preview, this.snap.options.size);
  }

  /** Whether a point is legal for the team to move, and why not (client-side; the server decides). */
  judge(p) {
    const snap = this.snap;
    const n = snap.options.size;
    const position = this.shownPosition();
    const where = vertex(p, n);
    if (snap.status !== 'active') return { p, legal: false, text: `${where}` };
    if (!this.live()) return { p, legal: false, text: `${where}: you are looking at an earlier move; go to the last move to play` };
    const team = snap.to_move.team;
    const rules = snap.rules || {};
    const a = analyzePlay(position.board, n, p, team, rules, this.history);
    const mine = this.myTurn();
    let text = `${where}: ${a.legal ? 'legal' : `illegal, ${REASONS[a.reason]}`}`;
    if (a.legal && a.captured && a.captured.length) text += `, captures ${a.captured.length}`;
    if (!mine) text += this.me() && this.me().team ? ' (not your turn)' : '';
    return { p, team, legal: a.legal && mine, reason: a.reason, text };
  }

  // ------------------------------------------------------------------ board interaction

  hovered(p) {
    if (p === null || !this.snap || this.snap.status !== 'active') {
      this.hover = null;
      this.board.mark({ hover: null });
      return;
    }
    const j = this.judge(p);
    this.hover = j;
    this.hint.textContent = j.text;
    this.hint.classList.toggle('bad', !j.legal && this.myTurn());
    this.board.mark({ hover: this.myTurn() ? { p, team: j.team, legal: j.legal } : null });
  }

  cursorMoved(p) {
    const desc = this.board.describe(this.board.view, p);
    const j = this.snap.status === 'active' && this.live() ? this.judge(p) : null;
    const text = j ? `${desc}. ${j.text.split(': ').slice(1).join(': ')}` : desc;
    this.hint.textContent = text;
    this.srLive.textContent = text;
  }

  boardKey(event) {
    if (event.key === 'PageUp') this.step('prev');
    else if (event.key === 'PageDown') this.step('next');
    else if (event.key === 'Escape') this.setPreview(null);
  }

  activate(p, keyboard) {
    if (!this.snap || this.snap.status !== 'active') return;
    if (!this.myTurn()) {
      this.hint.textContent = this.live() ? 'It is not your turn.' : 'Go to the last move to play.';
      return;
    }
    if (keyboard && this.preview === p) {
      this.submitPreview();
      return;
    }
    const j = this.judge(p);
    if (!j.legal) {
      this.hint.textContent = j.text;
      this.hint.classList.add('bad');
      this.srLive.textContent = j.text;
      return;
    }
    if (this.oneClick()) {
      this.play(vertex(p, this.snap.options.size));
      return;
    }
    this.setPreview(p);
  }

  /** A point chosen on the Go board plays at once in practice games (as in Dgo) or with the one-click setting. */
  oneClick() {
    return settings().one_click || (isPractice(this.snap.options) && !this.entry);
  }

  setPreview(p) {
    this.preview = p;
    const team = this.snap && this.snap.to_move ? this.snap.to_move.team : 1;
    if (this.entry) this.renderBoard();
    else this.board.mark({ preview: p === null ? null : { p, team } });
    this.renderActions();
    if (p !== null) {
      const again = this.entry || this.board.cursor === p ? ' or Enter again' : '';
      const text = `Preview ${this.previewText()}: press Submit Move${again} to play it.`;
      this.hint.textContent = text;
      this.hint.classList.remove('bad');
      this.srLive.textContent = text;
    }
  }

  submitPreview() {
    if (this.preview === null) return;
    this.play(this.entry ? this.preview : vertex(this.preview, this.snap.options.size));
  }

  async play(move) {
    if (this.busy) return;
    this.busy = true;
    this.renderActions();
    this.unsure = null;
    const unsent = offline(); // no network at all: the request cannot leave this device
    const before = this.snap.moves ? this.snap.moves.length : 0;
    try {
      await post(`/games/${this.id}/moves`, { move });
      this.preview = null;
      if (this.entry) this.renderBoard();
      else this.board.mark({ preview: null });
      this.hint.textContent = '\u00a0';
      if (!this.socket || !this.socket.connected) await this.refresh();
    } catch (err) {
      if (err.status === 0) this.setPreview(null); // never sent: the board shows only what the server has
      this.showSendError(failedMoveText(move, err, unsent));
      // Lost on the network, or a server (or proxy) error: the move may have been played all the same.
      if ((err.status === 0 && !unsent) || err.status >= 500) {
        const notPlayed = err.status === 0
          ? `Not sent: ${move}. The connection failed; the move was not played. Play it again.`
          : `${move} was not played: ${err.message}. Play it again.`;
        this.unsure = { before, notPlayed };
        if (await this.refresh()) this.settleUnsure(); // else catchUp() settles it once the socket is back
      }
      else if (err.status === 409 || err.code === 'illegal_move') await this.refresh(); // our view may be stale
    } finally {
      this.busy = false;
      this.renderActions();
    }
  }

  /** A move whose request failed on the network or with a server error may have been played (only the
   * answer lost). With a fresh snapshot, say which: never "not played" of a move that was (a user would play
   * it again), and never a move that vanishes without a word. */
  settleUnsure() {
    const { before, notPlayed } = this.unsure;
    this.unsure = null;
    const me = this.me();
    if (me && this.snap.moves && this.snap.moves.slice(before).some((m) => m.user_id === me.user_id)) this.clearSendError();
    else this.showSendError(notPlayed);
  }

  showSendError(text) {
    this.sendError = text;
    this.hint.textContent = text;
    this.hint.classList.add('bad');
    this.srLive.textContent = text;
    toast(text, 'error');
  }

  /** The page has caught up with the server: a send error still shown is about the past. */
  clearSendError() {
    if (this.sendError && this.hint.textContent === this.sendError) {
      this.hint.textContent = '\u00a0';
      this.hint.classList.remove('bad');
    }
    this.sendError = null;
  }

  async pass() {
    if (await confirmDialog('Pass?', 'You give up this turn without placing a stone.', 'Pass')) await this.play('pass');
  }

  async resign() {
    const me = this.me();
    const mates = this.snap.players.filter((p) => p.team === me.team && p.state === 'active' && p.user_id !== me.user_id);
    const text = mates.length
      ? 'You leave the game; your teammates play on for your team.'
      : 'Your team leaves the game. This cannot be undone.';
    if (!(await confirmDialog('Resign?', text, 'Resign'))) return;
    if (this.busy) return;
    this.busy = true;
    try {
      await post(`/games/${this.id}/resign`, {});
      if (!this.socket || !this.socket.connected) await this.refresh();
    } catch (err) {
      toast(err.message, 'error');
    } finally {
      this.busy = false;
      this.renderActions();
    }
  }

  async draw(accept) {
    try {
      const data = await post(`/games/${this.id}/draw`, { accept });
      this.drawTeams = data.teams;
      this.renderActions();
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  /** `?move=N`: show the board after move N (the last one when N is beyond it); not a whole number: ignored. */
  openAt(text) {
    if (text === null || !/^\d{1,9}$/.test(text) || !this.history.length) return;
    this.showMove(Math.min(Number(text), this.history.length - 1));
  }

  /** Show the board after move `i` (from the move list). */
  showMove(i) {
    if (!this.history.length || i >= this.history.length) return;
    this.leaveVariation();
    this.viewIndex = i === this.history.length - 1 ? null : i;
    if (!this.live()) this.setPreview(null);
    this.renderBoard();
    this.renderActions();
  }

  leaveVariation() {
    this.variation = null;
    if (this.variations) this.variations.leave();
  }

  renderMoves() {
    const snap = this.snap;
    const started = snap.status === 'active' || snap.status === 'finished';
    const shown = this.history.length ? this.shownIndex() : (snap.moves || []).length;
    const stone = (t) => (t ? swatch(this.palette, t, 14) : null);
    this.moveList.render(started ? snap.moves || [] : null, (t) => this.teamLabel(t), moveText, this.history.length > 1, shown, stone);
    if (this.variations) this.variations.decorate(this.moveList.list, this.history);
  }

  step(where) {
    if (!this.snap || !this.history.length) return;
    const lastIndex = this.history.length - 1;
    let i = this.shownIndex();
    if (where === 'first') i = 0;
    else if (where === 'prev') i = Math.max(0, i - 1);
    else if (where === 'next') i = Math.min(lastIndex, i + 1);
    else i = lastIndex;
    this.leaveVariation();
    this.viewIndex = i === lastIndex ? null : i;
    if (!this.live()) this.setPreview(null);
    this.renderBoard();
    this.renderActions();
  }

  // ------------------------------------------------------------------ lobby actions

  async lobbyAction(path, body = {}, confirmText = null) {
    if (confirmText && !(await confirmDialog(...confirmText))) return;
    try {
      await post(`/games/${this.id}/${path}`, body);
      await this.refresh();
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  // ------------------------------------------------------------------ rendering

  boardView() {
    const s = settings();
    const snap = this.snap;
    const position = this.shownPosition();
    if (this.entry) {
      const names = teamNames(snap) || [];
      const shown = this.shownIndex();
      const before = this.history.length && shown > 0 ? this.history[shown - 1] : null;
      return {
        position: position.position,
        names,
        palette: this.palette,
        coords: s.coordinates !== false,
        canPlay: this.myTurn(),
        preview: this.live() ? this.preview : null,
        previous: before ? before.board : null,
        label: `${this.entry.boardLabel(position.position, names)} PageUp and PageDown step through the moves.`,
      };
    }
    const finished = snap.status === 'finished' && snap.result;
    const showTerritory = finished && this.live() && this.showTerritory;
    const estimate = this.areaShown() ? this.area : null;
    const marks = (key) => new Set(showTerritory && !estimate ? (snap.result[key] || []).map((v) => this.pointOf(v)) : []);
    return {
      size: snap.options.size,
      board: position.board,
      last: position.last ? position.last.point : null,
      palette: this.palette,
      coords: s.coordinates !== false,
      territory: showTerritory ? snap.result.territory : estimate ? estimate.owner : null,
      dead: estimate ? estimate.dead : marks('dead'),
      seki: marks('seki'),
      dame: marks('dame'),
      shade: estimate ? estimate.shade : this.review.shade(this.history.length ? this.shownIndex() : 0),
      pressable: this.myTurn(),
      label: `Go board ${snap.options.size} by ${snap.options.size}. Arrow keys move the cursor, Enter plays, PageUp and PageDown step through the moves.`,
    };
  }

  pointOf(text) {
    const n = this.snap.options.size;
    const col = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.indexOf(text[0]);
    return (Number(text.slice(1)) - 1) * n + col;
  }

  render() {
    const snap = this.snap;
    const s = settings();
    // Shapes on the stones where they help: more than two colours, accessible palettes, or the setting.
    this.palette = boardPalette(this.entry ? this.entry.palette(s.palette) : s.palette, snap.options.teams, s.stone_marks);
    const title = isRecord(snap) ? recordTitle(snap) : gameTitle(snap, this.entry ? `${this.entry.title} game ${snap.id}` : `Game ${snap.id}`);
    this.title.textContent = title;
    this.summary.textContent = isRecord(snap) ? `Uploaded record · ${optionsSummary(snap.options, snap.kind, false)}` : optionsSummary(snap.options, snap.kind);
    document.title = `${title} · Miai`;
    this.updateArea();
    this.renderBoard();
    this.renderStatus();
    this.renderClocks();
    this.renderActions();
    this.renderTeams();
    this.renderResult();
    this.renderInfo();
    this.renderMoves();
    this.review.update(snap, this.palette);
    this.chat.setContext({
      me: snap.you,
      players: snap.players,
      options: snap.options,
      status: snap.status,
      palette: this.palette,
      canPostPublic: Boolean(snap.you) && (snap.options.visibility === 'public' || Boolean(snap.you.team) || snap.players.some((p) => p.user_id === snap.you.user_id)),
    });
    this.chatCard.hidden = isRecord(snap); // an uploaded record is read-only: nobody talks in it
  }

  renderBoard() {
    const view = this.boardView();
    this.board.render(view);
    setBoardRatio(this.game, this.board.svg);
    if (!this.entry) this.board.mark({ preview: this.preview !== null && this.live() ? { p: this.preview, team: this.snap.to_move.team } : null, hover: null });
    const total = this.snap.moves ? this.snap.moves.length : 0;
    const shown = this.history.length ? this.shownIndex() : total;
    const move = shown > 0 && this.snap.moves ? this.snap.moves[shown - 1] : null;
    if (!this.entry) this.review.decorate(this.board, shown, view.board);
    this.review.showAt(shown);
    const what = move ? ` · ${this.teamLabel(move.team)}: ${moveText(move.move)}` : '';
    this.moveList.setCurrent(shown);
    this.counter.textContent = this.variation ? this.variation.label : `Move ${shown} of ${total}${what}`;
    const canStep = this.history.length > 1;
    this.stepButtons.first.disabled = !canStep || shown === 0;
    this.stepButtons.prev.disabled = !canStep || shown === 0;
    this.stepButtons.next.disabled = !canStep || this.live();
    this.stepButtons.last.disabled = !canStep || this.live();
    this.stepper.hidden = !(this.snap.status === 'active' || this.snap.status === 'finished');
    this.boardHost.classList.toggle('history', !this.live());
  }

  renderStatus() {
    const snap = this.snap;
    const me = snap.you;
    const parts = [];
    if (snap.status === 'waiting') {
      const seats = snap.options.teams * snap.options.players_per_team;
      parts.push(h('p', `Waiting for players: ${snap.players.length} of ${seats} seats taken.`));
      if (snap.challenge_to) parts.push(h('p#challenge-for', this.challengedIsMe() ? 'A challenge for you: accept it to play, or decline it.' : `Challenge for ${snap.challenge_to_name}: only they can join.`));
    } else if (snap.status === 'confirming') {
      parts.push(h('p', 'Every seat is taken. Each player confirms to start the game.'));
      parts.push(h('p', 'Confirm within ', h('strong.deadline', { id: 'confirm-deadline' }, deadlineText(snap, this.clock.now())),
        ` (until ${new Date(snap.deadline).toLocaleTimeString()}); players who do not confirm are removed.`));
    } else if (snap.status === 'active') {
      const tm = snap.to_move || {};
      const name = playerName(snap, tm.team, tm.seat);
      const mine = this.myTurn() || (me && tm.user_id === me.user_id);
      parts.push(
        h('p.turn', { id: 'turn', class: `turn${mine ? ' mine' : ''}` },
          swatch(this.palette, tm.team, 20),
          mine ? h('strong', 'Your turn') : h('span', `${this.teamLabel(tm.team)} to move: `, h('strong', name)),
          mine ? ` (${this.teamLabel(tm.team)})` : null,
        ),
        // A practice game's month per move is no clock to watch.
        snap.deadline && !isPractice(snap.options) ? h('p.clock', 'Time left to move: ', h('strong.deadline', { id: 'clock' }, deadlineText(snap, this.clock.now()))) : null,
      );
    } else if (snap.status === 'finished') {
      parts.push(h('p', snap.result ? 'The game has finished.' : 'The game has finished; counting…'));
    } else if (snap.status === 'cancelled') {
      const why = CANCELLED[snap.cancelled && snap.cancelled.reason];
      parts.push(h('p#cancelled', why ? `This game was cancelled: ${why}.` : 'This game was cancelled.'));
    }
    if (snap.removed) parts.push(h('p.error#removed', `You were removed from this game: ${removalReason(snap.removed)}.`));
    clear(this.statusBox, parts);
    this.renderLobbyBox();
  }

  challengedIsMe() {
    return Boolean(session.user && this.snap.challenge_to === session.user.id);
  }

  renderLobbyBox() {
    const snap = this.snap;
    const me = snap.you;
    const mine = me && snap.players.some((p) => p.user_id === me.user_id);
    const o = snap.options;
    const parts = [];
    if (snap.status === 'waiting') {
      if (!session.user) {
        const who = snap.challenge_to ? ` to accept if you are ${snap.challenge_to_name}.` : ' to join this game.';
        parts.push(h('p', link(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, 'Log in'), who));
      } else if (snap.challenge_to && !mine) {
        // Only the challenged player may join (anyone else would be refused): they accept, others look on.
        if (this.challengedIsMe()) parts.push(h('button.primary#accept', { type: 'button', onclick: () => this.lobbyAction('join', { team: null, invite: this.invite || null }) }, 'Accept challenge'));
      } else if (!mine) {
        const buttons = [];
        for (let t = 1; t <= o.teams; t++) {
          const taken = snap.players.filter((p) => p.team === t).length;
          buttons.push(
            h('button.secondary', {
              type: 'button', dataset: { team: String(t) }, disabled: taken >= o.players_per_team,
              onclick: () => this.lobbyAction('join', { team: t, invite: this.invite || null }),
            }, swatch(this.palette, t, 14), ` Join team ${t} (${taken}/${o.players_per_team})`),
          );
        }
        buttons.push(h('button.primary#join-any', { type: 'button', onclick: () => this.lobbyAction('join', { team: null, invite: this.invite || null }) }, 'Join any team'));
        parts.push(h('div.join-buttons', buttons));
      } else {
        parts.push(h('button.secondary#leave', { type: 'button', onclick: () => this.lobbyAction('leave', {}, ['Leave this game?', 'Your seat becomes free again.', 'Leave']) }, 'Leave game'));
      }
    }
    const creator = session.user && snap.created_by === session.user.id;
    if (snap.status === 'waiting' && creator) parts.push(this.computerForm());
    if (snap.status === 'confirming' && mine) {
      const confirmed = snap.players.find((p) => p.user_id === me.user_id).confirmed;
      parts.push(
        confirmed
          ? h('p.ok', 'You have confirmed. Waiting for the others…')
          : h('button.primary#confirm', { type: 'button', onclick: () => this.lobbyAction('confirm') }, 'Confirm and start'),
        h('button.secondary#leave', { type: 'button', onclick: () => this.lobbyAction('leave', {}, ['Leave this game?', 'The game goes back to waiting for players.', 'Leave']) }, 'Leave game'),
      );
    }
    if (snap.challenge_to && session.user && snap.challenge_to === session.user.id && snap.status === 'waiting') {
      parts.push(h('button.secondary#decline', { type: 'button', onclick: () => this.lobbyAction('decline', {}, ['Decline the challenge?', 'The game is cancelled.', 'Decline']) }, 'Decline challenge'));
    }
    if (o.visibility === 'private' && this.invite && (snap.status === 'waiting' || snap.status === 'confirming')) {
      const url = `${location.origin}/games/${this.id}?invite=${encodeURIComponent(this.invite)}`;
      parts.push(
        h('div.invite',
          h('label', { for: 'invite-link' }, 'Invite link (private game): '),
          h('input#invite-link', { type: 'text', readonly: true, value: url, onfocus: (e) => e.target.select() }),
          h('button.secondary.small', { type: 'button', onclick: () => navigator.clipboard?.writeText(url).then(() => toast('Invite link copied.'), () => {}) }, 'Copy'),
        ),
      );
    }
    clear(this.lobbyBox, parts);
  }

  /** The creator of a waiting game can seat a computer player in a team with a free seat. */
  computerForm() {
    const o = this.snap.options;
    const open = [];
    for (let t = 1; t <= o.teams; t++) {
      if (this.snap.players.filter((p) => p.team === t).length < o.players_per_team) open.push(t);
    }
    if (!open.length) return null;
    // A live update redraws the form: keep what the creator chose (a seat that was taken is not offered).
    const chosen = this.computerChoice || {};
    const team = h('select#computer-team', open.map((t) => h('option', { value: String(t), selected: t === chosen.team }, this.teamLabel(t))));
    const level = h('select#computer-level', Array.from({ length: 10 }, (_, i) => h('option', { value: String(i + 1), selected: i + 1 === chosen.level }, String(i + 1))));
    const remember = () => { this.computerChoice = { team: Number(team.value), level: Number(level.value) }; };
    team.addEventListener('change', remember);
    level.addEventListener('change', remember);
    const form = h('form.add-computer', { 'aria-labelledby': 'add-computer-title' },
      h('p.small#add-computer-title', 'Add a computer player'),
      h('div.row',
        h('label.small', { for: 'computer-team' }, 'Team'), team,
        h('label.small', { for: 'computer-level' }, 'Level'), level,
        h('button.secondary.small#add-computer', { type: 'submit' }, 'Add computer')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.lobbyAction('computer', { team: Number(team.value), level: Number(level.value) });
    });
    return form;
  }

  renderActions() {
    const snap = this.snap;
    if (!snap) return;
    const me = snap.you;
    const player = me && snap.players.find((p) => p.user_id === me.user_id);
    const playing = snap.status === 'active' && player && player.state === 'active';
    this.actions.hidden = !playing;
    const mine = this.myTurn();
    this.submitButton.hidden = this.oneClick() && this.preview === null;
    this.submitButton.disabled = !mine || this.preview === null || this.busy;
    this.submitButton.textContent = this.preview !== null ? `Submit Move ${this.previewText()}` : 'Submit Move';
    this.passButton.hidden = Boolean(this.entry); // Amazons, Hex and Tanbo have no pass
    this.passButton.disabled = !mine || this.busy;
    const extra = this.entry && mine && snap.position ? this.entry.actions(snap.position) : [];
    clear(this.extraActions, extra.map((a) => h(`button.secondary#${a.id}`, {
      type: 'button', disabled: this.busy,
      onclick: async () => { if (!a.confirm || (await confirmDialog(...a.confirm))) await this.play(a.move); },
    }, a.label)));
    this.resignButton.disabled = !mine || this.busy;
    this.resignButton.title = mine ? '' : 'You may resign on your own turn';
    const parts = [];
    const position = snap.position;
    if (playing && snap.options.teams > 2 && position) {
      const active = position.active.map((a, i) => (a ? i + 1 : 0)).filter(Boolean);
      const offers = this.drawTeams.filter((t) => active.includes(t));
      const offered = offers.includes(me.team);
      parts.push(
        h('button.secondary#draw', { type: 'button', onclick: () => this.draw(!offered) }, offered ? 'Withdraw draw offer' : 'Offer a draw'),
        h('span.muted.small', offers.length
          ? ` Draw accepted by ${offers.map((t) => `team ${t}`).join(', ')}; every remaining team (${active.join(', ')}) must accept.`
          : ' An agreed draw needs every remaining team.'),
      );
    }
    clear(this.drawBox, parts);
    this.renderPractice(player);
    this.renderArea();
  }

  renderPractice(player) {
    const snap = this.snap;
    const practice = isPractice(snap.options);
    if (!practice || !player || !(snap.status === 'active' || snap.status === 'finished')) {
      clear(this.practiceBox);
      return;
    }
    const step = (path, label, id, disabled) =>
      h(`button.secondary.small#${id}`, { type: 'button', disabled, onclick: () => this.practiceStep(path) }, label);
    const noRedo = this.redo === 0;
    const noUndo = !snap.moves || snap.moves.length === 0;
    clear(this.practiceBox,
      step('start', 'Back to the start', 'practice-start', noUndo || this.busy),
      step('undo', 'Undo', 'undo', noUndo || this.busy),
      step('redo', 'Redo', 'redo', noRedo || this.busy),
      step('end', 'Redo all', 'practice-end', noRedo || this.busy),
    );
  }

  async practiceStep(path) {
    if (this.busy) return;
    this.busy = true;
    this.renderActions();
    try {
      const answer = await post(`/games/${this.id}/${path}`, {});
      this.redo = answer.redo;
      if (!this.socket || !this.socket.connected) await this.refresh();
    } catch (err) {
      toast(err.message, 'error');
    } finally {
      this.busy = false;
      this.renderActions();
    }
  }

  // ------------------------------------------------------------------ the "Area" territory estimate

  /** Any viewer of an active Go game may ask the server for an estimate (GET /games/{id}/area). */
  areaAvailable() {
    const snap = this.snap;
    return Boolean(snap && snap.status === 'active' && snap.position && (snap.kind || 'go') === 'go');
  }

  positionKey() {
    const position = this.snap.position;
    return `${position.plies}:${position.board.join('')}`;
  }

  /** The estimate is drawn only on the live position it was made for. */
  areaShown() {
    return Boolean(this.areaOn && this.area && this.live() && this.areaAvailable() && this.area.key === this.positionKey());
  }

  toggleArea(on) {
    this.areaOn = on;
    if (!on) {
      this.areaTicket += 1; // forget a request still on its way
      this.area = null;
      this.areaKey = null;
    }
    if (!this.snap) { // pressed before the game arrived: its first drawing asks for the estimate
      this.areaButton.setAttribute('aria-pressed', String(on));
      return;
    }
    this.updateArea();
    this.renderBoard();
    this.renderArea();
  }

  /** Ask for an estimate of the current position unless one is there or on its way. */
  updateArea() {
    if (!this.areaOn || !this.areaAvailable()) return;
    const key = this.positionKey();
    if (this.areaKey === key) return;
    this.areaKey = key;
    const ticket = ++this.areaTicket;
    (async () => {
      try {
        const data = await get(`/games/${this.id}/area${this.q()}`);
        if (ticket !== this.areaTicket || this.positionKey() !== key) return; // the position moved on meanwhile
        const snap = this.snap;
        if (data.ply !== snap.position.plies) {
          this.areaKey = null; // the server was a move ahead: the move's event brings a new request
          return;
        }
        this.area = { key, ...areaSummary(data.ownership, snap.position.board, snap.options.teams, snap.rules, snap.position) };
      } catch (err) {
        if (ticket !== this.areaTicket) return;
        this.areaKey = null;
        toast(`No territory estimate: ${err.message}`, 'error');
        if (err.status === 503 || err.status === 403) this.areaOn = false;
      }
      this.renderBoard();
      this.renderArea();
    })();
  }

  renderArea() {
    const snap = this.snap;
    const available = this.areaAvailable();
    this.areaBox.hidden = !available;
    if (!available) return;
    const practice = isPractice(snap.options);
    this.areaButton.hidden = !practice;
    this.areaButton.setAttribute('aria-pressed', String(this.areaOn));
    this.areaButton.classList.toggle('on', this.areaOn);
    this.areaLabel.hidden = practice;
    this.areaCheck.checked = this.areaOn;
    let text = '';
    if (this.areaOn) {
      if (!this.live()) text = 'The estimate is for the current position: go to the last move to see it.';
      else if (this.areaShown()) text = this.areaText(this.area);
      else text = 'Estimating the territory…';
    }
    if (this.areaScore.textContent !== text) this.areaScore.textContent = text;
    this.areaBox.dataset.ply = this.areaShown() ? String(this.snap.position.plies) : ''; // for tests and styling
  }

  areaText(area) {
    const scoring = (this.snap.rules || {}).scoring === 'territory' ? 'territory counting' : 'area counting';
    const parts = area.scores.map((s) => `${this.teamLabel(s.team)} ${s.total}${s.komi ? ` (komi ${s.komi})` : ''}`);
    const lead = area.leader ? `${this.teamLabel(area.leader)} leads by ${area.margin}.` : 'Even.';
    const dead = area.dead.size ? ` Stones judged dead: ${area.dead.size}.` : '';
    return `Estimated score (${scoring}): ${parts.join(', ')}. ${lead}${dead}`;
  }

  renderTeams() {
    const teams = isRecord(this.snap) ? recordTeams(this.snap, this.palette) : teamsList(this.snap, this.palette, this.snap.position);
    clear(this.teamsBox, h('h2#teams-title', 'Teams'), teams);
  }

  renderResult() {
    const snap = this.snap;
    if (snap.status !== 'finished' || !snap.result) {
      this.resultBox.hidden = true;
      return;
    }
    this.resultBox.hidden = false;
    const legend = markLegend(snap.result);
    if (legend) legend.hidden = !this.showTerritory;
    const toggle = h('label.small', h('input#show-territory', {
      type: 'checkbox', checked: this.showTerritory,
      onchange: (e) => {
        this.showTerritory = e.target.checked;
        if (legend) legend.hidden = !this.showTerritory;
        this.renderBoard();
      },
    }), ' Show territory on the board');
    if (this.entry) {
      clear(this.resultBox, h('h2#result-title', 'Result'), resultSection(snap, this.palette), ratingNote(snap));
      return;
    }
    const me = snap.you;
    const player = me && snap.players.some((p) => p.user_id === me.user_id);
    // Only dead stones can be judged wrongly: games scored under `auto` dead stones after passes or the limit.
    const scored = (snap.result.reason === 'passes' || snap.result.reason === 'move_limit') && snap.rules.dead_stones === 'auto';
    // Nothing to show on the board when nothing was counted (a resignation, a timeout, an agreed draw).
    const counted = (snap.result.territory || []).length > 0;
    clear(this.resultBox, h('h2#result-title', 'Result'), resultSection(snap, this.palette), ratingNote(snap),
      counted ? toggle : null, counted ? legend : null, player && scored ? this.flagForm() : null);
  }

  /** Players can report a wrong score (for example misjudged dead stones); an administrator reviews it. */
  flagForm() {
    const text = h('textarea#flag-comment', { rows: '2', maxlength: '2000', 'aria-label': 'What is wrong with the score?' });
    const form = h('form.flag', h('p.small', 'Which stones were judged wrongly, and why?'), text,
      h('button.secondary.small', { type: 'submit' }, 'Send report'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await post(`/games/${this.id}/flag`, { comment: text.value });
        text.value = '';
        toast('Thank you: an administrator will look at the score.');
      } catch (err) {
        toast(err.message, 'error');
      }
    });
    return h('details.small', h('summary', 'Report a wrong score'), form);
  }

  renderInfo() {
    const snap = this.snap;
    const parts = [h('h2#info-title', 'Rules'), rulesList(snap)];
    if (snap.status === 'active' || snap.status === 'finished') {
      parts.push(h('p', h('a#sgf', { href: `/api/v1/games/${this.id}/sgf${this.q()}`, download: `miai-${this.id}.sgf` }, 'Download SGF')));
    }
    clear(this.infoBox, parts);
  }

  /** Each team's clock next to its name, above the board; tick() keeps the running one counting. */
  renderClocks() {
    const snap = this.snap;
    const { clocks } = turnClocks(snap, this.clock.now());
    const shown = (snap.status === 'active' || snap.status === 'finished') && clocks.length > 0;
    this.clockBar.hidden = !shown;
    this.clockEls = shown
      ? clocks.map((c) => {
        const time = h('span.time', c.text);
        const who = clockNames(snap, this.palette, c.team);
        const el = h('div.team-clock', { role: 'timer', title: who.team, dataset: { team: String(c.team) } },
          swatch(this.palette, c.team, 14), h('span.name', who.name), who.players ? h('span.players', who.players) : null, time);
        return { team: c.team, el, time };
      })
      : [];
    clear(this.clockBar, this.clockEls.map((c) => c.el));
    this.tick();
  }

  /** The clocks and the time left to move, counted on the server's time. */
  tick() {
    if (!this.snap) return;
    const now = this.clock.now();
    const turn = turnClocks(this.snap, now);
    const text = deadlineText(this.snap, now);
    for (const id of ['clock', 'confirm-deadline']) {
      const el = this.main.querySelector(`#${id}`);
      if (!el) continue;
      if (el.textContent !== text) el.textContent = text;
      const left = secondsUntil(this.snap.deadline, now);
      el.classList.toggle('low', id === 'clock' ? turn.low : left !== null && left < 30);
    }
    for (const c of turn.clocks) {
      const shown = (this.clockEls || []).find((x) => x.team === c.team);
      if (!shown) continue;
      if (shown.time.textContent !== c.text) shown.time.textContent = c.text;
      shown.el.classList.toggle('running', c.running);
      shown.el.classList.toggle('low', c.state.low || (c.running && turn.low));
      shown.el.classList.toggle('flagged', c.state.flagged);
    }
    this.lowTimeAlarm(turn);
  }

  /** A short beep when the viewer's own clock enters low time on their turn (the "sound" setting mutes it). */
  lowTimeAlarm(turn) {
    const me = this.me();
    if (!me || !me.team || this.snap.status !== 'active') return;
    const onMove = Boolean(this.snap.to_move && this.snap.to_move.user_id === me.user_id);
    const own = turn.clocks.find((c) => c.team === me.team);
    if (this.alarm.update(onMove ? turn.low : Boolean(own && own.state.low), onMove)) beep();
  }
}

/** Why a move did not go through: never sent (no connection) is not the same as refused by the server. */
function failedMoveText(move, err, unsent) {
  if (err.status === 0 && !unsent) return `${move} may not have been played: the connection failed before the server answered. The page checks with the server.`;
  if (err.status === 0) return `Not sent: ${move}. The server cannot be reached (no connection); the move was not played. Play it again once the connection is back.`;
  if (err.status >= 500) return `${move} may not have been played: ${err.message}. The page checks with the server.`;
  return `The server refused ${move}: ${err.message}${err.reason ? ` (${err.reason})` : ''}`;
}

/** The history after an undo ("reset"): the positions of the moves still on the board, if they agree. */
function cutBack(history, reset) {
  const kept = history.slice(0, reset.moves.length + 1);
  const last = kept[kept.length - 1];
  const board = reset.position.board || reset.position.cells;
  if (kept.length !== reset.moves.length + 1 || !last || last.board.join() !== board.join()) return [];
  return kept;
}

/** One step of the history: the board (Go's `board`, other games' `cells`), who moved, the whole position. */
function historyEntry(position, mover, move) {
  return { board: position.board || position.cells, mover, move, last: position.last, position };
}

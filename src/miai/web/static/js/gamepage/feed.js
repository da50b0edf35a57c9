// The game page's loading and live updates: the snapshot is the truth; the move history is rebuilt from the
// game's events; the live socket's events are applied as they come, and a missed one fetches the snapshot again.
import { get } from '../api.js';
import { readGame } from '../bell.js';
import { clear, h, link, toast } from '../dom.js';
import { isPractice, moveText } from '../format.js';
import { playerName } from '../gameparts.js';
import { LiveSocket, socketUrl } from '../live.js';
import { watchingText } from '../livecards.js';
import { moveSound } from '../sound.js';
import { tabSession } from '../storage.js';
import { isRecord } from '../uploaded.js';

const REFRESH_EVENTS = new Set([
  'created', 'joined', 'confirming', 'confirmed', 'left', 'unconfirmed_removed', 'declined', 'started',
  'finished', 'result_corrected', 'flagged', 'computer_added', 'cancelled',
]);

export class GameFeed {
  constructor(page) {
    this.page = page;
    this.lastV = 0;
    this.refreshing = null;
    this.refreshAgain = false;
    this.socket = null;
  }

  /** Whether live events arrive: without them the page fetches the snapshot after its own actions. */
  connected() {
    return Boolean(this.socket && this.socket.connected);
  }

  stop() {
    if (this.socket) this.socket.stop();
  }

  async load() {
    const page = this.page;
    try {
      await this.applySnapshot(await this.fetchSnapshot());
    } catch (err) {
      clear(page.main, h('div.card', h('h1', `Game ${page.id}`), h('p.error', err.message), link('/', 'Back to the lobby')));
      return;
    }
    if (page.me()) readGame(page.id); // the player is looking at it: its "your turn" is read
    if (page.snap.invite_code) {
      page.invite = page.snap.invite_code;
      tabSession.set(`miai-invite-${page.id}`, page.invite);
    }
    this.socket = new LiveSocket(`game${page.id}`, {
      url: () => socketUrl(`/games/${page.id}/ws?since=${this.lastV}&watchers=1${page.q('&')}`),
      onMessage: (m) => this.onMessage(m),
      onOpen: (reconnected) => {
        if (reconnected) this.catchUp();
      },
      onGiveUp: (code, reason) => toast(`Live updates stopped: ${reason || code}`, 'error'),
      check: async () => {
        try {
          await get(`/games/${page.id}${page.q()}`);
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
    const moves = this.page.moves;
    if (moves.unsure) moves.settleUnsure();
    else moves.clearSendError();
    toast('Reconnected; the game is up to date.');
  }

  /** GET the snapshot; the server's time in it sets the page's clock (off by at most half the round trip). */
  async fetchSnapshot() {
    const page = this.page;
    const sent = performance.now();
    const snap = await get(`/games/${page.id}${page.q()}`);
    page.clock.sample(snap.now, sent, performance.now());
    return snap;
  }

  /**
   * Take a snapshot as the truth, unless live events newer than it were applied meanwhile (then the caller
   * fetches again). Rebuilds the move history from the events when it does not match the moves.
   */
  async applySnapshot(snap) {
    const page = this.page;
    if (page.snap && snap.version < this.lastV) {
      this.refreshAgain = true;
      return;
    }
    const started = snap.status === 'active' || snap.status === 'finished';
    page.snap = snap;
    page.boardPlay.make();
    this.lastV = Math.max(this.lastV, snap.version);
    if (typeof snap.redo === 'number') page.redo = snap.redo; // practice games: the server keeps the redo line
    if (!started) page.history = [];
    else if (page.history.length !== snap.moves.length + 1) await this.loadHistory();
    if (isRecord(snap) && !page.variations) await page.stepper.loadVariations();
    page.render();
    page.chat.reset(page.snap.chat || []);
  }

  /** Every event of the game, page by page. */
  async allEvents() {
    const page = this.page;
    const events = [];
    let since = 0;
    for (;;) {
      const data = await get(`/games/${page.id}/events?since=${since}${page.q('&')}`);
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
    const page = this.page;
    let history = [];
    try {
      const events = await this.allEvents();
      const teams = page.snap.options.teams;
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
          page.drawTeams = e.d.teams;
        }
      }
      const wanted = page.snap.moves.length; // live moves may have arrived while we waited
      history = history.slice(0, wanted + 1);
      if (history.length !== wanted + 1) history = [];
    } catch {
      history = []; // the current position still shows; only stepping back is unavailable
    }
    page.history = history;
  }

  onMessage(m) {
    const page = this.page;
    if (m.t === 'watchers') { // the server's spectator count, sent on connecting and as it changes
      page.watchers.hidden = !m.d.count;
      page.watchers.textContent = watchingText(m.d.count);
      return;
    }
    if (m.t === 'snapshot') {
      page.clock.hint(m.d.now, performance.now());
      this.lastV = 0;
      page.history = [];
      this.applySnapshot(m.d);
      return;
    }
    if (m.t === 'review') { // an engine review's progress (unversioned, like `watchers`)
      page.review.onMessage(m.d);
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
        page.chat.add(m.d);
        break;
      case 'draw':
        page.drawTeams = m.d.teams;
        page.controls.render();
        if (!page.isMine(m.d.team)) toast(`${page.teamLabel(m.d.team)} ${m.d.accept ? 'offers a draw' : 'withdrew its draw offer'}.`);
        break;
      case 'started':
        page.history = [];
        this.refresh();
        break;
      case 'reset':
        this.applyReset(m.d);
        break;
      default:
        if (REFRESH_EVENTS.has(m.t)) this.refresh();
    }
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
    const page = this.page;
    const snap = page.snap;
    if (!snap.moves) return this.refresh();
    if (!['pass', 'resign', 'timeout', 'autopass', 'draw'].includes(d.move)) moveSound(); // a stone (or piece) goes down
    snap.moves.push({ ply: d.ply, team: d.team, seat: d.seat, move: d.move, user_id: d.user_id });
    if (page.history.length === snap.moves.length) {
      page.history.push(historyEntry(d.position, d.team, d.move));
    } else {
      page.history = []; // out of step (a missed event): the refresh below rebuilds it from the events
      this.refresh();
    }
    snap.position = d.position;
    const tm = d.position.to_move;
    snap.to_move = tm ? { team: tm.team, seat: tm.seat, user_id: userAt(snap, tm.team, tm.seat) } : {};
    if (d.position.over) snap.status = 'finished'; // the result follows in the "finished" event
    if (d.deadline) snap.deadline = d.deadline;
    if (d.clocks) snap.clocks = d.clocks;
    snap.turn_started_at = d.turn_started_at || new Date(page.clock.now()).toISOString();
    const me = page.me();
    // Practice games: a move keeps the redo line only when it is the next undone move; the snapshot says which.
    if (isPractice(page.snap.options) && page.redo !== 0) this.refresh();
    if (me && d.user_id === me.user_id) page.moves.clearSendError(); // it reached the server after all
    if (d.move === 'resign' || d.move === 'timeout') {
      const p = snap.players.find((x) => x.team === d.team && x.seat === d.seat);
      if (p) p.state = d.move === 'timeout' ? 'timed_out' : 'resigned';
    }
    if (page.preview !== null && (page.entry || d.position.board[page.preview] || !page.myTurn())) page.preview = null;
    const who = d.team ? `, ${playerName(snap, d.team, d.seat)}` : ''; // an agreed draw is no player's move
    page.srLive.textContent = `${page.teamLabel(d.team)}${who}: ${moveText(d.move)}.${page.myTurn() ? ' Your turn.' : ''}`;
    page.render();
  }

  /** Undo in a practice game: the position goes back; the move records come with a fresh snapshot. */
  applyReset(d) {
    const page = this.page;
    page.history = cutBack(page.history, d);
    page.viewIndex = null;
    page.preview = null;
    page.redo = d.redo;
    Object.assign(page.snap, { position: d.position, to_move: d.to_move || {}, status: 'active', result: null, deadline: null });
    page.render();
    this.refresh();
  }
}

/** Who sits at a seat; in local practice games one person at one screen plays every colour. */
function userAt(snap, team, seat) {
  const p = snap.players.find((x) => x.team === team && x.seat === seat);
  if (p) return p.user_id;
  return snap.options.mode === 'local' && snap.players.length ? snap.players[0].user_id : null;
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

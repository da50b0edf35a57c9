// The administrators' pages: games whose score players flagged, and the review of one game's dead stones.
import { get, post } from '../api.js';
import { BoardView } from '../board.js';
import { clear, h, link, toast } from '../dom.js';
import { vertex } from '../format.js';
import { resultSection } from '../gameparts.js';
import { chainAt } from '../rules.js';
import { session, settings } from '../session.js';

const REFUSAL = 'Administrators only: this page is for the administrators of this server.';

/** A page body for people who may not see it, or null when the user is an administrator. */
function refusal(main, title, err = null) {
  if (!session.user) {
    clear(main, h('div.card#admin-refused', h('h1', title), h('p', REFUSAL),
      h('p', link(`/login?next=${encodeURIComponent(location.pathname)}`, 'Log in'), ' with an administrator account.')));
    return true;
  }
  if (!session.user.is_admin || (err && err.status === 403)) {
    clear(main, h('div.card#admin-refused', h('h1', title), h('p', REFUSAL), link('/', 'Back to the lobby')));
    return true;
  }
  return false;
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : '';
}

export async function adminPage(main) {
  const title = 'Score reports';
  if (refusal(main, title)) return;
  let data;
  try {
    data = await get('/admin/flags');
  } catch (err) {
    if (!refusal(main, title, err)) clear(main, h('div.card', h('h1', title), h('p.error', err.message)));
    return;
  }
  const rows = data.flags.map((f) =>
    h('li.card.flag-row', { dataset: { game: String(f.game_id), flag: String(f.flag_id) } },
      h('div.row-head',
        h('strong', link(`/admin/games/${f.game_id}`, `Game ${f.game_id}`)),
        h('span.muted.small', `flagged by ${f.by || '?'} on `, h('time', { datetime: f.at }, when(f.at)))),
      h('blockquote.comment', f.comment),
      h('p.small.muted', resultLine(f.result)),
      h('p', link(`/admin/games/${f.game_id}`, 'Review the dead stones'))));
  clear(main,
    h('div.page-head', h('h1', title)),
    h('p.muted', 'Players report games whose dead stones the estimator judged wrongly. Open a game to set them right.'),
    rows.length ? h('ul.game-list.flags#flag-list', rows) : h('p#no-flags', 'No open reports.'));
}

function resultLine(result) {
  if (!result) return 'No result yet.';
  const winners = (result.winners || []).map((t) => `team ${t}`).join(', ');
  const totals = (result.scores || []).map((s) => `team ${s.team}: ${s.total}`).join(', ');
  return `Recorded result: ${result.draw ? 'draw' : `${winners} won`} (${totals}); dead stones: ${(result.dead || []).join(' ') || 'none'}.`;
}

export async function adminReviewPage(main, params) {
  const id = Number(params.id);
  const title = `Review game ${id}`;
  if (refusal(main, title)) return undefined;
  const page = new ReviewPage(main, id);
  try {
    await page.load();
  } catch (err) {
    if (!refusal(main, title, err)) clear(main, h('div.card', h('h1', title), h('p.error', err.message), link('/admin', 'All reports')));
  }
  return undefined;
}

/** One flagged game: the board with the verdict, stones toggled group by group, the correction and its history. */
class ReviewPage {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    this.data = null;
    this.dead = new Set(); // the points the administrator marks dead
    this.sending = false;
  }

  async load() {
    this.data = await get(`/admin/games/${this.id}`);
    const result = this.data.result || {};
    this.dead = new Set((result.dead || []).map((v) => this.pointOf(v)));
    this.build();
  }

  pointOf(text) {
    const n = this.data.options.size;
    const col = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.indexOf(text[0]);
    return (Number(text.slice(1)) - 1) * n + col;
  }

  correctable() {
    const d = this.data;
    const reason = d.result && d.result.reason;
    return d.status === 'finished' && (reason === 'passes' || reason === 'move_limit') && d.rules.dead_stones === 'auto';
  }

  /** Whether the marked stones are the ones the recorded result used. */
  unchanged() {
    const recorded = (this.data.result && this.data.result.dead) || [];
    return recorded.length === this.dead.size && recorded.every((v) => this.dead.has(this.pointOf(v)));
  }

  build() {
    const d = this.data;
    this.boardHost = h('div.board-wrap');
    this.deadText = h('p#review-dead', { 'aria-live': 'polite' });
    this.note = h('textarea#correction-note', { rows: '2', maxlength: '2000', 'aria-label': 'Note for the players (why the stones were changed)' });
    this.submit = h('button.primary#submit-correction', { type: 'button', onclick: () => this.send() }, 'Submit correction');
    this.resultBox = h('section.card.result-card', { 'aria-labelledby': 'result-title' });
    this.historyBox = h('section.card', { 'aria-labelledby': 'history-title' });
    const editor = this.correctable()
      ? h('div.review-edit',
        h('p.small', 'Click a stone (or move the cursor with the arrow keys and press Enter) to mark its whole group dead or alive.'),
        this.deadText,
        h('label.small', { for: 'correction-note' }, 'Note'), this.note,
        h('div.row', this.submit, h('button.secondary#reset-correction', { type: 'button', onclick: () => this.reset() }, 'Back to the recorded verdict')))
      : h('p.muted', 'This game was not scored after passes with dead stones judged automatically, so there is nothing to correct.');
    clear(this.main,
      h('div.game',
        h('section.board-area.review-board', { 'aria-label': 'Board' },
          h('div.game-head', h('h1', `Review game ${this.id}`),
            h('p.small', link(`/games/${this.id}`, 'Open the game page'), ' · ', link('/admin', 'All reports'))),
          this.boardHost,
          editor),
        h('aside.side', { 'aria-label': 'Reports and results' },
          this.resultBox,
          h('section.card', { 'aria-labelledby': 'flags-title' }, h('h2#flags-title', 'Reports'), this.flagsList()),
          this.historyBox)));
    this.board = new BoardView(this.boardHost, { onActivate: (p) => this.toggle(p) });
    this.render();
  }

  flagsList() {
    const flags = this.data.flags || [];
    if (!flags.length) return h('p.muted', 'No reports for this game.');
    return h('ul.flag-history', flags.map((f) =>
      h('li', { dataset: { flag: String(f.flag_id) } },
        h('p.small', h('strong', f.by || '?'), ' on ', h('time', { datetime: f.at }, when(f.at)), ':'),
        h('blockquote.comment', f.comment),
        f.resolved_at
          ? h('p.small.muted', `Resolved by ${f.resolved_by || '?'} on ${when(f.resolved_at)}${f.resolution ? `: ${f.resolution}` : ''}`)
          : h('p.small', h('span.tag.move', 'open')))));
  }

  /** The recorded result and the ones it replaced: who changed it and when. */
  renderHistory() {
    const d = this.data;
    const entries = [];
    const current = d.result || {};
    for (const old of d.result_history || []) {
      entries.push(h('li', `${when(old.replaced_at)}: ${old.replaced_by || '?'} replaced the result `,
        h('span.muted', `(${old.corrected_by ? `set by ${old.corrected_by}` : 'judged automatically'}; dead stones ${(old.dead || []).join(' ') || 'none'})`)));
    }
    if (current.corrected_by) {
      entries.push(h('li', `Now: set by ${current.corrected_by} on ${when(current.corrected_at)}; dead stones ${(current.dead || []).join(' ') || 'none'}${current.note ? ` — ${current.note}` : ''}`));
    }
    clear(this.historyBox, h('h2#history-title', 'Corrections'),
      entries.length ? h('ol.correction-history#correction-history', entries) : h('p.muted#correction-history', 'The result has not been corrected.'));
  }

  render() {
    const d = this.data;
    const s = settings();
    const result = d.result || {};
    const same = this.unchanged();
    this.board.render({
      size: d.options.size,
      board: d.position ? d.position.board : new Array(d.options.size ** 2).fill(0),
      last: null,
      palette: s.palette,
      coords: s.coordinates !== false,
      territory: same && result.territory ? result.territory : null,
      dead: this.dead,
      label: `Go board ${d.options.size} by ${d.options.size} of game ${this.id}. Activate a stone to mark its group dead or alive.`,
    });
    const listed = [...this.dead].sort((a, b) => a - b).map((p) => vertex(p, d.options.size));
    this.deadText.textContent = `Dead stones: ${listed.join(' ') || 'none'}${same ? ' (the recorded verdict)' : ' (changed; the score is recomputed when you submit)'}`;
    this.submit.disabled = this.sending;
    clear(this.resultBox, h('h2#result-title', 'Recorded result'), resultSection(d, s.palette));
    this.renderHistory();
  }

  toggle(p) {
    const board = this.data.position && this.data.position.board;
    if (!this.correctable() || !board || !board[p]) return;
    const { stones } = chainAt(board, this.data.options.size, p);
    const makeDead = !this.dead.has(p);
    for (const q of stones) {
      if (makeDead) this.dead.add(q);
      else this.dead.delete(q);
    }
    this.render();
  }

  reset() {
    this.dead = new Set(((this.data.result && this.data.result.dead) || []).map((v) => this.pointOf(v)));
    this.render();
  }

  async send() {
    if (this.sending) return;
    this.sending = true;
    this.render();
    const n = this.data.options.size;
    try {
      await post(`/admin/games/${this.id}/dead-stones`, { dead: [...this.dead].map((p) => vertex(p, n)), note: this.note.value });
      toast('The corrected result is recorded.');
      this.note.value = '';
      this.sending = false;
      await this.load();
    } catch (err) {
      toast(err.message, 'error');
      this.sending = false;
      this.render();
    }
  }
}

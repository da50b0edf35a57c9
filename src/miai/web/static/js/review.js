// The engine review of a finished game (GET/POST /games/{id}/review): ask for one, its progress live from the
// game socket's `review` message, then a graph of each team's winning chance by move (click it, or use the
// arrow keys on it, to show that move), the biggest swings with the move the engine preferred as a ghost
// stone, and an ownership map at the shown move.
import { get, post } from './api.js';
import { h, svgElement, toast } from './dom.js';
import { teamStyle } from './palette.js';
import { session } from './session.js';

const WIDTH = 600;
const HEIGHT = 160;
const PAD = { left: 44, right: 8, top: 10, bottom: 18 }; // left: room for "100%" at the axis font size

function percent(share) {
  return `${Math.round(share * 100)}%`;
}

/**
 * A position's `score` (each team's expected points, in team order) as words: with two teams who leads and
 * by how much, with more each team's points; '' when there is none (other games).
 */
export function scoreText(score, teamLabel) {
  if (!Array.isArray(score) || score.length < 2) return '';
  if (score.length === 2) {
    const lead = score[0] - score[1];
    if (Math.abs(lead) < 0.05) return 'even';
    return `${teamLabel(lead > 0 ? 1 : 2)} leads by ${Math.abs(lead).toFixed(1)}`;
  }
  return score.map((points, k) => `${teamLabel(k + 1)} ${points.toFixed(1)}`).join(', ') + ' points';
}

export class ReviewPanel {
  /**
   * hooks: {path: () => the game's API path with its invite query, jump: (i) => show the board after move i,
   * redraw: () => draw the board again, teamLabel: (t) => a team's name}
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.reviews = []; // as GET answers, quick and deep
    this.loaded = false;
    this.loading = null;
    this.shown = 0; // the move the board shows
    this.ownershipOn = false;
    this.snap = null;
    this.palette = 'classic';
    this.title = h('h2#review-title', 'Review');
    this.body = h('div.review-body');
    this.card = h('section.card.review-card#review', { 'aria-labelledby': 'review-title', hidden: true }, this.title, this.body);
  }

  /** The page's snapshot changed (or its palette): reviews exist for finished games only. */
  update(snap, palette) {
    this.snap = snap;
    this.palette = palette;
    this.card.hidden = snap.status !== 'finished';
    if (this.card.hidden) return;
    if (!this.loaded && !this.loading) this.load();
    else this.render();
  }

  async load() {
    this.loading = (async () => {
      try {
        const data = await get(`${this.hooks.path('/review')}`);
        this.reviews = data.reviews;
        this.loaded = true;
      } catch (err) {
        this.loaded = true; // not asked again at every render; the socket's next `review` message reloads it
        this.body.replaceChildren(h('p.error.small', err.message));
        return;
      } finally {
        this.loading = null;
      }
      this.render();
      this.hooks.redraw(); // the ownership map and the ghost stones of the shown move
    })();
    return this.loading;
  }

  /** The socket's `review` message: progress as it goes, the whole review once it is done. */
  onMessage(d) {
    const known = this.reviews.find((r) => r.depth === d.depth);
    if (known) Object.assign(known, { status: d.status, done: d.done, total: d.total });
    else this.reviews.push({ depth: d.depth, status: d.status, done: d.done, total: d.total, positions: [], swings: [] });
    if (d.status === 'done') this.load();
    else this.render();
  }

  /** The most thorough review computed so far (deep over quick), else null. */
  best() {
    const done = this.reviews.filter((r) => r.status === 'done');
    return done.find((r) => r.depth === 'deep') || done.find((r) => r.depth === 'quick') || null;
  }

  async ask(depth) {
    try {
      const summary = await post(this.hooks.path('/review'), { depth });
      if (!this.reviews.some((r) => r.depth === depth)) this.reviews.push({ ...summary, positions: [], swings: [] });
      if (summary.status === 'done') await this.load();
      else this.render();
    } catch (err) {
      toast(err.message, 'error');
    }
  }

  // ------------------------------------------------------------------ what the board shows

  /** The board moved to move `i`: the graph's marker follows. */
  showAt(i) {
    this.shown = i;
    this.moveMarker();
  }

  /** Per point {team, strength} when the ownership map is on (Go), else null. */
  shade(i) {
    const review = this.best();
    const position = review && this.ownershipOn ? review.positions[i] : null;
    if (!position || !position.ownership) return null;
    return [...position.ownership].map((c) => (c === '.' ? null : { team: parseInt(c, 36), strength: 0.5 }));
  }

  /** Draw the move the engine preferred over a swing, as a ghost stone, when the board shows that move. */
  decorate(board, i, boardCells) {
    const review = this.best();
    if (!review || !board.marks) return;
    const swing = review.swings.find((s) => s.move === i && s.best && s.best !== 'pass');
    if (!swing) return;
    const n = this.snap.options.size;
    const col = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.indexOf(swing.best[0]);
    const p = (Number(swing.best.slice(1)) - 1) * n + col;
    if (col < 0 || !(p >= 0 && p < n * n) || boardCells[p]) return;
    const g = svgElement('g', { class: 'ghost review-ghost', 'data-point': swing.best });
    g.innerHTML = board.stoneSvg(teamStyle(this.palette, swing.team), board.x(p), board.y(p), 4.8);
    g.append(svgElement('title', {}, document.createTextNode(`The engine preferred ${swing.best}`)));
    board.marks.append(g);
  }

  // ------------------------------------------------------------------ the panel

  render() {
    if (!this.snap) return;
    const review = this.best();
    const computing = this.reviews.find((r) => r.status === 'pending' || r.status === 'running');
    const failed = this.reviews.find((r) => r.status === 'failed');
    const parts = [];
    if (review) parts.push(this.graph(review), this.swingList(review), this.ownershipToggle());
    if (computing) {
      const label = computing.status === 'pending' ? 'Waiting for the engine…' : `Reviewing: ${computing.done} of ${computing.total} positions`;
      parts.push(h('div.review-progress#review-progress', { role: 'status' },
        h('progress', { max: String(computing.total || 1), value: String(computing.done || 0), 'aria-label': 'Review progress' }),
        h('span.small', ` ${computing.depth === 'deep' ? 'Deep review. ' : ''}${label}`)));
    }
    if (failed && !computing) parts.push(h('p.error.small', 'The review could not be computed; ask again.'));
    parts.push(this.buttons(review, computing));
    this.body.replaceChildren(...parts);
    this.moveMarker();
  }

  buttons(review, computing) {
    const user = session.user;
    const member = user && !user.is_guest;
    const you = this.snap.you;
    // A player of the game, as the server counts them: an uploaded record's uploader too (of no team).
    const player = member && you && (you.team || (this.snap.players || []).some((p) => p.user_id === you.user_id));
    const has = (depth) => this.reviews.some((r) => r.depth === depth && r.status !== 'failed');
    const row = h('div.review-actions');
    if (!member) {
      if (!review && !computing) row.append(h('p.muted.small', 'No review yet: members can ask the engine for one.'));
      return row;
    }
    if (!has('quick')) row.append(h('button.secondary.small#ask-review', { type: 'button', onclick: () => this.ask('quick') }, 'Ask for a review'));
    if (player && !has('deep')) row.append(h('button.secondary.small#ask-deep-review', { type: 'button', onclick: () => this.ask('deep') }, 'Ask for a deep review'));
    return row;
  }

  graph(review) {
    const positions = review.positions;
    const teams = positions.length ? positions[0].shares.length : 0;
    const last = Math.max(1, positions.length - 1);
    const innerW = WIDTH - PAD.left - PAD.right;
    const innerH = HEIGHT - PAD.top - PAD.bottom;
    const x = (i) => PAD.left + (i * innerW) / last;
    const y = (share) => PAD.top + (1 - share) * innerH;
    this.x = x;
    const chart = svgElement('svg', {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'graph review-graph', id: 'review-graph', role: 'slider', tabindex: '0',
      'aria-label': `Winning chances by move (${review.depth} review); arrow keys or a click show that move`,
      'aria-valuemin': '0', 'aria-valuemax': String(positions.length - 1),
    });
    for (const v of [0, 0.5, 1]) {
      chart.append(svgElement('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v), class: 'grid' }),
        svgElement('text', { x: PAD.left - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, document.createTextNode(percent(v))));
    }
    for (let t = 1; t <= teams; t += 1) {
      const points = positions.map((p, i) => `${x(i)},${y(p.shares[t - 1])}`).join(' ');
      const style = teamStyle(this.palette, t);
      // A dark halo under each line, so that a white team's line shows on the light background.
      chart.append(svgElement('polyline', { points, class: 'share-halo' }),
        svgElement('polyline', { points, class: 'share-line', stroke: style.fill, 'data-team': String(t) }));
    }
    for (const s of review.swings) {
      const share = positions[s.move] ? positions[s.move].shares[s.team - 1] : 0;
      const style = teamStyle(this.palette, s.team);
      chart.append(svgElement('circle', { cx: x(s.move), cy: y(share), r: 5, class: 'swing-mark', fill: style.fill, 'data-move': String(s.move) },
        svgElement('title', {}, document.createTextNode(this.swingText(s)))));
    }
    this.marker = svgElement('line', { y1: PAD.top, y2: HEIGHT - PAD.bottom, class: 'marker' });
    chart.append(this.marker);
    const pick = (event) => {
      const box = chart.getBoundingClientRect();
      const at = ((event.clientX - box.left) / box.width) * WIDTH;
      const i = Math.round(((at - PAD.left) / innerW) * last);
      this.hooks.jump(Math.max(0, Math.min(positions.length - 1, i)));
    };
    chart.addEventListener('click', pick);
    chart.addEventListener('keydown', (event) => {
      const steps = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, Home: -Infinity, End: Infinity };
      if (!(event.key in steps)) return;
      event.preventDefault();
      const i = Math.max(0, Math.min(positions.length - 1, this.shown + steps[event.key]));
      this.hooks.jump(Number.isFinite(i) ? i : 0);
    });
    this.chart = chart;
    this.positions = positions;
    const legend = h('p.small.review-legend', ...Array.from({ length: teams }, (_, k) => {
      const style = teamStyle(this.palette, k + 1);
      const sample = svgElement('svg', { class: 'legend-line', viewBox: '0 0 20 8', width: 20, height: 8, 'aria-hidden': 'true' },
        svgElement('line', { x1: 1, y1: 4, x2: 19, y2: 4, class: 'share-halo' }),
        svgElement('line', { x1: 1, y1: 4, x2: 19, y2: 4, class: 'share-line', stroke: style.fill }));
      return h('span.legend-item', sample, ` ${this.hooks.teamLabel(k + 1)} `);
    }));
    this.readout = h('p.small.review-readout#review-readout', { 'aria-live': 'polite' });
    return h('figure.review-figure', chart, legend, this.readout);
  }

  moveMarker() {
    if (!this.chart || !this.positions || !this.chart.isConnected) return;
    const i = Math.min(this.shown, this.positions.length - 1);
    const position = this.positions[i];
    if (!position) return;
    this.marker.setAttribute('x1', this.x(i));
    this.marker.setAttribute('x2', this.x(i));
    const shares = position.shares.map((s, k) => `${this.hooks.teamLabel(k + 1)} ${percent(s)}`).join(', ');
    const score = scoreText(position.score, this.hooks.teamLabel);
    const text = `Move ${i}: ${shares}${score ? ` · ${score}` : ''}`;
    this.chart.setAttribute('aria-valuenow', String(i));
    this.chart.setAttribute('aria-valuetext', text);
    this.readout.textContent = text;
  }

  swingText(s) {
    const best = s.best ? `; the engine preferred ${s.best}` : '';
    return `Move ${s.move}, ${this.hooks.teamLabel(s.team)}: −${percent(s.loss)}${best}`;
  }

  swingList(review) {
    if (!review.swings.length) return h('p.muted.small', 'No move lost much.');
    return h('div.review-swings',
      h('h3.small', 'Biggest swings'),
      h('ul.swing-list#swings', ...review.swings.map((s) => h('li',
        h('button.link', { type: 'button', dataset: { move: String(s.move) }, onclick: () => this.hooks.jump(s.move) }, this.swingText(s))))));
  }

  ownershipToggle() {
    const review = this.best();
    const go = review && review.positions.some((p) => p.ownership);
    if (!go) return null;
    const box = h('input#review-ownership', {
      type: 'checkbox', checked: this.ownershipOn, onchange: (e) => {
        this.ownershipOn = e.target.checked;
        this.hooks.redraw();
      },
    });
    return h('label.small', box, ' Ownership');
  }
}

// The game page's "Area" view: the server's live territory estimate of an active Go game (GET
// /games/{id}/area), summed up by area.js and drawn on the board only at the position it was made for. A
// button in practice games, a checkbox elsewhere.
import { get } from '../api.js';
import { areaSummary } from '../area.js';
import { h, toast } from '../dom.js';
import { isPractice } from '../format.js';

export class AreaEstimate {
  constructor(page) {
    this.page = page;
    this.on = false;
    this.area = null; // its summary for the position `area.key`
    this.key = null; // the position last asked for
    this.ticket = 0; // answers to older requests are dropped
    this.button = h('button.secondary.small#area', { type: 'button', 'aria-pressed': 'false', onclick: () => this.toggle(!this.on) }, 'Area');
    this.check = h('input#show-estimate', { type: 'checkbox', onchange: (e) => this.toggle(e.target.checked) });
    this.label = h('label.small', this.check, ' Show territory estimate');
    this.score = h('p.small.area-score#area-score', { 'aria-live': 'polite' });
    this.box = h('div.area-box', { role: 'group', 'aria-label': 'Territory estimate' }, this.button, this.label, this.score);
  }

  /** Any viewer of an active Go game may ask the server for an estimate. */
  available() {
    const snap = this.page.snap;
    return Boolean(snap && snap.status === 'active' && snap.position && (snap.kind || 'go') === 'go');
  }

  positionKey() {
    const position = this.page.snap.position;
    return `${position.plies}:${position.board.join('')}`;
  }

  /** The estimate is drawn only on the live position it was made for. */
  shown() {
    return Boolean(this.on && this.area && this.page.live() && this.available() && this.area.key === this.positionKey());
  }

  toggle(on) {
    const page = this.page;
    this.on = on;
    if (!on) {
      this.ticket += 1; // forget a request still on its way
      this.area = null;
      this.key = null;
    }
    if (!page.snap) { // pressed before the game arrived: its first drawing asks for the estimate
      this.button.setAttribute('aria-pressed', String(on));
      return;
    }
    this.update();
    page.renderBoard();
    this.render();
  }

  /** Ask for an estimate of the current position unless one is there or on its way. */
  update() {
    const page = this.page;
    if (!this.on || !this.available()) return;
    const key = this.positionKey();
    if (this.key === key) return;
    this.key = key;
    const ticket = ++this.ticket;
    (async () => {
      try {
        const data = await get(`/games/${page.id}/area${page.q()}`);
        if (ticket !== this.ticket || this.positionKey() !== key) return; // the position moved on meanwhile
        const snap = page.snap;
        if (data.ply !== snap.position.plies) {
          this.key = null; // the server was a move ahead: the move's event brings a new request
          return;
        }
        this.area = { key, ...areaSummary(data.ownership, snap.position.board, snap.options.teams, snap.rules, snap.position) };
      } catch (err) {
        if (ticket !== this.ticket) return;
        this.key = null;
        toast(`No territory estimate: ${err.raw || err.message}`, 'error');
        if (err.status === 503 || err.status === 403) this.on = false;
      }
      page.renderBoard();
      this.render();
    })();
  }

  render() {
    const page = this.page;
    const snap = page.snap;
    const available = this.available();
    this.box.hidden = !available;
    if (!available) return;
    const practice = isPractice(snap.options);
    this.button.hidden = !practice;
    this.button.setAttribute('aria-pressed', String(this.on));
    this.button.classList.toggle('on', this.on);
    this.label.hidden = practice;
    this.check.checked = this.on;
    let text = '';
    if (this.on) {
      if (!page.live()) text = 'The estimate is for the current position: go to the last move to see it.';
      else if (this.shown()) text = this.text(this.area);
      else text = 'Estimating the territory…';
    }
    if (this.score.textContent !== text) this.score.textContent = text;
    this.box.dataset.ply = this.shown() ? String(snap.position.plies) : ''; // for tests and styling
  }

  text(area) {
    const page = this.page;
    const scoring = (page.snap.rules || {}).scoring === 'territory' ? 'territory counting' : 'area counting';
    const parts = area.scores.map((s) => `${page.teamLabel(s.team)} ${s.total}${s.komi ? ` (komi ${s.komi})` : ''}`);
    const lead = area.leader ? `${page.teamLabel(area.leader)} leads by ${area.margin}.` : 'Even.';
    const dead = area.dead.size ? ` Stones judged dead: ${area.dead.size}.` : '';
    return `Estimated score (${scoring}): ${parts.join(', ')}. ${lead}${dead}`;
  }
}

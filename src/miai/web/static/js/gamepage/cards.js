// The game page's side cards: the teams, the result (with territory on the board and a report of a wrong
// score), and the rules with the SGF download.
import { post } from '../api.js';
import { clear, h, toast } from '../dom.js';
import { markLegend, ratingNote, resultSection, rulesList, teamsList } from '../gameparts.js';
import { isPractice } from '../format.js';
import { isRecord, recordTeams } from '../uploaded.js';

/** The points that belong to nobody where a border is still open: empty points counted for no colour, but
 * not the shared liberties of a seki (`result.dame` and `result.seki`, vertices). */
export function openBorder(result, size) {
  const at = (v) => (Number(v.slice(1)) - 1) * size + 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.indexOf(v[0]);
  const seki = new Set((result.seki || []).map(at));
  const touchesSeki = (p) => [p - size, p + size, p % size ? p - 1 : -1, (p + 1) % size ? p + 1 : -1].some((q) => seki.has(q));
  return (result.dame || []).filter((v) => !touchesSeki(at(v)));
}

export class SideCards {
  constructor(page) {
    this.page = page;
    this.showTerritory = true; // a finished game's counted territory on the board
    this.teamsBox = h('section.card', { 'aria-labelledby': 'teams-title' });
    this.resultBox = h('section.card.result-card', { 'aria-labelledby': 'result-title', hidden: true });
    this.infoBox = h('section.card.info', { 'aria-labelledby': 'info-title' });
  }

  render() {
    this.renderTeams();
    this.renderResult();
    this.renderInfo();
  }

  renderTeams() {
    const { snap, palette } = this.page;
    const teams = isRecord(snap) ? recordTeams(snap, palette) : teamsList(snap, palette, snap.position);
    clear(this.teamsBox, h('h2#teams-title', 'Teams'), teams);
  }

  renderResult() {
    const page = this.page;
    const snap = page.snap;
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
        page.renderBoard();
      },
    }), ' Show territory on the board');
    if (page.entry) {
      clear(this.resultBox, h('h2#result-title', 'Result'), resultSection(snap, page.palette), ratingNote(snap));
      return;
    }
    const me = snap.you;
    const player = me && snap.players.some((p) => p.user_id === me.user_id);
    // Only dead stones can be judged wrongly: games scored under `auto` dead stones after passes or the limit.
    const scored = (snap.result.reason === 'passes' || snap.result.reason === 'move_limit') && snap.rules.dead_stones === 'auto';
    // Nothing to show on the board when nothing was counted (a resignation, a timeout, an agreed draw).
    const counted = (snap.result.territory || []).length > 0;
    const open = counted ? openBorder(snap.result, snap.options.size) : [];
    const shown = open.slice(0, 8).join(', ') + (open.length > 8 ? ', …' : '');
    const warning = open.length
      ? h('p.warning#open-border', { role: 'note' },
        `A border is still open: ${open.length} ${open.length === 1 ? 'point belongs' : 'points belong'} to nobody (${shown}).`,
        page.controls && isPractice(snap.options) && player ? ' Resume play to close it.' : '')
      : null;
    // A practice game that ended by passes: a look at the count, and the player may take the passes back.
    const resume = player && isPractice(snap.options) && snap.result.reason === 'passes'
      ? h('p', h('button.secondary#resume', { type: 'button', onclick: () => page.controls.practiceStep('undo') }, 'Resume play'),
        h('span.muted.small', ' takes the passes back: play on, then pass again to count.'))
      : null;
    clear(this.resultBox, h('h2#result-title', 'Result'), resultSection(snap, page.palette), warning, resume, ratingNote(snap),
      counted ? toggle : null, counted ? legend : null, player && scored ? this.flagForm() : null);
  }

  /** Players can report a wrong score (for example misjudged dead stones); an administrator reviews it. */
  flagForm() {
    const page = this.page;
    const text = h('textarea#flag-comment', { rows: '2', maxlength: '2000', 'aria-label': 'What is wrong with the score?' });
    const form = h('form.flag', h('p.small', 'Which stones were judged wrongly, and why?'), text,
      h('button.secondary.small', { type: 'submit' }, 'Send report'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await post(`/games/${page.id}/flag`, { comment: text.value });
        text.value = '';
        toast('Thank you: an administrator will look at the score.');
      } catch (err) {
        toast(err.message, 'error');
      }
    });
    return h('details.small', h('summary', 'Report a wrong score'), form);
  }

  renderInfo() {
    const page = this.page;
    const snap = page.snap;
    const parts = [h('h2#info-title', 'Rules'), rulesList(snap)];
    if (snap.status === 'active' || snap.status === 'finished') {
      parts.push(h('p', h('a#sgf', { href: `/api/v1/games/${page.id}/sgf${page.q()}`, download: `miai-${page.id}.sgf` }, 'Download SGF')));
    }
    clear(this.infoBox, parts);
  }
}

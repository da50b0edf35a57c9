// Pieces of the game page that only draw: team list, result and score table, rules, clocks.
import { h } from './dom.js';
import { countdown, duration, END_REASONS, presetTitle, clockText, secondsUntil } from './format.js';
import { kindOf, resultHeadline } from './games/registry.js';
import { swatch, teamStyle } from './palette.js';

const PLAYER_STATES = { resigned: 'resigned', timed_out: 'timed out' };

/** The game's own names for its teams ("White", "Black"), or null for Go, whose teams are numbered. */
export function teamNames(snap) {
  return kindOf(snap.kind) && snap.team_names ? snap.team_names : null;
}

export function teamName(palette, t, names = null) {
  if (names && names[t - 1]) return names[t - 1];
  const style = teamStyle(palette, t);
  return `Team ${t} (${style.name})`;
}

export function playerName(snap, team, seat) {
  const p = snap.players.find((x) => x.team === team && x.seat === seat);
  if (p) return p.username;
  return snap.options.mode === 'local' && snap.players.length ? snap.players[0].username : '?';
}

/** The team list: members in turn order, who is on move, resigned / timed-out players, captures. */
export function teamsList(snap, palette, position) {
  const o = snap.options;
  const items = [];
  for (let t = 1; t <= o.teams; t++) {
    let members = snap.players
      .filter((p) => p.team === t)
      .sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99));
    if (!members.length && o.mode === 'local' && snap.players.length) members = [{ ...snap.players[0], team: t, seat: 0 }];
    const onMove = snap.status === 'active' && snap.to_move && snap.to_move.team === t;
    const out = position && position.active && position.active[t - 1] === false;
    const captures = position && position.captures ? position.captures[t - 1] : null;
    items.push(
      h(
        'li.team',
        { dataset: { team: String(t) }, class: `team${onMove ? ' on-move' : ''}${out ? ' out' : ''}` },
        h(
          'div.team-head',
          swatch(palette, t, 20),
          h('strong', teamName(palette, t, teamNames(snap))),
          out ? h('span.tag.out', 'out') : null,
          onMove ? h('span.tag.move', 'to move') : null,
          captures !== null ? h('span.captures', `captures: ${captures}`) : null,
        ),
        h(
          'ul.members',
          members.length
            ? members.map((p) =>
                h(
                  'li',
                  { dataset: { user: String(p.user_id), state: p.state } },
                  h('span.name', p.username),
                  p.computer !== null && p.computer !== undefined
                    ? h('span.tag.computer', { title: 'A computer player' }, `computer, level ${p.computer}`)
                    : null,
                  snap.you && p.user_id === snap.you.user_id ? h('span.tag', 'you') : null,
                  onMove && snap.to_move.seat === p.seat ? h('span.tag.move', 'on move') : null,
                  PLAYER_STATES[p.state] ? h('span.tag.out', PLAYER_STATES[p.state]) : null,
                  snap.status === 'confirming' ? h('span.tag', p.confirmed ? '✓ confirmed' : 'not confirmed yet') : null,
                ),
              )
            : h('li.muted', 'no players yet'),
          Array.from({ length: Math.max(0, o.players_per_team - members.length) }, () => h('li.muted', 'free seat')),
        ),
      ),
    );
  }
  const unassigned = snap.players.filter((p) => p.team === null);
  if (unassigned.length) {
    items.push(
      h('li.team', h('div.team-head', h('strong', 'Team chosen at random when the game is full')),
        h('ul.members', unassigned.map((p) => h('li', p.username)))),
    );
  }
  return h('ul.teams', items);
}

export function resultSection(snap, palette) {
  const r = snap.result;
  if (!r) return null;
  const entry = kindOf(snap.kind);
  if (entry) return h('div.result', h('p.headline', { id: 'result-headline' }, `${resultHeadline(entry, r, teamNames(snap) || [])}.`));
  const names = (teams) => teams.map((t) => teamName(palette, t)).join(', ');
  let headline;
  if (r.draw) headline = r.winners.length > 1 ? `Draw between ${names(r.winners)}` : 'Draw';
  else if (r.winners.length === 1) headline = `${teamName(palette, r.winners[0])} wins`;
  else headline = `${names(r.winners)} share the win`;
  // Only the parts that make up the total under these rules (core scoring: area and DipGo count stones,
  // territory scoring subtracts lost and dead stones instead).
  const rules = snap.rules || {};
  const territoryScoring = rules.scoring === 'territory';
  const columns = [
    ['stones', 'Stones', 'Stones on the board', !territoryScoring],
    ['territory', 'Terr.', 'Territory', true],
    ['captures', 'Capt.', 'Points for captures', Boolean(rules.capture_points)],
    ['prisoners', '−Lost', 'Own stones lost (subtracted)', territoryScoring],
    ['dead', '−Dead', 'Own dead stones (subtracted)', territoryScoring],
    ['komi', 'Komi', 'Komi', r.scores.some((x) => x.komi)],
    ['total', 'Total', 'Total', true],
  ].filter(([, , , shown]) => shown);
  const rows = r.scores.map((s) =>
    h(
      'tr',
      { class: r.winners.includes(s.team) ? 'winner' : '', dataset: { team: String(s.team) } },
      h('th', { scope: 'row' }, swatch(palette, s.team, 14), ` ${s.team}`),
      columns.map(([key]) => h(`td.${key}`, key === 'total' ? h('strong', s[key]) : s[key])),
    ),
  );
  return h(
    'div.result',
    h('p.headline', { id: 'result-headline' }, `${headline} — ${END_REASONS[r.reason] || r.reason}.`),
    r.ranking.length > 1
      ? h('ol.ranking', r.ranking.map((group) => h('li', names(group))))
      : null,
    h('div.table-scroll', h(
      'table.scores',
      h('caption', 'Score per team'),
      h('thead', h('tr', h('th', { scope: 'col' }, 'Team'),
        columns.map(([, short, full]) => h('th', { scope: 'col', title: full, 'aria-label': full }, short)))),
      h('tbody', rows),
    )),
    deadStonesNote(r, rules),
    r.corrected_by ? h('p.muted.small', `Corrected by ${r.corrected_by}${r.note ? `: ${r.note}` : ''}`) : null,
  );
}

/** Who decided which stones were dead: the estimator after passes, or an administrator's correction. */
function deadStonesNote(r, rules) {
  if (r.dead_stones_judged === false) {
    return h('p.muted.small', 'Dead stones were not judged: every stone on the board counted as alive.');
  }
  const dead = r.dead || [];
  const listed = dead.length ? `: ${dead.join(' ')} (crossed out on the board)` : ': none';
  if (r.corrected_by) {
    return h('p.small.dead-note', `Dead stones set by an administrator (${r.corrected_by})${listed}.`);
  }
  const scored = r.reason === 'passes' || r.reason === 'move_limit';
  if (!scored || rules.dead_stones !== 'auto') return dead.length ? h('p.muted.small', `Dead stones: ${dead.join(' ')}`) : null;
  return h('p.small.dead-note', `Dead stones were judged automatically by the estimator${listed}.`);
}

export function rulesList(snap) {
  const o = snap.options;
  const r = snap.rules || {};
  const row = (k, v) => [h('dt', k), h('dd', String(v))];
  const entry = kindOf(snap.kind);
  if (entry) {
    const names = teamNames(snap) || [];
    return h('dl.rules',
      row('Game', entry.title),
      row('Board', `${o.size}×${o.size}`),
      row('Moves first', names[0] || 'team 1'),
      entry.describeOptions(o).map((text) => row('Rule', text)),
      row('Time', clockText(o)),
      row('Visibility', o.visibility));
  }
  return h(
    'dl.rules',
    row('Board', `${o.size}×${o.size}`),
    row('Teams', `${o.teams} × ${o.players_per_team} player${o.players_per_team > 1 ? 's' : ''}`),
    row('Rules', presetTitle(r.preset || o.preset)),
    row('Ko', r.ko || o.ko || 'preset'),
    row('Scoring', r.scoring || '?'),
    row('Suicide', r.suicide || '?'),
    row('Komi', (r.komi || []).map((k, i) => `${i + 1}: ${k}`).join(', ')),
    row('Capture points', r.capture_points ? 'yes' : 'no'),
    row('Inactive stones', r.remove_inactive_stones ? 'removed' : 'stay'),
    row('Move limit', r.move_limit_rounds ? `${r.move_limit_rounds} rounds` : 'none'),
    r.handicap ? row('Handicap', r.handicap) : null,
    row('Dead stones', r.dead_stones || '?'),
    row('Time', clockText(o)),
    row('Visibility', o.visibility),
  );
}

/** The main-time / periods of each team under Fischer or byo-yomi clocks. */
export function teamClock(snap, t) {
  const o = snap.options;
  const c = snap.clocks && snap.clocks[String(t)];
  if (!c || o.clock === 'none') return null;
  if (o.clock === 'byoyomi') return `${duration(c.main)} + ${c.periods}×${duration(o.period_time)}`;
  return duration(c.main);
}

export function deadlineText(snap, now = Date.now()) {
  const left = secondsUntil(snap.deadline, now);
  return left === null ? '' : countdown(left);
}

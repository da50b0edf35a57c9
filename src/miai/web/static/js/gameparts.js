// Pieces of the game page that only draw: team list, result and score table, rules, clocks.
import { h } from './dom.js';
import { deadMark, dameMark, sekiMark } from './board.js';
import { countdown, endingText, LETTERS, presetTitle, clockText, secondsUntil } from './format.js';
import { kindOf, resultHeadline } from './games/registry.js';
import { kindKeyTitle } from './kindkeys.js';
import { accountTag, playerLink } from './links.js';
import { swatch, teamStyle } from './palette.js';

const PLAYER_STATES = { resigned: 'resigned', timed_out: 'timed out' };

/**
 * The teams' names: the game's own ("White", "Black"); with `palette`, a two-colour Go game's stone colours
 * ("Black", "White"), as its players call them; else null: multi-colour Go numbers its teams.
 */
export function teamNames(snap, palette = null) {
  if (kindOf(snap.kind) && snap.team_names) return snap.team_names;
  if (palette && !kindOf(snap.kind) && snap.options.teams === 2) {
    return [1, 2].map((t) => teamWord(palette, t));
  }
  return null;
}

/** A team's one name on every page: the game's own ("White"), else its colour ("Black", "Red"). */
export function teamName(palette, t, names = null) {
  return teamWord(palette, t, names);
}

export function playerName(snap, team, seat) {
  const p = snap.players.find((x) => x.team === team && x.seat === seat);
  if (p) return shownName(p);
  return snap.options.mode === 'local' && snap.players.length ? shownName(snap.players[0]) : '?';
}

/** A person by username; a computer by engine and level ("Miai, level 3"), as the server names it. */
export function shownName(p) {
  return p.name || p.username;
}

/** A team's players in turn order. */
function members(snap, t) {
  return snap.players.filter((p) => p.team === t).sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99));
}

/** Whether every seat of the game is taken by a player of a known team. */
function seated(snap) {
  const o = snap.options;
  return snap.players.filter((p) => p.team).length === o.teams * o.players_per_team;
}

/**
 * A game named by its players, the same on every page and list: "ann & ben vs cat & dan", "ann vs Miai,
 * level 3", "ann vs ben vs cat"; an uploaded record by its names ("Shusaku vs Gennan"); "Game 7" while
 * nobody is seated. `g`: a listed game ({id, players: [{name, user, team}], names}) or a game page's
 * snapshot (players with `username` and `seat`).
 */
export function gameName(g) {
  if (g.names && g.names.length) return g.names.map((names) => names.join(' & ') || '?').join(' vs ');
  const seated = (g.players || []).filter((p) => p.team);
  const teams = [...new Set(seated.map((p) => p.team))].sort((a, b) => a - b);
  if (!teams.length) return `Game ${g.id}`;
  const side = (t) => seated.filter((p) => p.team === t).sort((a, b) => (a.seat ?? 0) - (b.seat ?? 0))
    .map((p) => p.name || p.user || p.username).join(' & ');
  return teams.map(side).join(' vs ');
}

/**
 * The game page's heading: the game named by its players as every list names it (`gameName`: "ann vs bob",
 * "ann & carol vs bob & dave", "ann vs Miai, level 3"); "Local game: two players"; `unseated` ("Game 7")
 * while seats are free.
 */
export function gameTitle(snap, unseated = `Game ${snap.id}`) {
  const o = snap.options;
  if (o.mode === 'local') return 'Local game: two players';
  if (o.mode !== 'computer' && !seated(snap)) return unseated;
  const name = gameName(snap);
  return name === `Game ${snap.id}` ? unseated : name;
}

/**
 * The name beside a team's clock: the player's own name in a two-player game, else the team's name with
 * its players after it ({name, players}; players '' when there is nobody to list).
 */
export function clockNames(snap, palette, t) {
  const o = snap.options;
  const team = teamName(palette, t, teamNames(snap, palette));
  const names = members(snap, t).map(shownName);
  if (o.mode === 'local' || !names.length) return { name: team, players: '', team };
  if (o.teams === 2 && o.players_per_team === 1) return { name: names[0], players: '', team };
  return { name: team, players: names.join(', '), team };
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
          h('strong', teamName(palette, t, teamNames(snap, palette))),
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
                  h('span.name', p.computer === null || p.computer === undefined ? playerLink(p.username, shownName(p), p.is_guest) : shownName(p)),
                  accountTag(p),
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
  // SPEC G17: players who chose no team are placed when the game fills, after those who chose that team.
  const unassigned = snap.players.filter((p) => p.team === null);
  if (unassigned.length) {
    items.push(
      h('li.team#unplaced', h('div.team-head', h('strong', 'Any team — placed when the game fills')),
        h('p.small.muted', 'Placed at random in a team with a free seat, after the players who chose that team.'),
        h('ul.members', unassigned.map((p) => h('li', { dataset: { user: String(p.user_id) } }, h('span.name', shownName(p)),
          snap.you && p.user_id === snap.you.user_id ? h('span.tag', 'you') : null)))),
    );
  }
  return h('ul.teams', items);
}

/** A team's name in sentences: the game's own names ("White" in Amazons), else Go's colour ("Red"). */
export function teamWord(palette, t, names = null) {
  if (names && names[t - 1]) return names[t - 1];
  const colour = teamStyle(palette, t).name;
  return colour.charAt(0).toUpperCase() + colour.slice(1);
}

/** A game created rated: whether it moved ratings, each player's change, or why it did not (the snapshot's
 * `rating`, docs/api.md). Nothing for games created unrated. */
export function ratingNote(snap) {
  const r = snap.rating;
  if (!r || !(snap.options && snap.options.rated)) return null;
  if (!r.rated) return h('p.small.rating-note', { id: 'rating-note' }, `Not rated: ${r.reason}.`);
  const name = (id) => (snap.players.find((p) => p.user_id === id) || {}).name || '?';
  const signed = (n) => `${n < 0 ? '−' : '+'}${Math.abs(Math.round(n))}`;
  const changes = r.changes.map((c) => `${name(c.user_id)} ${Math.round(c.before)} → ${Math.round(c.after)} (${signed(c.change)})`);
  return h('p.small.rating-note', { id: 'rating-note' }, `Rated, ${kindKeyTitle(r.kind_key)}: ${changes.join(', ')}.`);
}

export function resultSection(snap, palette) {
  const r = snap.result;
  if (!r) return null;
  const entry = kindOf(snap.kind);
  const word = (t) => teamWord(palette, t, teamNames(snap, palette));
  if (entry) {
    // A game's own endings ("White cannot move") in its own words; leaving the game reads as in Go.
    const left = r.reason === 'resign' || r.reason === 'timeout';
    const text = left ? endingText(r, word) : `${resultHeadline(entry, r, teamNames(snap) || [])}.`;
    return h('div.result', h('p.headline', { id: 'result-headline' }, text));
  }
  const names = (teams) => teams.map((t) => teamName(palette, t, teamNames(snap, palette))).join(', ');
  const scored = Boolean(r.scores && r.scores.length);
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
    ['komi', 'Komi', 'Komi', scored && r.scores.some((x) => x.komi)],
    ['total', 'Total', 'Total', true],
  ].filter(([, , , shown]) => shown);
  const rows = (r.scores || []).map((s) =>
    h(
      'tr',
      { class: r.winners.includes(s.team) ? 'winner' : '', dataset: { team: String(s.team) } },
      h('th', { scope: 'row' }, swatch(palette, s.team, 14), ` ${s.team}`),
      columns.map(([key]) => h(`td.${key}`, key === 'total' ? h('strong', s[key]) : s[key])),
    ),
  );
  return h(
    'div.result',
    h('p.headline', { id: 'result-headline' }, endingText(r, word)),
    r.ranking.length > 2 ? h('ol.ranking', r.ranking.map((group) => h('li', names(group)))) : null,
    // Nothing was counted after a resignation, a timeout or an agreed draw: no score table then.
    scored
      ? h('div.table-scroll', h(
        'table.scores',
        h('caption', 'Score per team'),
        h('thead', h('tr', h('th', { scope: 'col' }, 'Team'),
          columns.map(([, short, full]) => h('th', { scope: 'col', title: full, 'aria-label': full }, short)))),
        h('tbody', rows),
      ))
      : null,
    scored ? deadStonesNote(r, rules) : null,
    scored ? sekiNote(r, snap, word) : null,
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

const DAME_LISTED = 24; // more dame than this (a game stopped early) are counted, not listed

/** Why surrounded groups stayed on the board (seki) and which points count for nobody (dame). */
function sekiNote(r, snap, word) {
  const seki = r.seki || [];
  const dame = r.dame || [];
  if (!seki.length && !dame.length) return null;
  const parts = [];
  if (seki.length) {
    const board = (snap.position && snap.position.board) || [];
    const n = snap.options.size;
    const byTeam = new Map();
    for (const v of seki) {
      const team = board[(Number(v.slice(1)) - 1) * n + LETTERS.indexOf(v[0])] || 0;
      byTeam.set(team, [...(byTeam.get(team) || []), v]);
    }
    const groups = [...byTeam.entries()].sort(([a], [b]) => a - b)
      .map(([team, points]) => `${team ? `${word(team)} ` : ''}${points.join(' ')}`);
    parts.push(`seki: ${groups.join(', ')} (alive, though surrounded: neither side can capture the other; ringed on the board)`);
  }
  if (dame.length) {
    const listed = dame.length > DAME_LISTED ? `${dame.length} points` : dame.join(' ');
    parts.push(`dame: ${listed} (count for nobody; a dash on the board)`);
  }
  const text = parts.join('; ');
  return h('p.small.seki-note', { id: 'seki-note' }, `${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
}

/** What the marks on the final board mean, for the marks this result has. */
export function markLegend(r) {
  const sample = (svg, text) => {
    const icon = h('span', { 'aria-hidden': 'true' });
    icon.innerHTML = `<svg viewBox="0 0 10 10" width="20" height="20">${svg}</svg>`;
    return h('li', icon, text);
  };
  const stone = '<circle cx="5" cy="5" r="4.6" fill="#8a8a8a" stroke="#1a1a1a" stroke-width=".45"/>';
  const items = [
    (r.dead || []).length ? sample(stone + deadMark(5, 5, 2.6), 'dead stone') : null,
    (r.seki || []).length ? sample(stone + sekiMark(5, 5, 3.6), 'stone in seki') : null,
    (r.dame || []).length ? sample(dameMark(5, 5, 2), 'dame: counts for nobody') : null,
  ].filter(Boolean);
  return items.length ? h('ul.mark-legend', { id: 'mark-legend', 'aria-label': 'Marks on the board' }, items) : null;
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

/** The time left until the snapshot's deadline at `now` (the server's time on the game page). */
export function deadlineText(snap, now = Date.now()) {
  const left = secondsUntil(snap.deadline, now);
  return left === null ? '' : countdown(left);
}

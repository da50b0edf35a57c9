// Text for people: vertices, durations, game options, results.
import { kindOf } from './games/registry.js';

export const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'; // GTP columns: no I, enough for 25x25

/** GTP vertex of point `p` (row 0 at the bottom, p = row * size + col). */
export function vertex(p, size) {
  return LETTERS[p % size] + String(Math.floor(p / size) + 1);
}

/** 86400 -> "1 day", 90 -> "1 min 30 s". */
export function duration(seconds) {
  seconds = Math.max(0, Math.round(seconds));
  const parts = [];
  const units = [['day', 86400], ['h', 3600], ['min', 60], ['s', 1]];
  for (const [name, size] of units) {
    const n = Math.floor(seconds / size);
    seconds -= n * size;
    if (n) parts.push(name === 'day' ? `${n} day${n > 1 ? 's' : ''}` : `${n} ${name}`);
  }
  return parts.slice(0, 2).join(' ') || '0 s';
}

/** Why the server took a player out of a game (a snapshot's `removed`): "you did not confirm within 5 min". */
export function removalReason(r) {
  if (r.reason === 'unconfirmed') return `you did not confirm within ${duration(r.window)}`;
  return 'the server took you out of it';
}

/** A countdown: "2d 03h", "5:04:09", "04:09". */
export function countdown(seconds) {
  seconds = Math.max(0, Math.floor(seconds));
  const d = Math.floor(seconds / 86400);
  const hh = Math.floor((seconds % 86400) / 3600);
  const mm = Math.floor((seconds % 3600) / 60);
  const ss = seconds % 60;
  const two = (n) => String(n).padStart(2, '0');
  if (d) return `${d}d ${two(hh)}h ${two(mm)}m`;
  if (hh) return `${hh}:${two(mm)}:${two(ss)}`;
  return `${two(mm)}:${two(ss)}`;
}

export function secondsUntil(iso, now = Date.now()) {
  return iso ? (Date.parse(iso) - now) / 1000 : null;
}

export const PRESETS = [
  ['', 'Default (Dgo for 2 colours, DipGo for more)'],
  ['dgo', 'Dgo (Dan-Ball)'],
  ['dipgo', 'DipGo (multi-colour)'],
  ['itsyourturn', 'itsyourturn'],
  ['chinese', 'Chinese'],
  ['japanese', 'Japanese'],
  ['korean', 'Korean'],
  ['aga', 'AGA'],
  ['nz', 'New Zealand'],
  ['tromp-taylor', 'Tromp-Taylor'],
  ['ing', 'Ing'],
];

export function presetTitle(key) {
  const found = PRESETS.find(([k]) => k === key);
  return found ? found[1] : key;
}

export function clockText(o) {
  const per = `${duration(o.seconds_per_move)} per move`;
  if (o.clock === 'fischer') return `Fischer ${duration(o.main_time)} + ${duration(o.increment)}, ${per}`;
  if (o.clock === 'byoyomi') {
    return `byo-yomi ${duration(o.main_time)} + ${o.periods}×${duration(o.period_time)}, ${per}`;
  }
  return per;
}

/** Whether a game's options are a practice game's: against the computer, or both colours at one screen. */
export function isPractice(o) {
  return o.mode === 'computer' || o.mode === 'local';
}

/** One line about a game's options, for lists (`kind`: the game; Go when absent; `time`: with the clock). */
export function optionsSummary(o, kind = o.kind, time = true) {
  const entry = kindOf(kind);
  // A practice game has no clock worth reading and is private by nature: neither is said.
  const practice = isPractice(o);
  const tail = (parts) => {
    if (time && !practice) parts.push(clockText(o));
    if (o.visibility === 'private' && !practice) parts.push('private');
    return parts.join(' · ');
  };
  if (entry) return tail([entry.title, `${o.size}×${o.size}`, ...entry.describeOptions(o)]);
  const parts = [
    `${o.size}×${o.size}`,
    o.players_per_team > 1 ? `${o.teams} teams of ${o.players_per_team}` : `${o.teams} colours`,
    presetTitle(o.preset),
  ];
  if (o.handicap) parts.push(`handicap ${o.handicap}`);
  if (o.komi && o.komi.length) parts.push(`komi ${o.komi.join('/')}`);
  if (o.ko) parts.push(`${o.ko} ko`);
  if (o.capture_points) parts.push('capture points');
  if (o.remove_inactive_stones) parts.push('inactive stones removed');
  if (o.move_limit) parts.push(`limit ${o.move_limit} rounds`);
  return tail(parts);
}

export const END_REASONS = {
  passes: 'the game ended by passes',
  last_colour: 'only one team was left in the game', // results stored before `reason` said resign or timeout
  move_limit: 'the move limit was reached',
  agreed_draw: 'the remaining teams agreed to a draw',
  resign: 'the other teams resigned',
  timeout: 'the other teams ran out of time',
};

/** "Black", "Black and White", "Black, White and Red". */
export function listWords(words) {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** (3, 'game') -> "3 games", (1, 'game') -> "1 game": words whose plural takes an s. */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** 3.5 -> "3.5 points", 1 -> "1 point". */
export function pointsText(n) {
  return plural(n, 'point');
}

/** A day in the reader's own words ("27 Nov 2026"). */
export function dateText(iso) {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A day and time in the reader's own words ("27 Nov 2026, 10:58"); '' for no time at all. */
export function dateTimeText(iso) {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '';
}

/** "Red timed out at move 57", "Black resigned at move 12": one entry of a result's `left`. */
export function leftText(d, name) {
  return `${name(d.team)} ${d.how === 'timeout' ? 'timed out' : 'resigned'} at move ${d.ply}`;
}

/**
 * A finished game's result in one plain sentence, from the API's result `r` and `name(team)`: the teams that
 * left and how, then who won and how. "Black timed out at move 57; White wins on time.", "Black resigned at
 * move 12; White wins by resignation.", "Red timed out at move 57; Blue wins by 3.5 points.".
 */
export function endingText(r, name) {
  const gone = (r.left || []).filter((d) => d.team_out !== false).map((d) => leftText(d, name));
  const teams = r.winners || [];
  const winners = listWords(teams.map(name));
  let outcome;
  if (r.reason === 'timeout' && teams.length === 1) outcome = `${winners} wins on time`;
  else if (r.reason === 'resign' && teams.length === 1) outcome = `${winners} wins by resignation`;
  else if (r.reason === 'agreed_draw') outcome = `${winners} agreed to a draw`;
  else if ((r.scores && r.scores.length) || Number.isFinite(r.margin)) { // lists give the margin alone
    const top = (r.scores || []).find((x) => x.team === teams[0]);
    if (r.draw) outcome = `Draw between ${winners}${top ? `, ${pointsText(top.total)} each` : ''}`;
    else if (r.margin !== null && r.margin !== undefined) outcome = `${winners} wins by ${pointsText(r.margin)}`;
    else outcome = `${winners} wins`;
    if (r.reason === 'move_limit') outcome += ' when the move limit was reached';
  } else {
    outcome = `${teams.length === 1 ? `${winners} wins` : `Draw between ${winners}`} — ${END_REASONS[r.reason] || r.reason}`;
  }
  return `${[...gone, outcome].join('; ')}.`;
}

export function moveText(move) {
  return { pass: 'pass', resign: 'resigns', timeout: 'times out', autopass: 'passes (no legal move)', draw: 'agreed to a draw' }[move] || move;
}

// What the home, watch, archive and profile pages say about a listed game (the JSON views of /games/live,
// /games/archive and /users/NAME): its kind and options, its players, its result, its status or outcome.
// One place, so that a game reads the same on every page, and its result as on the game page itself.
import { endingText, plural } from './format.js';
import { gameName, teamWord } from './gameparts.js';
import { KINDS, kindOf, resultHeadline } from './games/registry.js';
import { h, link } from './dom.js';
import { listedPlayer } from './links.js';
import { swatch } from './palette.js';
import { boardThumbnail } from './thumbnail.js';

const STATUS = { waiting: 'waiting for players', confirming: 'starting', active: 'in play' };
const OUTCOME = { win: 'won', loss: 'lost', draw: 'draw' };

// The [value, text] choices of the list filters (archive, watch): '' is any.
export const KIND_CHOICES = [['', 'any'], ['go', 'Go'], ...Object.values(KINDS).map((k) => [k.key, k.title])];
export const COLOUR_CHOICES = [['', 'any'], ...[2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), String(n)])];
export const RATED_CHOICES = [['', 'any'], ['true', 'rated'], ['false', 'unrated']];

/** "Go", "Hex"; a kind this UI does not know keeps its key. */
export function kindTitle(kind) {
  const entry = kindOf(kind);
  if (entry) return entry.title;
  return !kind || kind === 'go' ? 'Go' : kind;
}

export function movesText(n) {
  return plural(n, 'move');
}

/** The title of a game in a list: its players' names, a link into the game, and its number after it. */
export function gameHeading(g) {
  return [link(g.url || `/games/${g.id}`, h('strong.game-name', gameName(g))), h('span.muted.small.game-number', ` #${g.id}`)];
}

/**
 * A listed game's board in small (its `preview`; an empty board before the first move), a link into the game,
 * for every list (home, archive, profile, dashboard, watch). `body`: the row's text beside it.
 */
export function thumbRow(tag, attrs, g, paletteName, ...body) {
  const size = g.size ?? (g.options && g.options.size) ?? (g.preview && g.preview.size);
  const preview = g.preview || (size ? { size, cells: '' } : null);
  const label = typeof g.moves === 'number' ? `Game ${g.id}: the board after ${movesText(g.moves)}` : `Game ${g.id}: the board`;
  return h(`${tag}.thumb-row`, attrs,
    preview ? h('a.thumb-link', { href: g.url || `/games/${g.id}`, 'data-link': true, tabindex: '-1', 'aria-hidden': 'true' },
      boardThumbnail(preview, g.kind, paletteName, label)) : null,
    h('div.thumb-text', body));
}

/** "Go · 9×9 · 3 colours · rated · 12 moves". */
export function gameLine(g) {
  const parts = [kindTitle(g.kind)];
  if (g.size) parts.push(`${g.size}×${g.size}`);
  if (!kindOf(g.kind) && g.colours > 2) parts.push(`${g.colours} colours`);
  parts.push(g.rated ? 'rated' : 'unrated', movesText(g.moves));
  return parts.join(' · ');
}

/** The palette a listed game's teams are drawn in, and their names in sentences ("Black", "Red"). */
function teamsOf(kind, paletteName) {
  const entry = kindOf(kind);
  const palette = entry ? entry.palette(paletteName) : paletteName;
  const names = entry ? entry.names : null;
  return { entry, palette, names, word: (t) => teamWord(palette, t, names) };
}

/** A listed game's team `t` by its one name everywhere: "Black", "White", "Red" (its own names beyond Go). */
export function teamLabel(kind, paletteName, t) {
  return teamsOf(kind, paletteName).word(t);
}

/** "● Black: alice · ● White: Miai, level 1", each player a link to their page (a guest has none). */
export function playersLine(g, paletteName) {
  const { palette, word } = teamsOf(g.kind, paletteName);
  if (g.names) { // an uploaded record: its players are the record's names, not accounts
    return h('span.players-line', g.names.map((names, i) => h('span.team-players', { dataset: { team: String(i + 1) } },
      i ? ' · ' : null, swatch(palette, i + 1, 12), ` ${word(i + 1)}: ${names.join(', ') || '?'}`)), ' (uploaded record)');
  }
  const teams = [...new Set(g.players.map((p) => p.team))].sort((a, b) => a - b);
  return h('span.players-line', teams.map((t, i) => h('span.team-players', { dataset: { team: String(t) } },
    i ? ' · ' : null, swatch(palette, t, 12), ` ${word(t)}: `,
    g.players.filter((p) => p.team === t).map((p, j) => [j ? ', ' : null, listedPlayer(p)]))));
}

/**
 * A listed game's result {reason, winners, draw, margin} as the game page words it, without its full stop:
 * "White wins by 6.5 points", "Black wins by resignation", "White wins: Black cannot move" (Amazons).
 */
export function resultText(result, kind, paletteName) {
  if (!result || (!result.reason && !result.draw)) return 'No result'; // an uploaded record without RE
  if (!(result.winners || []).length) return 'Draw';
  const { entry, names, word } = teamsOf(kind, paletteName);
  const left = result.reason === 'resign' || result.reason === 'timeout'; // leaving reads as in Go
  const text = entry && !left ? resultHeadline(entry, result, names || []) : endingText(result, word);
  return text.replace(/\.$/, '');
}

/** The result with the winners' swatches. */
export function resultLine(g, paletteName) {
  const r = g.result || { winners: [] };
  const { palette } = teamsOf(g.kind, paletteName);
  const winners = r.draw ? [] : r.winners || [];
  return h('span.result-line', winners.map((t) => swatch(palette, t, 12)), winners.length ? ' ' : null,
    resultText(r, g.kind, paletteName));
}

/** "waiting for players", "starting", "in play". */
export function statusText(status) {
  return STATUS[status] || status;
}

/** The listed user's outcome as a tag ("won", "lost", "draw"), or null when the list is nobody's. */
export function outcomeTag(outcome) {
  return outcome && OUTCOME[outcome] ? h(`span.tag.outcome.${outcome}`, OUTCOME[outcome]) : null;
}

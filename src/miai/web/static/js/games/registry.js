// The games the UI draws besides Go, keyed by the API's `kind`. Go keeps its own board (board.js) and the game
// page's Go code; every other game is one module here. A module exports an entry with:
//   key, title, names (the teams, first player first), help (one line on how to enter a move),
//   fields: the options of the create and practice forms [{name, label, type number|select, value, min, max,
//   choices: [[value, text]], help}], sent under their names,
//   Board: a CellBoard subclass (games/cellboard.js) that draws `position` and turns clicks into move text,
//   palette(base): the palette name for its teams (a base palette, or `${base}/swap` when team 1 is White),
//   boardLabel(position, names): the board's accessible name,
//   actions(position): extra move buttons, e.g. Hex's swap [{move, id, label, confirm}],
//   moveText(move): a move for people, describeOptions(options): words for the lobby's one-line summary,
//   endReasons: {reason: (winnerName, loserName) => text}.
// Adding a game: write its module and add it to KINDS.
import { AMAZONS } from './amazons.js';
import { HEX } from './hex.js';
import { TANBO } from './tanbo.js';

export const KINDS = { amazons: AMAZONS, hex: HEX, tanbo: TANBO };

/** The entry of a game kind, or null for Go (and for games this UI does not know). */
export function kindOf(key) {
  return (key && KINDS[key]) || null;
}

const COMMON_REASONS = {
  resign: (winner, loser) => `${loser} resigned`,
  timeout: (winner, loser) => `${loser} ran out of time`,
  last_colour: (winner, loser) => `${loser} left the game`,
};

/** "White wins: Black cannot move" for a two-team game's result {reason, winners, draw}. */
export function resultHeadline(entry, result, names) {
  const name = (t) => names[t - 1] || `Team ${t}`;
  const winner = result.winners && result.winners.length === 1 ? result.winners[0] : null;
  const loser = winner === null ? null : winner === 1 ? 2 : 1;
  const reason = (entry.endReasons && entry.endReasons[result.reason]) || COMMON_REASONS[result.reason];
  const why = reason ? reason(winner && name(winner), loser && name(loser)) : result.reason;
  if (result.draw || winner === null) return `Draw: ${why}`;
  return `${name(winner)} wins: ${why}`;
}

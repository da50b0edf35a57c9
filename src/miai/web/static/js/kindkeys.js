// Rating kind keys (docs/api.md, Ratings): which ratings exist and their names for people.
import { KINDS } from './games/registry.js';
import { kindTitle } from './gamesummary.js';

const GO = { 'go-9': 'Go 9×9', 'go-13': 'Go 13×13', 'go-19': 'Go 19×19', 'go-multi': 'Go, three or more colours' };

/** The one-on-one keys and go-multi, in the order a chooser lists them; "-teams" keys are found on profiles. */
export const KIND_KEYS = [...Object.keys(GO), ...Object.keys(KINDS)];

/** "Go 9×9", "Hex", "Go 19×19, teams": every key the server can give, an unknown one as itself. */
export function kindKeyTitle(key) {
  const teams = key.endsWith('-teams');
  const base = teams ? key.slice(0, -'-teams'.length) : key;
  const title = GO[base] || kindTitle(base);
  return teams ? `${title}, teams` : title;
}

/** A rating as people read it: "1662", with OGS's rank for Go ("1662 (3k)"). */
export function ratingText(r) {
  return `${Math.round(r.rating)}${r.rank ? ` (${r.rank})` : ''}`;
}

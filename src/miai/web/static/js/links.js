// Addresses of the site's pages that other pages link to (the URL scheme of issue #17).
import { h, link } from './dom.js';

/** A player's page. */
export function profileUrl(name) {
  return `/users/${encodeURIComponent(name)}`;
}

/** A player's name as a link to their page; a guest's name stays plain text (the JSON views say
 * `is_guest`): a guest's page is theirs alone, anyone else would get "No such player". */
export function playerLink(username, text, isGuest) {
  return isGuest ? text : link(profileUrl(username), text);
}

/** The badge after a program's name (the JSON views' `computer` and `is_bot`): "computer" for the server's
 * own computer players, "bot" for a member's bot account (`miai bot`); null for people. */
export function accountTag(p) {
  const computer = p.computer !== null && p.computer !== undefined && p.computer !== false;
  if (computer) return h('span.tag.computer', { title: 'A computer player' }, 'computer');
  return p.is_bot ? h('span.tag.computer.bot', { title: 'An account played by a program' }, 'bot') : null;
}

/** A listed game's player (the finding views: `user`, `name`): their name as a link, then their badge. */
export function listedPlayer(p) {
  const tag = accountTag(p);
  return [playerLink(p.user, p.name, p.is_guest), tag ? [' ', tag] : null];
}

/** The archive filtered on a player's finished games. */
export function playerArchiveUrl(name) {
  return `/archive?player=${encodeURIComponent(name)}`;
}

/** A path part as typed: a malformed escape (`%E0%A4`) stays as it is (and names nothing). */
export function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

// Addresses of the site's pages that other pages link to (the URL scheme of issue #17).
import { link } from './dom.js';

/** A player's page. */
export function profileUrl(name) {
  return `/users/${encodeURIComponent(name)}`;
}

/** A player's name as a link to their page; a guest's name stays plain text (the JSON views say
 * `is_guest`): a guest's page is theirs alone, anyone else would get "No such player". */
export function playerLink(username, text, isGuest) {
  return isGuest ? text : link(profileUrl(username), text);
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

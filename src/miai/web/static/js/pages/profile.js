// A user's page (/users/NAME): ratings with their graphs, record by kind, current and recent games, and for
// a member looking at someone else the handicap OGS would suggest and a challenge prefilled with it.
import { ApiError, get } from '../api.js';
import { clear, h, link } from '../dom.js';
import { gameHeading, gameLine, kindTitle, outcomeTag, resultLine, statusText, thumbRow } from '../gamesummary.js';
import { dateText, plural } from '../format.js';
import { kindKeyTitle, ratingText } from '../kindkeys.js';
import { accountTag, decoded, listedPlayer, playerArchiveUrl, profileUrl } from '../links.js';
import { ratingGraph } from '../ratinggraph.js';
import { session, settings } from '../session.js';

/** The user's opponents (the players of other teams) and partners (their own team's other players) in a
 * listed game, each linked to their own page: "vs ann, ben · with dan". */
function sides(g, username) {
  const name = username.toLowerCase();
  const me = g.players.find((p) => p.user.toLowerCase() === name);
  const others = g.players.filter((p) => p !== me && p.team);
  const partners = me && me.team ? others.filter((p) => p.team === me.team) : [];
  const opponents = others.filter((p) => !partners.includes(p));
  const names = (list) => list.flatMap((p, i) => [i ? ', ' : '', listedPlayer(p)]);
  return [
    opponents.length ? h('span.opponents', 'vs ', names(opponents)) : null,
    partners.length ? [opponents.length ? ' · ' : '', h('span.partners', 'with ', names(partners))] : null,
  ];
}

function gameItem(g, username, tail) {
  return thumbRow('li', { dataset: { game: String(g.id) } }, g, settings().palette,
    gameHeading(g), ' ', sides(g, username), tail ? [' · ', tail] : null,
    h('span.muted.small', ` · ${gameLine(g)}`));
}

/** "[won] White wins by 6.5 points, 27 Nov 2026". */
function recentTail(g) {
  return [outcomeTag(g.outcome), ' ', resultLine(g, settings().palette), g.finished_at ? `, ${dateText(g.finished_at)}` : ''];
}

function ratingCard(r) {
  return h('section.card.rating', { dataset: { kindKey: r.kind_key } },
    h('div.row-head',
      h('h3', link(`/leaderboards/${encodeURIComponent(r.kind_key)}`, kindKeyTitle(r.kind_key))),
      h('span.rating-value', ratingText(r)),
      h('span.muted.small', `± ${Math.round(r.deviation)}`),
      r.provisional ? h('span.tag.provisional', { title: 'Too few games for a settled rating' }, 'provisional') : null,
      h('span.muted.small.games', plural(r.games, 'game')),
    ),
    ratingGraph(r.history || [], kindKeyTitle(r.kind_key)));
}

function recordTable(record) {
  const kinds = Object.keys(record);
  if (!kinds.length) return h('p.muted', 'No finished games yet.');
  return h('div.table-scroll', h('table.scores.record',
    h('thead', h('tr', h('th', 'Game'), h('th', 'Wins'), h('th', 'Losses'), h('th', 'Draws'))),
    h('tbody', kinds.map((kind) => h('tr', { dataset: { kind } }, h('th', kindTitle(kind)),
      h('td', String(record[kind].win)), h('td', String(record[kind].loss)), h('td', String(record[kind].draw)))))));
}

/** The challenge link: the create form prefilled (pages/create.js reads these query parameters); without
 * the handicap advice (not read yet), the challenge alone. */
export function challengeUrl(opponent, advice, me, rated = true) {
  if (!advice) return `/new?${new URLSearchParams({ challenge: opponent })}`;
  const q = new URLSearchParams({ challenge: opponent, size: String(advice.size) });
  if (rated) q.set('rated', 'true'); // not against a bot where the server keeps bots out of people's ratings
  if (advice.komi !== null) { // null: an even game, the preset's komi and colours at random
    q.set('handicap', String(advice.handicap));
    q.set('komi', String(advice.komi));
    q.set('team', advice.black === me ? '1' : '2');
  }
  return `/new?${q}`;
}

function adviceText(advice) {
  if (advice.komi === null) return 'An even game: colours at random, the rules’ komi.';
  if (advice.handicap === 0) return `${advice.black} takes Black with no komi (0.5 to White).`;
  return `${advice.black} takes Black with ${advice.handicap} handicap stones, komi 0.5.`;
}

/** For a member looking at another person or a bot: OGS's handicap for a chosen size, and a challenge with
 * it (rated where `rated` says people's challenges to this account may be). */
function challengeBox(username, rated) {
  const me = session.user.username;
  const sizeSel = h('select#handicap-size', { 'aria-label': 'Board size' },
    [9, 13, 19].map((s) => h('option', { value: String(s) }, `${s}×${s}`)));
  const text = h('p#handicap-advice', { 'aria-live': 'polite' });
  const button = h('a.button.primary#challenge-button', { href: challengeUrl(username, null, me), 'data-link': true }, 'Challenge');
  let asked = 0; // a slower answer for the size chosen before must not overwrite the newer one
  async function load() {
    const mine = ++asked;
    try {
      const q = new URLSearchParams({ opponent: me, size: sizeSel.value });
      const advice = await get(`${profileUrl(username)}/handicap?${q}`);
      if (mine !== asked) return;
      text.textContent = adviceText(advice);
      button.setAttribute('href', challengeUrl(username, advice, me, rated));
    } catch (err) {
      if (mine === asked) text.textContent = err.message;
    }
  }
  sizeSel.addEventListener('change', load);
  load();
  return h('section.card.challenge-box',
    h('h2', `Play ${username}`),
    h('div.row', h('label', { for: 'handicap-size' }, 'Board'), sizeSel, button),
    text,
    h('p.small.muted', 'Suggested from your two ratings as OGS would: one stone a rank on 19×19, three ranks on 13×13, six on 9×9.'));
}

export async function profilePage(main, { name }) {
  const username = decoded(name);
  let profile;
  let ratings;
  try {
    const path = profileUrl(username);
    [profile, ratings] = await Promise.all([get(path), get(`${path}/ratings`).catch(() => ({ ratings: [] }))]);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 422)) { // 422: not a name at all
      clear(main, h('div.card', h('h1', 'No such player'), h('p', `There is no player called “${username}”. `, link('/leaderboards', 'See the leaderboards'), '.')));
      return;
    }
    throw err;
  }
  const who = profile.user.username;
  document.title = `${who} · Miai`;
  const viewer = session.user;
  // Members challenge people and bot accounts alike; the server's computers are played from the home page.
  const other = viewer && !viewer.is_guest && viewer.username.toLowerCase() !== who.toLowerCase() && !profile.computer;
  const badge = accountTag(profile);
  clear(main,
    h('div.card.profile-head',
      h('div.row-head', h('h1#profile-name', profile.name), badge),
      h('p.muted', profile.member_since ? `Member since ${dateText(profile.member_since)}` : null),
      h('p', link(playerArchiveUrl(who), `All finished games of ${who}`), ' · ', link('/leaderboards', 'Leaderboards')),
    ),
    other ? challengeBox(who, profile.rated_challenges) : null,
    h('section#ratings',
      h('h2', 'Ratings'),
      ratings.ratings.length ? ratings.ratings.map(ratingCard) : h('p.muted.card', 'No rated games yet.')),
    h('div.profile-lists',
      h('section.card#record', h('h2', 'Record'), recordTable(profile.record)),
      h('section.card#current-games', h('h2', 'Current games'), profile.current.length
        ? h('ul.plain-list', profile.current.map((g) => gameItem(g, who, statusText(g.status))))
        : h('p.muted', 'None right now.')),
      h('section.card#recent-games', h('h2', 'Recent games'), profile.recent.length
        ? h('ul.plain-list', profile.recent.map((g) => gameItem(g, who, recentTail(g))))
        : h('p.muted', 'None yet.')),
    ),
  );
}

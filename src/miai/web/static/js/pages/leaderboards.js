// Leaderboards (/leaderboards, /leaderboards/KIND_KEY): the best settled ratings of one kind key, ranked.
import { ApiError, get } from '../api.js';
import { clear, h, link } from '../dom.js';
import { KIND_KEYS, kindKeyTitle, ratingText } from '../kindkeys.js';
import { decoded, profileUrl } from '../links.js';

const DEFAULT_KEY = 'go-19';
const PAGE = 50; // the API gives the best 1..100, without a cursor: a second step shows the best 100
const MOST = 100;

function chooser(current) {
  return h('nav.kind-chooser', { 'aria-label': 'Game kinds' },
    KIND_KEYS.map((key) => h('a', { href: `/leaderboards/${key}`, 'data-link': true, 'aria-current': key === current ? 'page' : null }, kindKeyTitle(key))));
}

function table(board) {
  if (!board.players.length) {
    return h('p.muted#leaderboard-empty', 'Nobody has a settled rating here yet: a rating joins the board once it is no longer provisional.');
  }
  const openskill = board.system === 'openskill';
  return h('div.table-scroll', h('table.scores.leaderboard#leaderboard',
    h('thead', h('tr', h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Rating'),
      h('th', { scope: 'col' }, openskill ? 'σ' : 'Deviation'), h('th', { scope: 'col' }, 'Games'))),
    h('tbody', board.players.map((p, i) => h('tr', { dataset: { user: p.user } },
      h('td.rank', String(i + 1)),
      h('th', { scope: 'row' }, link(profileUrl(p.user), p.user)),
      h('td', ratingText(p)),
      h('td', `± ${Math.round(p.deviation)}`, p.provisional ? [' ', h('span.tag.provisional', 'provisional')] : null),
      h('td', String(p.games)))))));
}

/** Without a key in the address: the first key of the chooser that people hold ratings of (GET
 * /leaderboards), not an empty 19×19 board when only 9×9 games were rated; 19×19 when nobody is rated. */
async function firstRatedKey() {
  try {
    const held = new Set((await get('/leaderboards')).kind_keys.filter((k) => k.players > 0).map((k) => k.kind_key));
    return KIND_KEYS.find((k) => held.has(k)) || DEFAULT_KEY;
  } catch {
    return DEFAULT_KEY;
  }
}

export async function leaderboardsPage(main, { key }) {
  const kindKey = key ? decoded(key) : await firstRatedKey();
  const body = h('div#leaderboard-body', { 'aria-live': 'polite' });
  clear(main, h('div.card.leaderboards',
    h('h1', `Leaderboard: ${kindKeyTitle(kindKey)}`),
    chooser(kindKey),
    body));

  async function load(limit) {
    let board;
    try {
      board = await get(`/leaderboards/${encodeURIComponent(kindKey)}?limit=${limit}`);
    } catch (err) {
      const text = err instanceof ApiError && (err.status === 404 || err.status === 422) ? `There is no leaderboard “${kindKey}”.` : err.message;
      clear(body, h('p.error', text));
      return;
    }
    const more = limit < MOST && board.players.length === limit
      ? h('button.secondary#leaderboard-more', { type: 'button', onclick: () => load(MOST) }, `Show the best ${MOST}`)
      : null;
    const how = board.system === 'openskill'
      ? 'Ranked by rating − 3σ (OpenSkill); provisional ratings are left out.'
      : 'Glicko-2 ratings; provisional ones (deviation 110 or more) are left out.';
    clear(body, table(board), h('p.small.muted', how, ' Computer players are not listed.'), more);
  }
  await load(PAGE);
}

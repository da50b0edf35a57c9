// The watch page: public games in progress (GET /api/v1/games/live), narrowed by kind, size, colours and rated
// (kept in the address, so a filtered list can be shared), each with its board in small and its spectators.
import { get } from '../api.js';
import { clear, h } from '../dom.js';
import { COLOUR_CHOICES, KIND_CHOICES, RATED_CHOICES } from '../gamesummary.js';
import { followLiveCards, liveGameCard, onLiveGames } from '../livecards.js';
import { settings } from '../session.js';

const FILTERS = {
  kind: KIND_CHOICES,
  size: [['', 'any'], ...[7, 9, 10, 11, 13, 19].map((n) => [String(n), `${n}×${n}`])],
  colours: COLOUR_CHOICES,
  rated: RATED_CHOICES,
};
const LABELS = { kind: 'Game', size: 'Board size', colours: 'Colours', rated: 'Rated' };
const PAGE = 20;

/** The filters of the address, each kept only when it is one of the choices. */
function filtersOf(query) {
  const out = {};
  for (const [name, choices] of Object.entries(FILTERS)) {
    const value = query.get(name) || '';
    out[name] = choices.some(([v]) => v === value) ? value : '';
  }
  return out;
}

function queryOf(filters) {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) q.set(name, value);
  return q;
}

export async function watchPage(main, params, query) {
  const filters = filtersOf(query);
  const list = h('ul.live-list#live-games', { 'aria-live': 'polite' });
  const status = h('p.muted#live-status');
  const more = h('button.secondary#live-more', { type: 'button', hidden: true }, 'More games');
  const form = h('form.card.watch-filters#watch-filters',
    Object.entries(FILTERS).map(([name, choices]) => h('div.field',
      h('label', { for: `watch-${name}` }, LABELS[name]),
      h(`select#watch-${name}`, { name }, choices.map(([v, text]) => h('option', { value: v, selected: v === filters[name] }, text))))));
  clear(main, h('div.page-head', h('h1', 'Games in progress')), form, status, list, more);
  let cursor = null;
  let shown = []; // the listed games, for the live socket's boards
  let appended = false; // the user asked for more: no reload under their eyes

  async function load(append = false) {
    if (!append && appended) return; // a ping or the poll would drop the pages the user asked for
    const q = queryOf(filters);
    q.set('limit', String(PAGE));
    if (append && cursor) q.set('cursor', cursor);
    if (append) appended = true;
    let data;
    try {
      data = await get(`/games/live?${q}`);
    } catch (err) {
      status.textContent = err.message;
      status.className = 'error';
      return;
    }
    status.className = 'muted';
    cursor = data.next;
    more.hidden = !cursor;
    const cards = data.games.map((g) => liveGameCard(g, settings().palette));
    shown = append ? [...shown, ...data.games] : data.games;
    if (append) list.append(...cards);
    else clear(list, cards);
    status.textContent = list.children.length ? '' : 'No game in progress matches these filters.';
  }

  form.addEventListener('change', (event) => {
    filters[event.target.name] = event.target.value;
    const q = queryOf(filters).toString();
    history.replaceState(null, '', `/watch${q ? `?${q}` : ''}`);
    appended = false;
    load();
  });
  more.addEventListener('click', () => load(true));
  await load();
  let timer = null;
  // The live socket: each move's board in place; a game started or finished (a lobby nudge) reloads the list.
  const onList = (m) => {
    if (m.t !== 'lobby' && m.t !== 'resync') return;
    clearTimeout(timer);
    timer = setTimeout(() => load(), 150);
  };
  const stopCards = followLiveCards(list, () => shown, () => settings().palette);
  const stopList = onLiveGames(onList);
  return () => {
    stopCards();
    stopList();
    clearTimeout(timer);
  };
}

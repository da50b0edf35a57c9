// The archive: finished games of every user, narrowed by a small form whose fields are the page's URL query
// (shareable; the back button brings earlier filters back) and map one to one onto GET /games/archive.
import { get } from '../api.js';
import { clear, h, link, navigate } from '../dom.js';
import { dateTimeText } from '../format.js';
import {
  COLOUR_CHOICES, KIND_CHOICES, RATED_CHOICES, gameHeading, gameLine, outcomeTag, playersLine, resultLine, thumbRow,
} from '../gamesummary.js';
import { playerArchiveUrl } from '../links.js';
import { session, settings } from '../session.js';
import { uploadForm } from '../uploaded.js';

// [URL query name, API query name]: `player` reads better in a shared link; the API calls it `user`.
const PARAMS = [
  ['player', 'user'], ['opponent', 'opponent'], ['kind', 'kind'], ['size', 'size'], ['colours', 'colours'],
  ['rated', 'rated'], ['result', 'result'], ['since', 'since'], ['until', 'until'],
];
const PAGE = '20'; // games a page; `limit` in the URL (1..100, as the API's) changes it
const RESULT_CHOICES = [
  ['', 'any'], ['win', 'the player won'], ['loss', 'the player lost'], ['draw', 'a draw'],
  ['resign', 'by resignation'], ['time', 'on time'], ['score', 'by counting'],
];

/** The filters in the page's URL: {urlName: value}; `user` is read as `player` too (the API's own name). */
function filtersOf(query) {
  const out = {};
  for (const [name, apiName] of [...PARAMS, ['limit', 'limit']]) {
    const value = query.get(name) ?? (name === 'player' ? query.get(apiName) : null);
    if (value !== null && value.trim() !== '') out[name] = value.trim();
  }
  return out;
}

function apiQuery(filters, cursor) {
  const q = new URLSearchParams();
  for (const [name, apiName] of PARAMS) if (filters[name] !== undefined) q.set(apiName, filters[name]);
  q.set('limit', filters.limit ?? PAGE);
  if (cursor) q.set('cursor', cursor);
  return q.toString();
}

export function archiveUrl(filters) {
  const q = new URLSearchParams();
  for (const [name] of [...PARAMS, ['limit']]) if (filters[name]) q.set(name, filters[name]);
  const text = q.toString();
  return text ? `/archive?${text}` : '/archive';
}

function field(label, input) {
  return h('div.field', h('label', { for: input.id }, label), input);
}

function choice(id, choices, value) {
  return h(`select#${id}`, { name: id },
    choices.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value ?? '') }, text)));
}

function input(id, type, value, attrs = {}) {
  return h(`input#${id}`, { name: id, type, value: value ?? '', ...attrs });
}

const PLAYERS_OWN = new Set(['win', 'loss', 'draw']); // a player's outcome: the API needs the player

function filterForm(filters, status) {
  const f = filters;
  const form = h('form.card.archive-filters#archive-filters', { 'aria-label': 'Filter the archive' },
    h('div.archive-fields',
      field('Player', input('archive-player', 'text', f.player, { maxlength: '64', autocomplete: 'off' })),
      field('Opponent', input('archive-opponent', 'text', f.opponent, { maxlength: '64', autocomplete: 'off' })),
      field('Game', choice('archive-kind', KIND_CHOICES, f.kind)),
      field('Board size', input('archive-size', 'number', f.size, { min: '1', max: '52' })),
      field('Colours', choice('archive-colours', COLOUR_CHOICES, f.colours)),
      field('Rated', choice('archive-rated', RATED_CHOICES, f.rated)),
      field('Result', choice('archive-result', RESULT_CHOICES, f.result)),
      field('Finished from', input('archive-since', 'date', f.since)),
      field('Finished before', input('archive-until', 'date', f.until)),
    ),
    h('div.row',
      h('button.primary#archive-apply', { type: 'submit' }, 'Show games'),
      link('/archive', 'Clear filters'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = { limit: filters.limit };
    for (const [name] of PARAMS) chosen[name] = form.querySelector(`#archive-${name}`).value.trim();
    if (PLAYERS_OWN.has(chosen.result) && !chosen.player) {
      clear(status, h('p.error', 'Won, lost and drawn games are a player\'s: choose the player too.'));
      form.querySelector('#archive-player').focus();
      return;
    }
    navigate(archiveUrl(chosen));
  });
  return form;
}

function when(iso) {
  return iso ? h('time.muted.small', { datetime: iso }, dateTimeText(iso)) : null;
}

function gameRow(game) {
  const palette = settings().palette;
  return thumbRow('li.card.archive-row', { dataset: { game: String(game.id), kind: game.kind, size: String(game.size ?? '') } }, game, palette,
    h('div.row-head',
      gameHeading(game),
      outcomeTag(game.outcome),
      when(game.finished_at),
    ),
    h('p.archive-players', playersLine(game, palette)),
    h('p.muted.small.archive-kind', gameLine(game)),
    h('p.archive-result', resultLine(game, palette)),
    h('p.row.small.archive-links',
      h('a.replay', { href: `/games/${game.id}?move=0`, 'data-link': true, 'aria-label': `Replay game ${game.id} from the start` }, 'Replay'),
      h('a.sgf', { href: game.sgf, download: `game-${game.id}.sgf`, 'aria-label': `SGF of game ${game.id}` }, 'SGF'),
    ),
  );
}

export async function archivePage(main, params, query) {
  const filters = filtersOf(query);
  const list = h('ol.game-list.archive-list#archive-games', { 'aria-label': 'Finished games' });
  const status = h('div#archive-status', { 'aria-live': 'polite' });
  const more = h('button.secondary#archive-more', { type: 'button', hidden: true }, 'More');
  const me = session.user ? session.user.username : null;
  clear(main,
    h('div.page-head',
      h('h1', 'Archive'),
      me ? h('a.button.secondary#archive-mine', { href: playerArchiveUrl(me), 'data-link': true,
        'aria-current': filters.player === me ? 'page' : null }, 'My games') : null,
    ),
    filterForm(filters, status),
    me && !session.user.is_guest ? h('details.upload#upload', h('summary', 'Upload SGF'), uploadForm()) : null,
    status,
    list,
    h('div.row.archive-more', more),
  );

  let cursor = null;
  let alive = true;
  async function load() {
    more.disabled = true;
    let data;
    try {
      data = await get(`/games/archive?${apiQuery(filters, cursor)}`);
    } catch (err) {
      if (alive) clear(status, h('p.error', err.message));
      more.disabled = false;
      return;
    }
    if (!alive) return;
    list.append(...data.games.map(gameRow));
    cursor = data.next;
    more.hidden = !cursor;
    more.disabled = false;
    clear(status, list.children.length ? null : h('p.muted', 'No finished games match these filters.'));
  }
  more.addEventListener('click', load);
  await load();
  return () => {
    alive = false;
  };
}

// The home page's pulse: the quick-start tiles (the computer at 9×9, 13×13 or 19×19 in one click, creating a
// game, joining one) and the live board of the most watched public game in progress (the newest when nobody
// watches), followed move by move over the public live socket.
import { get, post } from './api.js';
import { clear, h, link, navigate, toast, whileBusy } from './dom.js';
import { gameHeading, gameLine, movesText, playersLine } from './gamesummary.js';
import { onLiveGames, watchingText } from './livecards.js';
import { becomeGuest } from './session.js';
import { boardThumbnail } from './thumbnail.js';

const CANDIDATES = 20; // the live list's first games, of which the most watched is shown
const QUICK_SIZES = [9, 13, 19];

/** Start a Go game against the computer (level 1, Black, no handicap) as the practice form does. */
async function playComputer(size, button) {
  await whileBusy(button, async () => {
    try {
      const created = await post('/practice', { size, mode: 'computer', colour: 'black', level: 1, handicap: 0 });
      if (created.guest) becomeGuest(created.guest, created.csrf_token); // the first game made a guest session
      navigate(`/games/${created.id}`);
    } catch (err) {
      toast(err.message, 'error');
    }
  });
}

/** The tiles: one click each. `member`: whether creating and joining games is open to the viewer. */
export function quickTiles(member) {
  const tile = (spec, attrs, title, text) => h(spec, attrs, h('strong.tile-title', title), h('span.muted.small', text));
  return h('section.home-tiles#home-tiles', { 'aria-label': 'Quick start' },
    QUICK_SIZES.map((size) => {
      const button = tile('button.tile.quick-computer', { type: 'button', dataset: { size: String(size) },
        'aria-label': `Play the computer on ${size}×${size}` }, `${size}×${size}`, 'vs the computer');
      button.addEventListener('click', () => playComputer(size, button));
      return button;
    }),
    tile('a.tile#tile-create', { href: member ? '/new' : '/register', 'data-link': true },
      'Create a game', member ? 'choose every option' : 'register to play people'),
    tile('a.tile#tile-join', { href: '/lobby', 'data-link': true }, 'Join a game', 'open games in the lobby'),
  );
}

/** The live list's most watched game, the newest of those equally watched (the list is newest first). */
export function mostWatched(games) {
  let best = null;
  for (const g of games) {
    if (!best || (g.spectators || 0) > (best.spectators || 0)) best = g;
  }
  return best;
}

/** The featured board: its element, load() (again after a lobby nudge) and start(), which follows it over the
 * live socket and returns the function that stops. */
export function featuredGame(paletteName) {
  const box = h('section.card.home-featured#home-featured', { 'aria-live': 'polite' });
  let shown = null;

  function render() {
    if (!shown) {
      clear(box, h('h2', 'Live now'),
        h('p.muted.featured-empty', 'No public game is in progress right now. ', link('/new', 'Start one'), '.'));
      return;
    }
    const g = shown;
    const label = `Game ${g.id}: the board after ${movesText(g.moves)}`;
    clear(box,
      h('div.row-head', h('h2', 'Live now'),
        typeof g.spectators === 'number' ? h('span.muted.small.spectators', watchingText(g.spectators)) : null),
      g.preview ? h('a.featured-board', { href: g.url, 'data-link': true, 'aria-label': `Watch game ${g.id}` },
        boardThumbnail(g.preview, g.kind, paletteName(), label)) : null,
      h('p.featured-name', gameHeading(g)),
      h('p.small', playersLine(g, paletteName())),
      h('p.muted.small.featured-line', gameLine(g)));
  }

  async function load() {
    try {
      const { games } = await get(`/games/live?limit=${CANDIDATES}`);
      shown = mostWatched(games);
      render();
    } catch (err) {
      clear(box, h('h2', 'Live now'), h('p.error', err.message));
    }
  }

  function start() {
    let timer = null;
    const stop = onLiveGames((m) => {
      if (m.t === 'live' && shown && m.d.game_id === shown.id) {
        if (m.d.moves < shown.moves) return; // an older board than the one shown
        shown.moves = m.d.moves;
        shown.preview = m.d.preview;
        render();
      } else if (m.t === 'lobby' || m.t === 'resync') { // a game started or ended: which to show may change
        clearTimeout(timer);
        timer = setTimeout(load, 1000);
      }
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }

  return { box, start, load };
}

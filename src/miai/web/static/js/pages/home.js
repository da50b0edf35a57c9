// The home page: what Miai is, quick-start tiles and the most watched live game's board (homepulse.js), the
// game against the computer, open games to join (members), live games to watch, your games and recent
// results (each with its board in small); kept live by the lobby pings of /api/v1/ws as the lobby is,
// and the live cards by the public live socket (/api/v1/live/ws), move by move.
import { get } from '../api.js';
import { clear, h, link } from '../dom.js';
import { gameHeading, gameLine, kindTitle, playersLine, resultLine, statusText, thumbRow } from '../gamesummary.js';
import { featuredGame, quickTiles } from '../homepulse.js';
import { followLiveCards, liveGameCard, onLiveGames } from '../livecards.js';
import { session, settings } from '../session.js';
import { userEvents } from '../userfeed.js';
import { practiceChoices, practiceForm } from './create.js';
import { joinGame, openGameRow } from './lobby.js';

const SHOWN = 6; // games per list; each list links to its full page

function section(id, title, more, body) {
  return h(`section.card.home-section#${id}`,
    h('div.row-head', h('h2', title), more),
    body);
}

function finishedRow(g, paletteName) {
  return thumbRow('li.finished-row', { dataset: { game: String(g.id) } }, g, paletteName,
    h('div', gameHeading(g)), h('div.result-words', resultLine(g, paletteName)),
    h('div.small', playersLine(g, paletteName)), h('div.muted.small', gameLine(g)));
}

function yourGameRow(g, paletteName) {
  return thumbRow('li.your-row', { dataset: { game: String(g.id), yourTurn: String(g.your_turn) } }, g, paletteName,
    gameHeading(g), ' ',
    g.your_turn ? h('span.tag.move', 'your turn') : h('span.tag', statusText(g.status)),
    h('span.muted.small', ` ${kindTitle(g.kind)} · ${g.options.size}×${g.options.size}`));
}

export async function homePage(main) {
  const user = session.user;
  const member = Boolean(user && !user.is_guest);
  const play = h('div#home-play', practiceForm(await practiceChoices(), { computerOnly: true }));
  const open = h('div#home-open', { 'aria-live': 'polite' });
  const live = h('div#home-live', { 'aria-live': 'polite' });
  const mine = h('div#home-mine', { 'aria-live': 'polite' });
  const recent = h('div#home-recent');
  const palette = () => settings().palette;
  const featured = featuredGame(palette);
  clear(main,
    h('section.home-intro',
      h('h1', 'Miai'),
      h('p.lead', 'Go for two to eight colours, plus Amazons, Hex and Tanbo, in the browser.'),
      h('p.muted', member
        ? ['Join an open game, watch one in progress, or ', link('/new', 'create your own'), '.']
        : ['Play the computer now without an account; ', link('/register', 'register'), ' to play people and get a rating.'])),
    h('div.home-pulse', quickTiles(member), featured.box),
    h('div.home-grid',
      play,
      user ? section('home-mine-card', 'Your games', link('/dashboard', 'Dashboard'), mine) : null,
      member ? section('home-open-card', 'Open games', link('/lobby', 'All open games'), open) : null,
      section('home-live-card', 'Live games', link('/watch', 'Watch more'), live),
      section('home-recent-card', 'Recent results', link('/archive', 'Archive'), recent),
    ));

  let dash = null; // the last /dashboard read: "your games", and which open games you joined
  function readDashboard() {
    dash = user ? get('/dashboard') : null;
    if (dash) dash.catch(() => {}); // each section shows the error itself
  }

  /** The games you joined (the lobby list does not say); none when the dashboard cannot be read, whose
   * error "Your games" shows: the open games are still worth listing. */
  async function joinedIds() {
    try {
      return new Set((await dash).games.map((g) => g.id));
    } catch {
      return new Set();
    }
  }

  async function loadOpen() {
    if (!member) return;
    try {
      const games = await get('/games');
      const joined = await joinedIds();
      const rows = games.games.slice(0, SHOWN);
      clear(open, rows.length
        ? h('ul.game-list', rows.map((g) => openGameRow(g, joined.has(g.id), palette(), (id, team, button) => joinGame(id, team, loadOpen, button))))
        : h('p.muted', 'No open games right now. ', link('/new', 'Create one'), '.'));
    } catch (err) {
      clear(open, h('p.error', err.message));
    }
  }

  let liveShown = []; // the live cards' games, for the live socket's boards
  async function loadLive() {
    try {
      const { games } = await get(`/games/live?limit=${SHOWN}`);
      liveShown = games;
      clear(live, games.length
        ? h('ul.live-list', games.map((g) => liveGameCard(g, palette())))
        : h('p.muted', 'No public game is in progress right now.'));
    } catch (err) {
      clear(live, h('p.error', err.message));
    }
  }

  async function loadMine() {
    if (!user) return;
    try {
      const { games } = await dash;
      clear(mine, games.length
        ? h('ul.your-list', games.slice(0, SHOWN).map((g) => yourGameRow(g, palette())))
        : h('p.muted', 'You are not in any unfinished game.'));
    } catch (err) {
      clear(mine, h('p.error', err.message));
    }
  }

  async function loadRecent() {
    try {
      const { games } = await get(`/games/archive?limit=${SHOWN}`);
      clear(recent, games.length
        ? h('ul.finished-list', games.map((g) => finishedRow(g, palette())))
        : h('p.muted', 'No finished games yet.'));
    } catch (err) {
      clear(recent, h('p.error', err.message));
    }
  }

  function loadAll() {
    readDashboard(); // one read for "your games" and who joined what
    return Promise.all([loadOpen(), loadLive(), loadMine(), loadRecent(), featured.load()]);
  }
  await loadAll();

  // A dashboard ping is about your games, a lobby ping about open, live and (a game just finished) recent
  // ones: each reloads its own lists, a burst of pings once.
  const pending = new Set();
  let timer = null;
  function reloadPending() {
    const kinds = new Set(pending);
    pending.clear();
    if (kinds.has('resync')) return loadAll();
    const jobs = [];
    if (kinds.has('dashboard')) {
      readDashboard();
      jobs.push(loadMine());
    }
    if (kinds.has('lobby')) jobs.push(loadOpen(), loadLive(), loadRecent());
    return Promise.all(jobs);
  }
  const ping = (m) => {
    if (!['lobby', 'dashboard', 'resync'].includes(m.t)) return;
    pending.add(m.t);
    clearTimeout(timer);
    timer = setTimeout(reloadPending, 1000);
  };
  const unsubscribe = userEvents.subscribe(ping);
  // The public live socket, for visitors too: each move's board on the live cards, in place; its lobby
  // nudges reach those who have no user socket (a member hears them there already).
  const stopCards = followLiveCards(live, () => liveShown, palette);
  const stopFeatured = featured.start(); // the featured board, move by move; another game when one ends
  const stopPings = onLiveGames((m) => {
    if (!user || m.t === 'resync') ping(m);
  });
  return () => {
    unsubscribe();
    stopCards();
    stopFeatured();
    stopPings();
    clearTimeout(timer);
  };
}

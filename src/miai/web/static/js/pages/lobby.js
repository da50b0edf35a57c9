// The lobby: open games with their options and free seats, kept live by the lobby pings of /api/v1/ws.
import { get, post } from '../api.js';
import { clear, h, link, navigate, toast, whileBusy } from '../dom.js';
import { clockText, optionsSummary, plural } from '../format.js';
import { kindOf } from '../games/registry.js';
import { gameHeading } from '../gamesummary.js';
import { swatch, teamStyle } from '../palette.js';
import { session, settings } from '../session.js';
import { userEvents } from '../userfeed.js';

/** Join a game (on a team, or any: null) and open it; on a refusal, say why and call `reload`. */
export async function joinGame(id, team, reload, button = null) {
  await whileBusy(button, async () => {
    try {
      await post(`/games/${id}/join`, { team });
      toast(`You joined game ${id}.`);
      navigate(`/games/${id}`);
    } catch (err) {
      toast(err.message, 'error');
      reload();
    }
  });
}

/** One open game: options, time, seats per team, and the join (or accept) buttons that apply to the viewer. */
export function openGameRow(g, joined, palette, join) {
  const o = g.options;
  // A challenge: only the challenged player may join (anyone else would be refused), and they accept it.
  const forMe = Boolean(g.challenge_to && session.user && g.challenge_to === session.user.id);
  const open = session.user && !session.user.is_guest && !joined && !g.challenge_to; // guests: practice only
  const entry = kindOf(g.kind);
  const teams = g.teams.map((taken, i) => {
    const t = i + 1;
    const full = taken >= o.players_per_team;
    const colour = teamStyle(palette, t).name; // black, white, red…
    const name = entry ? entry.names[i] : colour[0].toUpperCase() + colour.slice(1);
    return h('li', swatch(entry ? entry.palette(palette) : palette, t, 14), ` ${name}: ${taken}/${o.players_per_team} `,
      open && !full
        ? h('button.secondary.small', { type: 'button', dataset: { game: String(g.id), team: String(t) }, 'aria-label': `Join ${name}`, onclick: (e) => join(g.id, t, e.currentTarget) }, 'Join')
        : null);
  });
  return h('li.card.game-row', { dataset: { game: String(g.id) } },
    h('div.row-head', h('span.game-title', gameHeading({ id: g.id, players: g.seated || [] })), h('span.seats', `${plural(g.free, 'free seat')} of ${g.seats}`)),
    h('p.muted.small', optionsSummary(o, g.kind, false)),
    h('p.small.time-control', h('span.muted', 'Time: '), clockText(o)),
    g.challenge_to ? h('p.challenge-for', forMe ? h('strong', 'A challenge for you') : `Challenge for ${g.challenge_to_name}`) : null,
    h('ul.team-seats', teams),
    joined ? h('p.small', h('span.tag.move', 'you are in this game'), ' ', link(`/games/${g.id}`, 'Open')) : null,
    open ? h('button.primary.small', { type: 'button', onclick: () => join(g.id, null) }, 'Join any team') : null,
    forMe && !joined ? h('button.primary.small.accept', { type: 'button', onclick: () => join(g.id, null) }, 'Accept') : null,
  );
}

export async function lobbyPage(main) {
  const list = h('div#open-games', { 'aria-live': 'polite' });
  clear(
    main,
    h('div.page-head',
      h('h1', 'Open games'),
      session.user ? h('a.button.primary#create-link', { href: '/new', 'data-link': true }, 'Create a game') : h('p', link('/login', 'Log in'), ' or ', link('/register', 'register'), ' to play, or ', link('/new', 'play the computer'), ' as a guest.'),
    ),
    list,
  );

  const join = (id, team, button) => joinGame(id, team, load, button);

  async function load() {
    let games;
    let mine = new Set();
    try {
      games = (await get('/games')).games;
      if (session.user) mine = new Set((await get('/dashboard')).games.map((g) => g.id)); // the lobby does not say
    } catch (err) {
      clear(list, h('p.error', err.message));
      return;
    }
    const palette = settings().palette;
    if (!games.length) {
      clear(list, h('p.muted', 'No open games right now. Create one!'));
      return;
    }
    clear(
      list,
      h('ul.game-list', games.map((g) => openGameRow(g, mine.has(g.id), palette, join))),
    );
  }

  await load();
  let timer = null;
  const unsubscribe = userEvents.subscribe((m) => {
    if (m.t !== 'lobby' && m.t !== 'resync') return;
    clearTimeout(timer);
    timer = setTimeout(load, 150); // several pings in a row: one reload
  });
  const poll = session.user ? null : setInterval(load, 15000); // no user socket without a login
  return () => {
    unsubscribe();
    clearTimeout(timer);
    clearInterval(poll);
  };
}

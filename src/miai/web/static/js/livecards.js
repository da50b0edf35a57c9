// A game in progress as the home and watch pages list it: its board in small, who plays, how many watch.
import { h } from './dom.js';
import { gameHeading, gameLine, movesText, playersLine } from './gamesummary.js';
import { LiveSocket, socketUrl } from './live.js';
import { boardThumbnail } from './thumbnail.js';

export function watchingText(n) {
  return n === 1 ? '1 watching' : `${n} watching`;
}

/** One live game: thumbnail (a link into the game), players, options, spectators. */
export function liveGameCard(g, paletteName) {
  const label = `Game ${g.id}: the board after ${movesText(g.moves)}`;
  return h('li.card.live-row', { dataset: { game: String(g.id) } },
    g.preview ? h('a.thumb-link', { href: g.url, 'data-link': true, tabindex: '-1', 'aria-hidden': 'true' },
      boardThumbnail(g.preview, g.kind, paletteName, label)) : null,
    h('div.live-text',
      h('div.row-head', gameHeading(g),
        typeof g.spectators === 'number' ? h('span.muted.small.spectators', watchingText(g.spectators)) : null),
      h('p.small', playersLine(g, paletteName)),
      h('p.muted.small', gameLine(g)),
      h('a.button.secondary.small.watch-link', { href: g.url, 'data-link': true, 'aria-label': `Watch game ${g.id}` }, 'Watch'),
    ),
  );
}

const listeners = new Set();
let socket = null;

/**
 * The public live socket (/api/v1/live/ws, docs/realtime.md), for anyone, logged in or not: `fn(message)`
 * for each `live` board, `lobby` nudge and `resync` (after a reconnect). Open while somebody listens.
 */
export function onLiveGames(fn) {
  listeners.add(fn);
  if (!socket) {
    socket = new LiveSocket('live', {
      url: () => socketUrl('/live/ws'),
      onMessage: (m) => {
        for (const listener of listeners) listener(m);
      },
      onOpen: (reconnected) => {
        if (reconnected) for (const listener of listeners) listener({ t: 'resync', d: {} });
      },
    }).start();
  }
  return () => {
    listeners.delete(fn);
    if (!listeners.size && socket) {
      socket.stop();
      socket = null;
    }
  };
}

/**
 * Keep the live cards drawn in `list` (from `games`, the listed games) up to date: a `live` message redraws
 * its game's card with the new board and move count, in place. Returns the function that stops it.
 */
export function followLiveCards(list, games, paletteName) {
  return onLiveGames((m) => {
    if (m.t !== 'live') return;
    const g = games().find((x) => x.id === m.d.game_id);
    const card = g && list.querySelector(`li.live-row[data-game="${g.id}"]`);
    if (!card || m.d.moves < g.moves) return; // not listed here, or an older board than the one shown
    g.moves = m.d.moves;
    g.preview = m.d.preview;
    card.replaceWith(liveGameCard(g, paletteName()));
  });
}

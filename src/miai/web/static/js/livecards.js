// A game in progress as the home and watch pages list it: its board in small, who plays, how many watch.
import { h } from './dom.js';
import { gameHeading, gameLine, movesText, playersLine } from './gamesummary.js';
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

// The dashboard: my unfinished games, "your turn" first and then by time left; challenges to accept or decline.
import { get, post } from '../api.js';
import { ServerClock } from '../clocks.js';
import { clear, confirmDialog, h, link, navigate, toast } from '../dom.js';
import { clockText, countdown, optionsSummary, removalReason, secondsUntil } from '../format.js';
import { kindOf } from '../games/registry.js';
import { gameHeading, teamLabel, thumbRow } from '../gamesummary.js';
import { profileUrl } from '../links.js';
import { swatch } from '../palette.js';
import { session, settings } from '../session.js';
import { userEvents } from '../userfeed.js';

const STATUS = { waiting: 'waiting for players', confirming: 'waiting for confirmations', active: 'in play' };

export async function dashboardPage(main) {
  if (!session.user) {
    clear(main, h('div.card', h('h1', 'Dashboard'), h('p', link('/login?next=/dashboard', 'Log in'), ' to see your games.')));
    return;
  }
  const gamesBox = h('div#my-games', { 'aria-live': 'polite' });
  const challengesBox = h('div#challenges');
  const removalsBox = h('div#removals', { 'aria-live': 'polite' });
  clear(main, h('h1', 'Your games'), removalsBox, challengesBox, gamesBox);
  let rows = [];
  const clock = new ServerClock(); // deadlines count down on the server's time

  function renderGames() {
    const palette = settings().palette;
    if (!rows.length) {
      clear(gamesBox, session.user && session.user.is_guest // a guest plays the computer: the lobby is members'
        ? h('p.muted#guest-next', 'You are not in any unfinished game. ', link('/new', 'Play the computer'),
          ' again, or ', link('/register', 'register'), ' to play people and get a rating.')
        : h('p.muted', 'You are not in any unfinished game. ', link('/lobby', 'Find one in the lobby'), '.'));
      return;
    }
    clear(gamesBox, h('ol.game-list.dashboard', rows.map((g) => {
      const left = secondsUntil(g.deadline, clock.now());
      const tm = g.to_move || {};
      return thumbRow('li.card.game-row', { dataset: { game: String(g.id), yourTurn: String(g.your_turn) }, class: `card game-row thumb-row${g.your_turn ? ' your-turn' : ''}` }, g, palette,
        h('div.row-head',
          gameHeading(g),
          g.your_turn ? h('span.tag.move', 'your turn') : h('span.tag', g.status === 'active' ? `${teamLabel(g.kind, palette, tm.team)} to move` : STATUS[g.status] || g.status),
          tm.team ? swatch(kindOf(g.kind) ? kindOf(g.kind).palette(palette) : palette, tm.team, 14) : null,
          left !== null ? h('span.deadline', { dataset: { deadline: g.deadline } }, countdown(left)) : null,
        ),
        h('p.muted.small', optionsSummary(g.options, g.kind, false)),
        h('p.small.time-control', h('span.muted', 'Time: '), clockText(g.options)),
      );
    })));
  }

  // Games the server took this player out of (not confirmed in time): said, not a silent disappearance.
  function renderRemovals(list) {
    clear(removalsBox, list.length
      ? h('ul.removals', list.map((r) => h('li.card.removal', { dataset: { game: String(r.game_id) } },
        h('p', 'You were removed from ', link(`/games/${r.game_id}`, `game ${r.game_id}`), `: ${removalReason(r)}.`))))
      : null);
  }

  function renderChallenges(list) {
    if (!list.length) {
      clear(challengesBox);
      return;
    }
    const items = list.map((c) => h('li.card.challenge', { dataset: { game: String(c.id) } },
      // (no name: the challenger's account is gone)
      h('p', h('strong', c.from_username ? link(profileUrl(c.from_username), c.from_username) : `player #${c.from}`),
        ' challenges you: ', optionsSummary(c.options, c.kind)),
      h('div.row',
        h('button.primary.small', { type: 'button', onclick: () => accept(c) }, 'Accept'),
        h('button.secondary.small', { type: 'button', onclick: () => decline(c) }, 'Decline'),
        link(`/games/${c.id}`, 'Look at the game'),
      ),
    ));
    clear(challengesBox, h('h2', 'Challenges'), h('ul.challenges', items));
  }

  async function accept(c) {
    try {
      await post(`/games/${c.id}/join`, { team: null });
      navigate(`/games/${c.id}`);
    } catch (err) {
      toast(err.message, 'error');
      load();
    }
  }

  async function decline(c) {
    if (!(await confirmDialog('Decline the challenge?', `Game ${c.id} will be cancelled.`, 'Decline'))) return;
    try {
      await post(`/games/${c.id}/decline`, {});
      toast('Challenge declined.');
    } catch (err) {
      toast(err.message, 'error');
    }
    load();
  }

  async function load() {
    try {
      const sent = performance.now();
      const data = await get('/dashboard');
      clock.sample(data.now, sent, performance.now());
      rows = data.games;
      renderGames();
      renderRemovals(data.removals || []);
      renderChallenges(data.challenges);
    } catch (err) {
      clear(gamesBox, h('p.error', err.message));
    }
  }

  await load();
  let timer = null;
  const unsubscribe = userEvents.subscribe((m) => {
    if (!['dashboard', 'challenge', 'lobby', 'resync'].includes(m.t)) return;
    clearTimeout(timer);
    timer = setTimeout(load, 100);
  });
  const ticker = setInterval(() => {
    for (const el of gamesBox.querySelectorAll('[data-deadline]')) el.textContent = countdown(secondsUntil(el.dataset.deadline, clock.now()));
  }, 1000);
  return () => {
    unsubscribe();
    clearTimeout(timer);
    clearInterval(ticker);
  };
}

// The notifications page (/notifications): a member's notifications newest first, each a link to its game,
// with "mark all read"; a new one arrives live at the top (older pages already shown stay). Opening one marks it
// read.
import { get, post } from '../api.js';
import { clear, h, link, navigate, toast } from '../dom.js';
import { refreshBell } from '../bell.js';
import { dateTimeText } from '../format.js';
import { session } from '../session.js';
import { userEvents } from '../userfeed.js';

const PAGE = 30;

export async function notificationsPage(main) {
  if (!session.user || session.user.is_guest) {
    clear(main, h('div.card', h('h1', 'Notifications'),
      h('p', 'Notifications are for members. ', link('/register', 'Register'), ' to get them.')));
    return null;
  }
  const list = h('ul.notification-list#notification-list', { 'aria-live': 'polite' });
  const status = h('p.muted#notification-status');
  const readAll = h('button.secondary#notifications-read-all', { type: 'button' }, 'Mark all read');
  const more = h('button.secondary#notifications-more', { type: 'button', hidden: true }, 'Older');
  clear(main, h('div.page-head', h('h1', 'Notifications'), readAll), status, list, more);
  let next = null;
  let shown = [];

  function item(n) {
    const open = async (event) => {
      event.preventDefault();
      if (!n.read) {
        try {
          await post('/me/notifications/read', { id: n.id });
        } catch {
          // opening the game matters more than the mark
        }
        refreshBell();
      }
      navigate(n.url);
    };
    return h(`li.notification${n.read ? '' : '.unread'}`, { dataset: { id: String(n.id), kind: n.kind } },
      h('a', { href: n.url, onclick: open }, n.text),
      h('span.muted.notification-time', dateTimeText(n.created_at)));
  }

  function render() {
    clear(list, shown.map(item));
    status.textContent = shown.length ? '' : 'Nothing yet: your turns, challenges and results will show here.';
    readAll.disabled = !shown.some((n) => !n.read);
    more.hidden = !next;
  }

  async function load(append = false) {
    let data;
    try {
      data = await get(`/me/notifications?limit=${PAGE}${append && next ? `&before=${next}` : ''}`);
    } catch (err) {
      status.textContent = err.message;
      return;
    }
    shown = append ? shown.concat(data.notifications) : data.notifications;
    next = data.next_before;
    render();
  }

  /** Put newer notifications on top and take the news of those shown (read, or gone: a turn that is over). */
  function merge(fresh, newest) {
    const known = new Map(fresh.map((n) => [n.id, n]));
    const newer = fresh.filter((n) => n.id > newest);
    const oldestFresh = fresh.length ? fresh[fresh.length - 1].id : -Infinity; // none at all: none stay
    // Below the fresh page nothing is known: those stay as shown.
    const kept = shown.filter((n) => known.has(n.id) || n.id < oldestFresh).map((n) => known.get(n.id) || n);
    shown = newer.concat(kept);
  }

  async function catchUp() { // after the socket was away: what arrived meanwhile, without losing Older pages
    if (!shown.length) return load();
    try {
      const data = await get(`/me/notifications?limit=${PAGE}`);
      const newest = Math.max(...shown.map((n) => n.id));
      if (data.next_before !== null && data.notifications.every((n) => n.id > newest)) return load(); // a gap
      merge(data.notifications, newest);
    } catch (err) {
      status.textContent = err.message;
      return;
    }
    render();
  }

  function arrived(n) {
    if (shown.some((x) => x.id === n.id)) return;
    // A "your turn" replaces the game's unread one (storage/notifications.py); so does anything newer.
    shown = [n, ...shown.filter((x) => !(x.game_id !== null && x.game_id === n.game_id && x.kind === 'turn' && !x.read))];
    render();
  }

  readAll.addEventListener('click', async () => {
    const upTo = Math.max(...shown.map((n) => n.id)); // only what the user saw: a newer one stays unread
    readAll.disabled = true;
    try {
      await post('/me/notifications/read', { up_to: upTo });
    } catch (err) {
      toast(err.message, 'error');
      render();
      return;
    }
    shown = shown.map((n) => (n.id <= upTo ? { ...n, read: true } : n));
    render();
    refreshBell();
  });
  more.addEventListener('click', () => load(true));
  const stop = userEvents.subscribe((m) => {
    if (m.t === 'notification') arrived(m.d);
    else if (m.t === 'resync') catchUp();
  });
  await load();
  return stop;
}

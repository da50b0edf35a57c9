// The notification bell for members: the unread count in the nav, kept live by the user socket, and a toast
// when a notification arrives while the page is open (GET /me/notifications, {"t": "notification"}).
import { get, post } from './api.js';
import { h, toast } from './dom.js';
import { onSessionChange, session } from './session.js';
import { userEvents } from './userfeed.js';

let unread = 0;
let refreshTimer = null;
const listeners = new Set();

function isMember() {
  return Boolean(session.user && !session.user.is_guest);
}

function changed() {
  for (const fn of listeners) fn(unread);
}

/** Call `fn(unread)` whenever the count changes (the nav redraws its bell). */
export function onBellChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Read the unread count again (after marking read, or when the socket says something changed). */
export async function refreshBell() {
  if (!isMember()) {
    if (unread) {
      unread = 0;
      changed();
    }
    return;
  }
  try {
    const count = (await get('/me/notifications?limit=0')).unread;
    if (count !== unread) {
      unread = count;
      changed();
    }
  } catch {
    // offline or logged out: the socket's resync or the next session change reads it again
  }
}

/** A player opened game `id`: what the bell says about that game is read (as on OGS). */
export async function readGame(id) {
  if (!isMember()) return;
  try {
    if ((await post('/me/notifications/read', { game: id })).marked) refreshSoon();
  } catch {
    // offline: the bell keeps its count until the next read
  }
}

function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refreshBell, 300);
}

const BELL_PATH = 'M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zm6-6v-5c0-3.1-1.6-5.6-4.5-6.3V4a1.5 1.5 0 0 0-3 0v.7C7.6 5.4 6 7.9 6 11v5l-2 2v1h16v-1z';

function bellIcon() {
  const span = h('span.bell-icon', { 'aria-hidden': 'true' });
  span.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18"><path d="${BELL_PATH}" fill="currentColor"/></svg>`;
  return span;
}

/** The nav's bell: a link to /notifications with the unread count (members only). */
export function bellLink(path) {
  const label = unread ? `Notifications, ${unread} unread` : 'Notifications';
  return h('a.bell', { href: '/notifications', 'data-link': true, id: 'nav-bell', title: label, 'aria-label': label,
    'aria-current': path === '/notifications' ? 'page' : null },
  bellIcon(),
  unread ? h('span.badge#bell-count', { 'aria-hidden': 'true' }, unread > 99 ? '99+' : String(unread)) : null);
}

userEvents.subscribe((m) => {
  if (m.t === 'notification') {
    const onScreen = m.d.game_id !== null && location.pathname === m.d.url;
    if (!m.d.read && onScreen) readGame(m.d.game_id); // about the game on screen: read already
    else {
      if (!m.d.read) toast(m.d.text);
      refreshSoon();
    }
  } else if (m.t === 'dashboard' || m.t === 'resync') {
    refreshSoon(); // a turn may have passed: that game's unread "your turn" is gone
  }
});
onSessionChange(() => refreshBell());

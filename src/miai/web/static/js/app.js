// Boot and routing: one page per path, links handled in place, the navigation bar, the user's live feed.
import { get } from './api.js';
import { clear, h, link, toast } from './dom.js';
import { forgotPasswordPage, resetPasswordPage, undoEmailChangePage, verifyEmailPage } from './pages/account.js';
import { adminPage, adminReviewPage } from './pages/admin.js';
import { archivePage } from './pages/archive.js';
import { createPage } from './pages/create.js';
import { dashboardPage } from './pages/dashboard.js';
import { gamePage } from './pages/game.js';
import { homePage } from './pages/home.js';
import { leaderboardsPage } from './pages/leaderboards.js';
import { lobbyPage } from './pages/lobby.js';
import { notificationsPage } from './pages/notifications.js';
import { loginPage, registerPage } from './pages/auth.js';
import { profilePage } from './pages/profile.js';
import { settingsPage } from './pages/settings.js';
import { watchPage } from './pages/watch.js';
import { loadSession, logout, onSessionChange, session } from './session.js';
import { userEvents } from './userfeed.js';
import { bellLink, onBellChange } from './bell.js';
import { closeNavMenu, drawNav, onNavWidthChange } from './navmenu.js';
import { profileUrl } from './links.js';

const ROUTES = [
  [/^\/$/, homePage, 'Home'],
  [/^\/lobby$/, lobbyPage, 'Lobby'],
  [/^\/watch$/, watchPage, 'Watch'],
  [/^\/new$/, createPage, 'New game'],
  [/^\/games\/(?<id>\d+)$/, gamePage, 'Game'],
  [/^\/archive$/, archivePage, 'Archive'],
  [/^\/users\/(?<name>[^/]+)$/, profilePage, 'Player'],
  [/^\/leaderboards(?:\/(?<key>[^/]+))?$/, leaderboardsPage, 'Leaderboards'],
  [/^\/dashboard$/, dashboardPage, 'Dashboard'],
  [/^\/notifications$/, notificationsPage, 'Notifications'],
  [/^\/settings$/, settingsPage, 'Settings'],
  [/^\/admin$/, adminPage, 'Score reports'],
  [/^\/admin\/games\/(?<id>\d+)$/, adminReviewPage, 'Review'],
  [/^\/login$/, loginPage, 'Log in'],
  [/^\/register$/, registerPage, 'Register'],
  [/^\/forgot-password$/, forgotPasswordPage, 'Forgotten password'],
  [/^\/reset-password$/, resetPasswordPage, 'New password'],
  [/^\/verify-email$/, verifyEmailPage, 'Confirm e-mail'],
  [/^\/undo-email-change$/, undoEmailChangePage, 'Undo address change'],
];

const main = document.getElementById('main');
let cleanup = null;
let rendering = 0;
let yourTurn = 0;

async function route() {
  const ticket = ++rendering;
  if (cleanup) {
    try {
      cleanup();
    } catch {
      // a page that fails to clean up must not block the next one
    }
    cleanup = null;
  }
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const query = new URLSearchParams(location.search);
  const found = ROUTES.find(([re]) => re.test(path));
  closeNavMenu();
  renderNav(path);
  if (!found) {
    clear(main, h('div.card', h('h1', 'Not found'), h('p', 'There is no page here. ', link('/', 'Go to the home page'))));
    return;
  }
  const [re, page, title] = found;
  document.title = `${title} · Miai`;
  try {
    const result = await page(main, re.exec(path).groups || {}, query);
    if (ticket !== rendering) {
      if (typeof result === 'function') result(); // the user already went elsewhere
      return;
    }
    cleanup = typeof result === 'function' ? result : null;
  } catch (err) {
    clear(main, h('div.card', h('h1', 'Something went wrong'), h('p.error', err.message)));
  }
}

export function go(url, replace = false) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

function renderNav(path = location.pathname) {
  const nav = document.getElementById('nav');
  const item = (href, text, id) => h('a', { href, 'data-link': true, id, 'aria-current': path === href ? 'page' : null }, text);
  if (session.user && session.user.is_guest) { // no multiplayer, settings of an account or logging out
    drawNav(nav, [
      item('/watch', 'Watch', 'nav-watch'),
      item('/new', 'Play the computer', 'nav-new'),
      item('/archive', 'Archive', 'nav-archive'),
      item('/dashboard', 'Dashboard', 'nav-dashboard'),
      h('span.user', { id: 'nav-user' }, 'Guest'),
      item('/register', 'Register', 'nav-register'),
    ]);
  } else if (session.user) {
    drawNav(nav, [
      item('/lobby', 'Lobby', 'nav-lobby'),
      item('/watch', 'Watch', 'nav-watch'),
      item('/new', 'New game', 'nav-new'),
      item('/archive', 'Archive', 'nav-archive'),
      item('/leaderboards', 'Leaderboards', 'nav-leaderboards'),
      h('a', { href: '/dashboard', 'data-link': true, id: 'nav-dashboard', 'aria-current': path === '/dashboard' ? 'page' : null },
        'Dashboard', yourTurn ? h('span.badge', { 'aria-label': `${yourTurn} games where it is your turn` }, String(yourTurn)) : null),
      bellLink(path),
      item('/settings', 'Settings', 'nav-settings'),
      session.user.is_admin ? item('/admin', 'Admin', 'nav-admin') : null,
      h('a.user', { id: 'nav-user', href: profileUrl(session.user.username), 'data-link': true, title: 'Your profile' }, session.user.username),
      h('button.link#logout', { type: 'button', onclick: doLogout }, 'Log out'),
    ], yourTurn);
  } else {
    drawNav(nav, [item('/watch', 'Watch', 'nav-watch'), item('/archive', 'Archive', 'nav-archive'), item('/leaderboards', 'Leaderboards', 'nav-leaderboards'), item('/login', 'Log in', 'nav-login'), item('/register', 'Register', 'nav-register')]);
  }
}

async function doLogout() {
  try {
    await logout();
    toast('Logged out.');
  } catch (err) {
    toast(err.message, 'error');
  }
  go('/');
}

async function countYourTurn() {
  if (!session.user) {
    yourTurn = 0;
  } else {
    try {
      yourTurn = (await get('/dashboard')).games.filter((g) => g.your_turn).length;
    } catch {
      return;
    }
  }
  renderNav();
}

document.addEventListener('click', (event) => {
  const a = event.target.closest('a[data-link]');
  if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  go(url.pathname + url.search);
});
window.addEventListener('popstate', route);
window.addEventListener('miai:navigate', (e) => go(e.detail));

let countTimer = null;
userEvents.subscribe((m) => {
  if (m.t === 'logged_out') loadSession().catch(() => {});
  if (m.t === 'dashboard' || m.t === 'challenge' || m.t === 'resync') {
    clearTimeout(countTimer);
    countTimer = setTimeout(countYourTurn, 300);
  }
});

onBellChange(() => renderNav());
onNavWidthChange(() => renderNav());

let previousUser = undefined;
onSessionChange((user) => {
  const id = user ? user.id : null;
  if (id !== previousUser) {
    previousUser = id;
    if (user) userEvents.start();
    else userEvents.stop();
    countYourTurn();
  }
  renderNav();
});

async function boot() {
  try {
    await loadSession();
  } catch (err) {
    toast(`Could not reach the server: ${err.raw || err.message}`, 'error');
  }
  document.body.dataset.ready = 'true';
  await route();
}

boot();

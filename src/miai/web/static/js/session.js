// Who is logged in, with their settings; other modules subscribe to changes.
import { del, get, patch, post, setCsrf } from './api.js';

export const DEFAULT_SETTINGS = {
  palette: 'classic', one_click: false, coordinates: true, email_notifications: true, sound: true, stone_marks: false,
};
const listeners = new Set();
export const session = { user: null };

function set(user, csrf) {
  session.user = user;
  if (csrf !== undefined) setCsrf(csrf);
  for (const fn of listeners) fn(session.user);
}

export function onSessionChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function settings() {
  return { ...DEFAULT_SETTINGS, ...((session.user && session.user.settings) || {}) };
}

/** Who is here: GET /session answers a visitor with `"user": null`, so no page logs a failed request. */
export async function loadSession() {
  const data = await get('/session');
  set(data.user, data.csrf_token);
  return session.user;
}

/** A visitor's first practice game made them a guest (POST /practice answers with the user and CSRF token). */
export function becomeGuest(user, csrf) {
  set(user, csrf);
}

export async function login(username, password) {
  const data = await post('/session', { username, password });
  set(data.user, data.csrf_token);
}

export async function register(username, password, email) {
  const data = await post('/accounts', { username, password, email: email || null });
  set(data.user, data.csrf_token);
}

export async function logout() {
  try {
    await del('/session');
  } finally {
    set(null, null);
  }
}

export async function saveSettings(changes) {
  const data = await patch('/me/settings', changes);
  set(data.user);
  return data.user;
}

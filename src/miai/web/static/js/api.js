// The HTTP API client: JSON in and out, the CSRF header on every write, errors as ApiError.
import { networkFailed } from './connection.js';

const BASE = '/api/v1';
let csrfToken = null;

export function setCsrf(token) {
  csrfToken = token || null;
}

/** An API message as a sentence for people: "the password is wrong" reads "The password is wrong." */
export function sentence(text) {
  const s = String(text || '').trim();
  if (!s) return s;
  const first = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?…:)]$/.test(first) ? first : `${first}.`;
}

export class ApiError extends Error {
  /** `message` is the API's `message` as a sentence (`sentence`); `raw` as the API wrote it. */
  constructor(status, body) {
    const raw = (body && body.message) || `the server answered ${status}`;
    super(sentence(raw));
    this.raw = raw;
    this.status = status;
    this.code = (body && body.error) || 'error';
    this.reason = body && body.reason; // illegal moves: occupied, suicide, ko, superko ...
    this.body = body || {};
  }
}

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  const raw = body instanceof Blob; // a file sent as it is (the SGF upload), with its own type
  if (body !== undefined) headers['Content-Type'] = raw ? body.type : 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined || raw ? body : JSON.stringify(body),
    });
  } catch {
    networkFailed();
    throw new ApiError(0, { error: 'network', message: 'the server cannot be reached; check your connection' });
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body = {}) => api('POST', path, body);
export const patch = (path, body) => api('PATCH', path, body);
export const del = (path) => api('DELETE', path);

/** `?invite=CODE` for private games, or an empty string. */
export function inviteQuery(invite, first = '?') {
  return invite ? `${first}invite=${encodeURIComponent(invite)}` : '';
}

// Log in and register.
import { clear, h, link, navigate, toast, whileBusy } from '../dom.js';
import { login, register } from '../session.js';

function nextUrl(query) {
  const next = query.get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

function authForm(main, query, { title, fields, submit, action, other, done }) {
  const error = h('p.error', { role: 'alert', id: 'auth-error' });
  const form = h('form.card.auth', { id: 'auth-form' }, h('h1', title), fields, error,
    h('button.primary', { type: 'submit', id: 'auth-submit' }, submit), h('p.small', other));
  const button = form.querySelector('#auth-submit');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (button.disabled) return; // a request runs: one at a time
    error.textContent = '';
    const value = (id) => form.querySelector(`#${id}`).value;
    await whileBusy(button, async () => { // busy while the request runs (a slow password hash)
      try {
        await action(value);
        if (done) toast(done(value));
        navigate(nextUrl(query));
      } catch (err) {
        error.textContent = err.message;
      }
    });
  });
  clear(main, form);
  form.querySelector('input').focus();
}

const input = (id, label, attrs) => h('div.field', h('label', { for: id }, label), h(`input#${id}`, { name: id, required: true, ...attrs }));

export async function loginPage(main, params, query) {
  authForm(main, query, {
    title: 'Log in',
    fields: [input('username', 'Username', { autocomplete: 'username' }), input('password', 'Password', { type: 'password', autocomplete: 'current-password' })],
    submit: 'Log in',
    action: (v) => login(v('username'), v('password')),
    other: ['No account yet? ', link(`/register${location.search}`, 'Register'), ' · ', link('/forgot-password', 'Forgotten password?')],
  });
}

export async function registerPage(main, params, query) {
  authForm(main, query, {
    title: 'Register',
    fields: [
      input('username', 'Username', { autocomplete: 'username', pattern: '[A-Za-z0-9_\\-]{3,32}', title: '3-32 letters, digits, _ or -' }),
      input('password', 'Password', { type: 'password', autocomplete: 'new-password', minlength: '8' }),
      h('div.field', h('label', { for: 'email' }, 'E-mail (optional, for notifications and a forgotten password; a confirmation link is mailed to it)'), h('input#email', { type: 'email', autocomplete: 'email' })),
    ],
    submit: 'Register',
    action: (v) => register(v('username'), v('password'), v('email').trim()),
    done: (v) => `Welcome, ${v('username')}: your account is ready.`,
    other: ['Already registered? ', link(`/login${location.search}`, 'Log in')],
  });
}

// Account pages: forgotten password, the mailed reset, verification and address-change undo links, and the
// settings page's password change and address verification status.
import { post } from '../api.js';
import { clear, h, link, toast } from '../dom.js';
import { loadSession, session } from '../session.js';
import { tabSession } from '../storage.js';

const PENDING_VERIFICATION = 'miai-verify-email-token';

/** The token of a mailed link (`#token=...`), taken out of the address bar so it is not kept in history. */
function linkToken() {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token) history.replaceState(history.state, '', location.pathname + location.search);
  return token;
}

const field = (id, label, attrs) => h('div.field', h('label', { for: id }, label), h(`input#${id}`, { name: id, required: true, ...attrs }));

function card(main, title, ...children) {
  clear(main, h('div.card.auth', h('h1', title), ...children));
}

export async function forgotPasswordPage(main) {
  const error = h('p.error', { role: 'alert' });
  const form = h('form.card.auth', { id: 'forgot-form' },
    h('h1', 'Forgotten password'),
    h('p.muted', 'Give your username or e-mail address. If the account has a verified address, a link to set a new password is mailed there; it works once, within an hour.'),
    field('login', 'Username or e-mail address', { autocomplete: 'username' }),
    error,
    h('button.primary#forgot-submit', { type: 'submit' }, 'Mail me a link'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      const answer = await post('/password-reset', { login: form.querySelector('#login').value.trim() });
      card(main, 'Forgotten password', h('p#forgot-done', `${answer.message[0].toUpperCase()}${answer.message.slice(1)}.`), h('p', link('/login', 'Log in')));
    } catch (err) {
      error.textContent = err.message;
    }
  });
  clear(main, form);
  form.querySelector('input').focus();
}

export async function resetPasswordPage(main) {
  const token = linkToken();
  if (!token) {
    card(main, 'Set a new password', h('p', 'Open this page with the link from your mail, or ', link('/forgot-password', 'ask for a new link'), '.'));
    return;
  }
  const error = h('p.error', { role: 'alert' });
  const form = h('form.card.auth', { id: 'reset-form' },
    h('h1', 'Set a new password'),
    field('password', 'New password', { type: 'password', autocomplete: 'new-password', minlength: '8' }),
    h('p.muted', 'Every device logged into your account is logged out.'),
    error,
    h('button.primary#reset-submit', { type: 'submit' }, 'Set password'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      await post('/password-reset/confirm', { token, password: form.querySelector('#password').value });
      await loadSession();
      card(main, 'Password set', h('p#reset-done', 'Your new password is set. ', link('/login', 'Log in')));
    } catch (err) {
      error.textContent = err.code === 'bad_token' ? `${err.raw || err.message}: ask for a new one under “Forgotten password”.` : err.message;
    }
  });
  clear(main, form);
  form.querySelector('input').focus();
}

export async function verifyEmailPage(main) {
  const token = linkToken() || tabSession.get(PENDING_VERIFICATION);
  if (!token) {
    card(main, 'Confirm your e-mail address', h('p', 'Open this page with the link from your mail.'));
    return;
  }
  if (!session.user) {
    tabSession.set(PENDING_VERIFICATION, token); // kept across the log-in page
    card(main, 'Confirm your e-mail address', h('p', link('/login?next=/verify-email', 'Log in'), ' to confirm your address.'));
    return;
  }
  tabSession.remove(PENDING_VERIFICATION);
  try {
    await post('/me/email/verify', { token });
    await loadSession();
    card(main, 'Address confirmed', h('p#verify-done', `Thank you: Miai may now mail ${session.user.email}. `, link('/settings', 'Settings')));
  } catch (err) {
    card(main, 'Confirm your e-mail address', h('p.error#verify-error', err.message), h('p', 'A new link can be sent from your ', link('/settings', 'settings'), '.'));
  }
}

/** The link mailed to a replaced address: a button (not the page load, which mail scanners may do) puts it
back, and every device is logged out. */
export async function undoEmailChangePage(main) {
  const token = linkToken();
  if (!token) {
    card(main, 'Undo an address change', h('p', 'Open this page with the link from your mail.'));
    return;
  }
  const error = h('p.error', { role: 'alert' });
  const button = h('button.primary#undo-submit', { type: 'button' }, 'Make it my address again');
  card(main, 'Undo an address change',
    h('p', 'If you did not change your Miai account\'s e-mail address, this puts back the address this link was mailed to and logs every device and API token out.'),
    error, button);
  button.addEventListener('click', async () => {
    error.textContent = '';
    try {
      const answer = await post('/email-change/undo', { token });
      await loadSession();
      card(main, 'Address restored',
        h('p#undo-done', `${answer.email} is your account's address again, and every device was logged out.`),
        h('p', 'If somebody else may know your password, ', link('/forgot-password', 'set a new one'), ' now; otherwise ', link('/login', 'log in'), '.'));
    } catch (err) {
      error.textContent = err.message;
    }
  });
}

/** The settings page's lines about the address: verified or not, with a button that mails a new link. */
export function emailStatus() {
  const user = session.user;
  if (!user || !user.email) return null;
  if (user.email_verified) return h('small.muted#email-status', 'Verified.');
  const resend = h('button#resend-verification', { type: 'button' }, 'Mail me a new link');
  resend.addEventListener('click', async () => {
    try {
      await post('/me/email/verification');
      toast(`A confirmation link is on its way to ${user.email}.`);
    } catch (err) {
      toast(err.message, 'error');
    }
  });
  return h('small.muted#email-status', 'Not confirmed yet: Miai mails nothing else there until you follow the link it sent. ', resend);
}

/** The settings page's password change form. */
export function passwordForm() {
  const error = h('p.error', { role: 'alert' });
  const form = h('form.card.settings', { id: 'password-form' },
    h('h2', 'Password'),
    field('current-password', 'Current password', { type: 'password', autocomplete: 'current-password' }),
    field('new-password', 'New password', { type: 'password', autocomplete: 'new-password', minlength: '8' }),
    h('small.muted', 'Your other logged-in devices are logged out; API tokens keep working.'),
    error,
    h('button.primary#change-password', { type: 'submit' }, 'Change password'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      await post('/me/password', {
        current_password: form.querySelector('#current-password').value,
        new_password: form.querySelector('#new-password').value,
      });
      form.reset();
      toast('Password changed.');
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

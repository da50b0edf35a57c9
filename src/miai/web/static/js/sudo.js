// Account changes (the e-mail address, API tokens) need the password entered in the last few minutes
// (docs/api.md, Account changes): `withSudo` runs a request and, when the server answers `sudo_required`, asks
// for the password in a dialog, confirms it (POST /session/sudo) and runs the request once more.
import { ApiError, post } from './api.js';
import { h } from './dom.js';

/** Resolves true once the server took the password, false when the user cancelled. */
function askPassword() {
  const input = h('input#sudo-password', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const error = h('p.error#sudo-error', { role: 'alert' });
  const cancel = h('button.secondary#sudo-cancel', { type: 'button' }, 'Cancel');
  const form = h('form',
    h('h2#sudo-title', 'Confirm your password'),
    h('p', 'Changing your e-mail address or API tokens needs your password again.'),
    h('div.field', h('label', { for: 'sudo-password' }, 'Password'), input),
    error,
    h('div.row', cancel, h('button.primary#sudo-submit', { type: 'submit' }, 'Confirm')));
  const dialog = h('dialog#sudo-dialog', { 'aria-labelledby': 'sudo-title' }, form);
  document.body.append(dialog);
  dialog.showModal();
  return new Promise((resolve) => {
    const done = (ok) => {
      dialog.close();
      dialog.remove();
      resolve(ok);
    };
    cancel.addEventListener('click', () => done(false));
    dialog.addEventListener('cancel', (event) => { // Escape
      event.preventDefault();
      done(false);
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.textContent = '';
      try {
        await post('/session/sudo', { password: input.value });
        done(true);
      } catch (err) {
        error.textContent = err.message; // a wrong password, or too many tries (429)
        input.select();
      }
    });
  });
}

/** `request()` (a function returning the API call's promise), with the password asked for when needed. */
export async function withSudo(request) {
  try {
    return await request();
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'sudo_required') throw err;
    if (!(await askPassword())) throw new ApiError(403, { error: 'sudo_cancelled', message: 'Not saved: the password was not confirmed.' });
    return request();
  }
}

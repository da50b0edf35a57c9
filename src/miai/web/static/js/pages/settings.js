// Personal settings: e-mail and notifications, board palette and stone shapes, one-click play, coordinates, sounds.
import { clear, h, link, toast } from '../dom.js';
import { PALETTES, PALETTE_TITLES, swatch } from '../palette.js';
import { saveSettings, session, settings } from '../session.js';
import { withSudo } from '../sudo.js';
import { emailStatus, passwordForm } from './account.js';

export async function settingsPage(main) {
  if (!session.user) {
    clear(main, h('div.card', h('h1', 'Settings'), h('p', link('/login?next=/settings', 'Log in'), ' to change your settings.')));
    return;
  }
  const s = settings();
  const error = h('p.error', { role: 'alert' });
  const preview = h('div.palette-preview', { 'aria-hidden': 'true' });
  const paletteSel = h('select#palette', { name: 'palette' },
    Object.keys(PALETTES).map((key) => h('option', { value: key, selected: key === s.palette }, PALETTE_TITLES[key])));
  const showPreview = () => clear(preview, Array.from({ length: 8 }, (_, i) => swatch(paletteSel.value, i + 1, 26)));
  paletteSel.addEventListener('change', showPreview);
  showPreview();
  const check = (id, label, value) => h('div.field.check', h(`input#${id}`, { type: 'checkbox', checked: value }), h('label', { for: id }, label));
  const form = h('form.card.settings', { id: 'settings-form' },
    h('h1', 'Settings'),
    h('p.muted', `Logged in as ${session.user.username}.`),
    h('div.field', h('label', { for: 'email' }, 'E-mail address'),
      h('input#email', { type: 'email', value: session.user.email || '', autocomplete: 'email', placeholder: 'none' }),
      h('span#email-status-box', emailStatus())),
    check('email-notifications', 'E-mail me when it is my turn, when games start and finish, and about challenges', s.email_notifications),
    h('div.field', h('label', { for: 'palette' }, 'Stone colours'), paletteSel, preview,
      h('small.muted', 'With three or more colours, and on the colour-blind safe and high-contrast palettes, every stone carries its colour\'s shape too, so the board never depends on hue alone.')),
    check('stone-marks', 'Shapes on the stones in two-colour games too', s.stone_marks),
    check('one-click', 'One-click play: a click plays at once, without the Submit Move step (practice games always do)', s.one_click),
    check('coordinates', 'Show coordinates around the board', s.coordinates !== false),
    check('sound', 'Sounds: a click for every move, a short beep when my clock runs low', s.sound !== false),
    error,
    h('button.primary#save-settings', { type: 'submit' }, 'Save'),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      await withSudo(() => saveSettings({ // a new address asks for the password again
        email: form.querySelector('#email').value.trim(),
        email_notifications: form.querySelector('#email-notifications').checked,
        palette: paletteSel.value,
        one_click: form.querySelector('#one-click').checked,
        coordinates: form.querySelector('#coordinates').checked,
        sound: form.querySelector('#sound').checked,
        stone_marks: form.querySelector('#stone-marks').checked,
      }));
      clear(form.querySelector('#email-status-box'), emailStatus()); // a new address is not confirmed yet
      toast('Settings saved.');
    } catch (err) {
      error.textContent = err.message;
    }
  });
  clear(main, form, passwordForm());
}

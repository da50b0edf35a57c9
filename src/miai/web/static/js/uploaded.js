// Uploaded SGF records (issue 19): the form that uploads one (POST /games/upload) and how the game page names
// a record's players, who are the record's names (`options.names`), not accounts.
import { post } from './api.js';
import { clear, h, navigate } from './dom.js';
import { teamName, teamNames } from './gameparts.js';
import { swatch } from './palette.js';

export const isRecord = (snap) => snap.options.mode === 'record';

/** "Honinbo Shusaku vs Gennan"; more colours, or a record without names: "Uploaded record". */
export function recordTitle(snap) {
  const names = snap.options.names || [];
  const side = (t) => (names[t - 1] || []).join(' & ');
  if (snap.options.teams === 2 && side(1) && side(2)) return `${side(1)} vs ${side(2)}`;
  return 'Uploaded record';
}

/** The teams with the record's names, and who uploaded it. */
export function recordTeams(snap, palette) {
  const names = snap.options.names || [];
  const uploader = snap.players.find((p) => p.team === null);
  return h('div',
    h('ul.teams', Array.from({ length: snap.options.teams }, (_, i) => h('li.team', { dataset: { team: String(i + 1) } },
      h('div.team-head', swatch(palette, i + 1, 20), h('strong', teamName(palette, i + 1, teamNames(snap, palette)))),
      h('ul.members', (names[i] || []).length
        ? names[i].map((name) => h('li', h('span.name', name)))
        : h('li.muted', 'not named in the record'))))),
    h('p.small.muted#uploaded-by', `An uploaded SGF record${uploader ? `, uploaded by ${uploader.username}` : ''}: read-only.`));
}

/** The upload form: a file, or the record's text pasted. Opens the new game once it is stored. */
export function uploadForm() {
  const file = h('input#upload-file', { type: 'file', accept: '.sgf,application/x-go-sgf' });
  const text = h('textarea#upload-text', { rows: 4, placeholder: '(;GM[1]FF[4]SZ[19]…', spellcheck: 'false' });
  const status = h('p#upload-status', { 'aria-live': 'polite' });
  const button = h('button.primary#upload-submit', { type: 'submit' }, 'Upload');
  const form = h('form.card.upload-form#upload-form', { 'aria-labelledby': 'upload-title' },
    h('h2#upload-title', 'Upload an SGF record'),
    h('p.small.muted', 'It becomes a read-only game in your archive, private to you, with its variations.'),
    h('div.field', h('label', { for: 'upload-file' }, 'SGF file'), file),
    h('div.field', h('label', { for: 'upload-text' }, 'or paste the record'), text),
    h('div.row', button), status);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = file.files && file.files[0];
    if (!chosen && !text.value.trim()) {
      clear(status, h('span.error', 'Choose a file or paste a record.'));
      return;
    }
    button.disabled = true;
    clear(status, 'Uploading…');
    try {
      // A file goes as it is: its own CA decides how its text is read, as in any SGF reader.
      const body = chosen ? new Blob([await chosen.arrayBuffer()], { type: 'application/x-go-sgf' }) : { sgf: text.value };
      const made = await post('/games/upload', body);
      navigate(`/games/${made.id}?move=0`);
    } catch (err) {
      clear(status, h('span.error', err.message));
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

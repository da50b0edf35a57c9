// The create-game form: every option POST /api/v1/games accepts, for Go or another game (games/registry.js).
import { get, post } from '../api.js';
import { clear, h, link, navigate, toast, whileBusy } from '../dom.js';
import { PRESETS } from '../format.js';
import { KINDS, kindOf } from '../games/registry.js';
import { becomeGuest, session } from '../session.js';
import { tabSession } from '../storage.js';

const KIND_CHOICES = [['go', 'Go'], ...Object.values(KINDS).map((k) => [k.key, k.title])];
const GO_SIZES = [[7, '7×7'], [9, '9×9'], [13, '13×13'], [19, '19×19']]; // Dgo's, the practice sizes

/** The inputs of a game's own options (entry.fields), ids prefixed so two forms can share a page. */
function kindFields(entry, prefix) {
  return entry.fields.map((spec) => {
    const id = `${prefix}${spec.name}`;
    const input = spec.type === 'select'
      ? select(id, spec.choices, spec.value)
      : number(id, spec.value, { min: String(spec.min), max: String(spec.max) });
    input.dataset.option = spec.name;
    input.dataset.type = spec.type;
    return field(spec.label, input, spec.help || null);
  });
}

function kindValues(host) {
  const out = {};
  for (const input of host.querySelectorAll('[data-option]')) {
    out[input.dataset.option] = input.dataset.type === 'number' ? Number(input.value) : input.value;
  }
  return out;
}

const UNITS = [['seconds', 1], ['minutes', 60], ['hours', 3600], ['days', 86400]];

function field(label, input, help = null) {
  const id = input.id;
  if (help && id) input.setAttribute('aria-describedby', `${id}-help`);
  return h('div.field', h('label', { for: id }, label), input, help ? h('small.muted', { id: `${id}-help` }, help) : null);
}

function select(id, options, value = '') {
  return h(`select#${id}`, { name: id },
    options.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value) }, text)));
}

function number(id, value, attrs = {}) {
  return h(`input#${id}`, { type: 'number', name: id, value: String(value), ...attrs });
}

function timeInput(id, seconds, unit) {
  return h('span.time-input',
    number(id, seconds / unit, { min: '0', step: 'any', 'aria-label': id.replace(/-/g, ' ') }),
    select(`${id}-unit`, UNITS.map(([name, size]) => [size, name]), unit));
}

export async function createPage(main, params, query = new URLSearchParams()) {
  if (!session.user || session.user.is_guest) { // visitors and guests: practice games only, no account needed
    clear(main, practiceForm(await practiceChoices()), h('div.card', h('h1', 'Create a game'),
      h('p', 'Playing as a guest: your games are private and kept a week after your last visit. ',
        link('/register', 'Register'), ' to keep them and to play other people, or ', link('/login?next=/new', 'log in'), '.')));
    return;
  }
  const teamsSel = select('teams', Array.from({ length: 7 }, (_, i) => [i + 2, `${i + 2}`]), 2);
  const teamSel = select('team', [['', 'random'], [1, '1'], [2, '2']], '');
  const clockSel = select('clock', [['none', 'only a limit per move'], ['fischer', 'Fischer'], ['byoyomi', 'byo-yomi']], 'none');
  const clockFields = h('div.clock-fields');
  const error = h('p.error', { role: 'alert', id: 'create-error' });
  const kindSel = select('kind', KIND_CHOICES, 'go');
  const kindBox = h('fieldset#kind-options', h('legend', 'Rules'));
  const goOnly = (el) => {
    el.classList.add('go-only');
    return el;
  };

  const form = h('form.card.create', { id: 'create-form', novalidate: true },
    h('h1', 'Create a game'),
    h('fieldset', h('legend', 'Game, board and teams'),
      field('Game', kindSel),
      goOnly(field('Board size', number('size', 9, { min: '5', max: '25' }), '5 to 25')),
      goOnly(field('Teams (colours)', teamsSel)),
      field('Players per team', number('players-per-team', 1, { min: '1', max: '8' })),
      field('Your team', teamSel),
    ),
    kindBox,
    goOnly(h('fieldset', h('legend', 'Rules'),
      field('Rules preset', select('preset', PRESETS, '')),
      field('Komi', h('input#komi', { type: 'text', name: 'komi', placeholder: 'preset default', inputmode: 'decimal' }),
        'One value (White) for 2 colours, or one per colour separated by commas'),
      field('Ko rule', select('ko', [['', 'preset default'], ['simple', 'simple ko'], ['positional', 'positional superko'], ['situational', 'situational superko']])),
      field('Points for captures', select('capture-points', [['', 'preset default'], ['true', 'yes'], ['false', 'no']])),
      field('Remove stones of inactive teams', select('remove-inactive', [['', 'preset default'], ['true', 'yes'], ['false', 'no']])),
      field('Move limit (rounds)', number('move-limit', '', { min: '1', max: '10000', placeholder: 'none' })),
      field('Handicap', number('handicap', 0, { min: '0', max: '9' }), 'Two colours only'),
    )),
    h('fieldset', h('legend', 'Time'),
      field('Time per move', timeInput('seconds-per-move', 86400, 86400)),
      field('Clock', clockSel),
      clockFields,
    ),
    h('fieldset', h('legend', 'Who can play'),
      field('Visibility', select('visibility', [['public', 'public (in the lobby)'], ['private', 'private (invite link)']])),
      field('Challenge a player', h('input#challenge', { type: 'text', name: 'challenge', placeholder: 'username (optional)', autocomplete: 'off' }), 'Two-player games only'),
      h('div.field.check', h('input#swap-match', { type: 'checkbox', name: 'swap-match' }),
        h('label', { for: 'swap-match' }, 'Swap match: a second game with the colours swapped (needs a challenge)')),
      h('div.field.check', h('input#rated', { type: 'checkbox', name: 'rated' }),
        h('label', { for: 'rated' }, 'Rated: the result moves the players’ ratings')),
    ),
    error,
    h('div.row', h('button.primary#create-submit', { type: 'submit' }, 'Create game'), link('/', 'Cancel')),
  );
  clear(main, practiceForm(await practiceChoices()), form);
  const $ = (id) => form.querySelector(`#${id}`);
  prefill(form, query);

  function renderTeamChoices() {
    const entry = kindOf(kindSel.value);
    const n = entry ? 2 : Number(teamsSel.value);
    const keep = teamSel.value;
    const name = (i) => (entry ? `${entry.names[i]}${i === 0 ? ' (moves first)' : ''}` : String(i + 1));
    clear(teamSel, h('option', { value: '' }, 'random'), Array.from({ length: n }, (_, i) => h('option', { value: String(i + 1) }, name(i))));
    teamSel.value = Number(keep) <= n ? keep : '';
  }

  /** Show the options of the chosen game only. */
  function renderKind() {
    const entry = kindOf(kindSel.value);
    for (const el of form.querySelectorAll('.go-only')) el.hidden = Boolean(entry);
    kindBox.hidden = !entry || !entry.fields.length;
    clear(kindBox, h('legend', entry ? `${entry.title} rules` : 'Rules'), entry ? kindFields(entry, 'kind-') : null);
    renderTeamChoices();
  }

  function renderClockFields() {
    const mode = clockSel.value;
    if (mode === 'none') clear(clockFields);
    else if (mode === 'fischer') {
      clear(clockFields, field('Main time', timeInput('main-time', 3600, 60)), field('Increment per move', timeInput('increment', 30, 1)));
    } else {
      clear(clockFields, field('Main time', timeInput('main-time', 3600, 60)), field('Periods', number('periods', 5, { min: '1', max: '100' })),
        field('Period length', timeInput('period-time', 30, 1)));
    }
  }

  teamsSel.addEventListener('change', renderTeamChoices);
  kindSel.addEventListener('change', renderKind);
  renderKind();
  clockSel.addEventListener('change', renderClockFields);

  const seconds = (id) => Number($(id).value) * Number($(`${id}-unit`).value);
  const tri = (id) => ($(id).value === '' ? null : $(id).value === 'true');

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const body = {
      size: Number($('size').value),
      teams: Number(teamsSel.value),
      players_per_team: Number($('players-per-team').value),
      preset: $('preset').value,
      ko: $('ko').value || null,
      capture_points: tri('capture-points'),
      remove_inactive_stones: tri('remove-inactive'),
      move_limit: $('move-limit').value ? Number($('move-limit').value) : null,
      handicap: Number($('handicap').value || 0),
      seconds_per_move: seconds('seconds-per-move'),
      clock: clockSel.value,
      visibility: $('visibility').value,
      team: teamSel.value ? Number(teamSel.value) : null,
      challenge: $('challenge').value.trim() || null,
      swap_match: $('swap-match').checked,
      rated: $('rated').checked,
    };
    const komi = $('komi').value.trim();
    if (komi) {
      const values = komi.split(/[,;\s]+/).filter(Boolean).map(Number);
      if (values.some((v) => Number.isNaN(v))) {
        error.textContent = 'Komi: numbers separated by commas, such as 6.5 or 0, 0.5, 1';
        return;
      }
      body.komi = values;
    }
    if (body.clock !== 'none') {
      body.main_time = seconds('main-time');
      if (body.clock === 'fischer') body.increment = seconds('increment');
      else {
        body.periods = Number($('periods').value);
        body.period_time = seconds('period-time');
      }
    }
    const entry = kindOf(kindSel.value);
    if (entry) {
      // Only the options every game shares, plus the game's own.
      for (const key of ['size', 'preset', 'ko', 'capture_points', 'remove_inactive_stones', 'move_limit', 'handicap', 'komi']) delete body[key];
      Object.assign(body, { kind: entry.key, teams: 2 }, kindValues(kindBox));
    }
    await whileBusy($('create-submit'), async () => {
      try {
        const created = await post('/games', body);
        if (created.invite_code) tabSession.set(`miai-invite-${created.id}`, created.invite_code);
        if (created.games && created.games.length > 1) toast(`Created the swap match: games ${created.games.join(' and ')}.`);
        else toast(`Game ${created.id} created: it starts once every seat is taken and confirmed.`);
        navigate(`/games/${created.id}${created.invite_code ? `?invite=${encodeURIComponent(created.invite_code)}` : ''}`);
      } catch (err) {
        error.textContent = err.message;
      }
    });
  });
}

/** A challenge from a profile (`/new?challenge=NAME&size=9&handicap=2&komi=0.5&team=1&rated=true`) fills those fields. */
function prefill(form, query) {
  for (const id of ['challenge', 'size', 'handicap', 'komi', 'team']) {
    const value = query.get(id);
    const input = form.querySelector(`#${id}`);
    if (value !== null && input && fits(input, value)) input.value = value;
  }
  if (query.get('rated') === 'true') form.querySelector('#rated').checked = true;
}

/** Whether a value of the address is one the field could hold (a link can be edited by anyone): one of a
 * select's choices, a number in the field's range, finite komi, a name of one line of printable text. */
function fits(input, value) {
  if (input.tagName === 'SELECT') return [...input.options].some((o) => o.value === value);
  if (input.type === 'number') {
    const probe = input.cloneNode(); // its min, max and step judge the value
    probe.value = value;
    return probe.value !== '' && probe.checkValidity();
  }
  if (input.id === 'komi') return value.split(/[,;\s]+/).filter(Boolean).every((v) => Number.isFinite(Number(v)));
  return value.length <= 64 && !/[\p{Cc}\p{Cs}\uFFFD]/u.test(value);
}

/**
 * What the practice form offers, from GET /api/v1/presets: `handicaps`, the most fixed handicap stones per
 * practice board size (2..this; 0: none) under the server's `dgo` preset, which refuses anything else; its
 * `komi` (White's, without handicap) and `handicapKomi` (with one); and `sizes`, the board sizes each other
 * game offers (its `size` option). Without an answer, no handicap and only the default sizes are offered.
 */
export async function practiceChoices() {
  const out = { handicaps: {}, komi: 6.5, handicapKomi: 0.5, sizes: {} };
  try {
    const { presets, kinds, handicap_komi: handicapKomi } = await get('/presets');
    const dgo = presets.find((p) => p.key === 'dgo');
    Object.assign(out, { handicaps: dgo.max_handicap, komi: dgo.komi, handicapKomi });
    for (const kind of kinds || []) {
      const size = (kind.options || []).find((o) => o.name === 'size');
      if (!size || kind.key === 'go') continue;
      const values = size.values || Array.from({ length: size.max - size.min + 1 }, (_, i) => size.min + i);
      out.sizes[kind.key] = { values, default: size.default, suggested: size.suggested || [] };
    }
  } catch {
    // offline or refused: the form still works with the defaults
  }
  return out;
}

/** The practice form's line under Handicap: the game that will be created, in words. */
export function practiceHint({ most, size, handicap, colour, mode, komi, handicapKomi }) {
  const parts = [];
  if (!most) parts.push(`No handicap on ${size}×${size} under Dgo's rules.`);
  if (handicap >= 2) parts.push(`Black gets ${handicap} stones and White moves first; White's komi is ${handicapKomi}.`);
  else parts.push(`Black moves first; White's komi is ${komi}.`);
  const first = handicap >= 2 ? 'white' : 'black';
  if (mode === 'computer' && colour !== 'random') {
    parts.push(colour === first ? `You play ${colour === 'black' ? 'Black' : 'White'} and move first.`
      : `You play ${colour === 'black' ? 'Black' : 'White'}: the computer moves first.`);
  } else if (mode === 'computer') parts.push('Your colour is drawn at random.');
  return parts.join(' ');
}

/**
 * A practice game (POST /api/v1/practice): against the computer, or both colours at one screen.
 * `computerOnly` (the home page's one-click form): Go against the computer, the game and opponent not asked.
 */
export function practiceForm(choices, { computerOnly = false } = {}) {
  const { handicaps, sizes } = choices;
  const error = h('p.error', { role: 'alert' });
  const kindSel = select('practice-kind', KIND_CHOICES, 'go');
  const sizeSel = select('practice-size', GO_SIZES, 9);
  const colourSel = select('practice-colour', []);
  const modeSel = select('practice-mode', [['computer', 'the computer'], ['local', 'nobody: I play both colours']]);
  const kindBox = h('div.kind-fields');
  const handicapSel = select('practice-handicap', [[0, 'none']]);
  const goHandicap = field('Handicap', handicapSel, ' ');
  function renderHint() {
    const help = form.querySelector('#practice-handicap-help');
    if (!help) return;
    help.textContent = practiceHint({
      most: handicaps[sizeSel.value] ?? 0, size: sizeSel.value, handicap: Number(handicapSel.value),
      colour: colourSel.value, mode: modeSel.value, komi: choices.komi, handicapKomi: choices.handicapKomi,
    });
  }
  function renderHandicap() {
    const most = kindOf(kindSel.value) ? 0 : handicaps[sizeSel.value] ?? 0;
    const keep = Math.min(Number(handicapSel.value), most);
    clear(handicapSel, h('option', { value: '0' }, 'none'),
      Array.from({ length: Math.max(0, most - 1) }, (_, i) => h('option', { value: String(i + 2) }, `${i + 2} stones`)));
    handicapSel.value = String(keep >= 2 ? keep : 0);
    handicapSel.disabled = most === 0;
    renderHint();
  }
  for (const el of [sizeSel, handicapSel, colourSel, modeSel]) el.addEventListener('change', renderHandicap);
  const hiddenIf = (el) => {
    el.hidden = computerOnly;
    return el;
  };
  const form = h('form.card.create#practice-form',
    h('h2', computerOnly ? 'Play the computer' : 'Practice'),
    h('fieldset', h('legend', computerOnly ? 'Go, no account needed' : 'Play the computer, or both colours at one screen'),
      hiddenIf(field('Game', kindSel)),
      field('Board size', sizeSel),
      kindBox,
      hiddenIf(field('Opponent', modeSel)),
      field('Your colour', colourSel),
      field('Computer level', select('practice-level', Array.from({ length: 10 }, (_, i) => [i + 1, String(i + 1)]), 1)),
      goHandicap,
    ),
    error,
    h('button.primary#practice-submit', { type: 'submit' }, computerOnly ? 'Play' : 'Start practice game'),
  );
  function renderKind() {
    const entry = kindOf(kindSel.value);
    goHandicap.hidden = Boolean(entry);
    // The board sizes the game offers (GET /presets, its `size` option); Go's practice sizes are Dgo's.
    const offer = entry ? sizes[entry.key] : null;
    const own = entry ? entry.fields.find((f) => f.name === 'size') : null;
    const sizeChoices = !entry ? GO_SIZES
      : offer ? offer.values.map((n) => [n, `${n}×${n}${offer.suggested.includes(n) ? ' (usual)' : ''}`])
        : [[own ? own.value : 0, own ? `${own.value}×${own.value}` : 'standard']];
    const wanted = !entry ? 9 : offer ? offer.default : sizeChoices[0][0];
    clear(sizeSel, sizeChoices.map(([v, text]) => h('option', { value: String(v), selected: String(v) === String(wanted) }, text)));
    sizeSel.value = String(wanted);
    sizeSel.disabled = sizeChoices.length < 2;
    // The game's own options but its size (the one size list above).
    clear(kindBox, entry ? kindFields({ fields: entry.fields.filter((f) => f.name !== 'size') }, 'practice-kind-') : null);
    // Go keeps its colour words; other games name their sides and the API takes first / second.
    const colours = entry
      ? [['first', `${entry.names[0]} (moves first)`], ['second', entry.names[1]], ['random', 'random']]
      : [['black', 'black'], ['white', 'white'], ['random', 'random']];
    clear(colourSel, colours.map(([v, text]) => h('option', { value: v }, text)));
    renderHandicap();
  }
  kindSel.addEventListener('change', renderKind);
  renderKind();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const value = (id) => form.querySelector(`#${id}`).value;
    const entry = kindOf(kindSel.value);
    const body = {
      size: Number(value('practice-size')),
      mode: value('practice-mode'),
      colour: value('practice-colour'),
      level: Number(value('practice-level')),
      handicap: Number(value('practice-handicap')),
    };
    if (entry) {
      delete body.handicap;
      if (!body.size) delete body.size;
      Object.assign(body, { kind: entry.key }, kindValues(kindBox));
    }
    try {
      const created = await post('/practice', body);
      if (created.guest) becomeGuest(created.guest, created.csrf_token); // the first game made a guest session
      navigate(`/games/${created.id}`);
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return form;
}

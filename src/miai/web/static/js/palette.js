// Team colours from the user's palette, each with its own shape or letter, so no one relies on hue alone; how
// stones are painted (a lit gradient per colour, a soft shadow) and when the shapes are drawn on them.

export const PALETTES = {
  classic: [
    ['#111111', 'black'], ['#f4f2ec', 'white'], ['#d32f2f', 'red'], ['#1e63c6', 'blue'],
    ['#2e8b3a', 'green'], ['#f2c12e', 'yellow'], ['#7b3fa0', 'purple'], ['#ef7d1a', 'orange'],
  ],
  'okabe-ito': [
    ['#000000', 'black'], ['#ffffff', 'white'], ['#E69F00', 'orange'], ['#56B4E9', 'sky blue'],
    ['#009E73', 'bluish green'], ['#F0E442', 'yellow'], ['#0072B2', 'blue'], ['#D55E00', 'vermilion'],
    ['#CC79A7', 'reddish purple'],
  ],
  'tol-bright': [
    ['#000000', 'black'], ['#ffffff', 'white'], ['#4477AA', 'blue'], ['#EE6677', 'red'],
    ['#228833', 'green'], ['#CCBB44', 'yellow'], ['#66CCEE', 'cyan'], ['#AA3377', 'purple'], ['#BBBBBB', 'grey'],
  ],
  'tol-muted': [
    ['#000000', 'black'], ['#ffffff', 'white'], ['#332288', 'indigo'], ['#88CCEE', 'cyan'],
    ['#44AA99', 'teal'], ['#117733', 'green'], ['#999933', 'olive'], ['#DDCC77', 'sand'],
    ['#CC6677', 'rose'], ['#882255', 'wine'], ['#AA4499', 'purple'],
  ],
  'high-contrast': [
    ['#000000', 'black'], ['#ffffff', 'white'], ['#ffd400', 'yellow'], ['#0046ff', 'blue'],
    ['#e00000', 'red'], ['#00a651', 'green'], ['#ff00d4', 'magenta'], ['#00e0ff', 'cyan'],
  ],
};

export const PALETTE_TITLES = {
  classic: 'Classic',
  'okabe-ito': 'Okabe–Ito (colour-blind safe)',
  'tol-bright': 'Tol bright (colour-blind safe)',
  'tol-muted': 'Tol muted (colour-blind safe)',
  'high-contrast': 'High contrast',
};

export const SHAPES = ['square', 'circle', 'triangle', 'cross', 'diamond', 'plus', 'star', 'hexagon'];

function luminance(hex) {
  const channel = (i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

// Palettes made for colour-blind or low-vision players: their stones always carry the shapes.
const MARKED_PALETTES = new Set(['okabe-ito', 'tol-bright', 'tol-muted', 'high-contrast']);

/**
 * Whether stones carry their team's shape: with more than two colours, on the accessible palettes, or when
 * the player asked for them (the `stone_marks` setting). Black and white alone need no shapes.
 */
export function marksShown(base, teams, always = false) {
  return Boolean(always) || teams > 2 || MARKED_PALETTES.has(String(base).split('/')[0]);
}

/** The palette name a board draws with: `name` plus "/plain" when its stones go without shapes. */
export function boardPalette(name, teams, always = false) {
  return marksShown(name, teams, always) ? name : `${name}/plain`;
}

/**
 * {fill, name, ink (black or white for marks on the stone), shape, letter, marked} of team t (from 1). A
 * palette name may carry flags after "/": "swap", the first two colours change places (games whose first
 * player is White, as in Amazons); "plain", no shapes on the stones (`marked` false).
 */
export function teamStyle(paletteName, t) {
  const [base, ...flags] = String(paletteName).split('/');
  const palette = PALETTES[base] || PALETTES.classic;
  const i = flags.includes('swap') && t <= 2 ? 2 - t : t - 1;
  const [fill, colourName] = palette[i % palette.length];
  const round = Math.floor(i / palette.length);
  const name = round ? `${colourName} ${round + 1}` : colourName;
  const ink = luminance(fill) > 0.35 ? '#000000' : '#ffffff';
  const shape = t <= SHAPES.length ? SHAPES[t - 1] : null;
  const marked = !flags.includes('plain');
  return { fill, name, ink, shape, letter: shape ? null : String(t), outline: base === 'high-contrast', marked };
}

/** `hex` mixed with white (amount > 0) or black (amount < 0), as #rrggbb. */
function shade(hex, amount) {
  const target = amount > 0 ? 255 : 0;
  const a = Math.abs(amount);
  const channel = (i) => Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - a) + target * a);
  return `#${[1, 3, 5].map((i) => channel(i).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * A stone's paint: a radial gradient lit from the upper left, the colour itself over most of the stone and
 * a darker rim (a black stone gets a grey sheen, a white one a warm shadow at its edge).
 */
export function stoneGradient(id, fill) {
  const dark = luminance(fill) < 0.02;
  const light = dark ? shade(fill, 0.38) : shade(fill, 0.55);
  const rim = dark ? '#000000' : shade(fill, luminance(fill) > 0.8 ? -0.22 : -0.3);
  return `<radialGradient id="${id}" cx="50%" cy="50%" r="50%" fx="36%" fy="30%">`
    + `<stop offset="0" stop-color="${light}"/><stop offset=".42" stop-color="${fill}"/>`
    + `<stop offset=".86" stop-color="${fill}"/><stop offset="1" stop-color="${rim}"/></radialGradient>`;
}

/** The soft shadow under stones: dark in the middle, fading out at the edge. */
export function shadowGradient(id) {
  return `<radialGradient id="${id}"><stop offset=".62" stop-color="#000" stop-opacity=".42"/>`
    + '<stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>';
}

/** The edge of a stone: a thin line a little darker than the stone (thick black on the high-contrast palette). */
export function rimColour(style) {
  if (style.outline) return '#000000';
  return luminance(style.fill) < 0.02 ? '#000000' : shade(style.fill, -0.42);
}

const f = (n) => n.toFixed(2);

function polygon(points) {
  return `M${points.map(([x, y]) => `${f(x)} ${f(y)}`).join('L')}Z`;
}

function rotated(points, x, y, angle) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return points.map(([px, py]) => [x + (px - x) * c - (py - y) * s, y + (px - x) * s + (py - y) * c]);
}

function plusPoints(x, y, r) {
  const w = r * 0.32;
  return [
    [x - w, y - r], [x + w, y - r], [x + w, y - w], [x + r, y - w], [x + r, y + w], [x + w, y + w],
    [x + w, y + r], [x - w, y + r], [x - w, y + w], [x - r, y + w], [x - r, y - w], [x - w, y - w],
  ];
}

function regular(x, y, r, n, start, inner = null) {
  const pts = [];
  const count = inner ? n * 2 : n;
  for (let i = 0; i < count; i++) {
    const a = start + (i * 2 * Math.PI) / count;
    const rr = inner && i % 2 ? inner : r;
    pts.push([x + rr * Math.cos(a), y + rr * Math.sin(a)]);
  }
  return pts;
}

/** A closed path for a team's shape (fill it with fill-rule evenodd). */
export function shapePath(shape, x, y, r) {
  switch (shape) {
    case 'square':
      return polygon([[x - r * 0.72, y - r * 0.72], [x + r * 0.72, y - r * 0.72], [x + r * 0.72, y + r * 0.72], [x - r * 0.72, y + r * 0.72]]);
    case 'circle': {
      const ring = (rr) => `M${f(x - rr)} ${f(y)}A${f(rr)} ${f(rr)} 0 1 0 ${f(x + rr)} ${f(y)}A${f(rr)} ${f(rr)} 0 1 0 ${f(x - rr)} ${f(y)}Z`;
      return ring(r * 0.85) + ring(r * 0.45);
    }
    case 'triangle':
      return polygon([[x, y - r], [x + r * 0.95, y + r * 0.7], [x - r * 0.95, y + r * 0.7]]);
    case 'cross':
      return polygon(rotated(plusPoints(x, y, r), x, y, Math.PI / 4));
    case 'diamond':
      return polygon([[x, y - r], [x + r * 0.8, y], [x, y + r], [x - r * 0.8, y]]);
    case 'plus':
      return polygon(plusPoints(x, y, r * 0.95));
    case 'star':
      return polygon(regular(x, y, r * 1.05, 5, -Math.PI / 2, r * 0.45));
    case 'hexagon':
      return polygon(regular(x, y, r * 0.85, 6, 0));
    default:
      return '';
  }
}

/** SVG markup of a team's mark on its own stone, centred at (x, y) with radius r (none on plain stones). */
export function markSvg(style, x, y, r) {
  if (style.marked === false) return '';
  if (!style.shape) {
    return `<text x="${f(x)}" y="${f(y)}" fill="${style.ink}" font-size="${f(r * 1.9)}" font-weight="700" text-anchor="middle" dominant-baseline="central">${style.letter}</text>`;
  }
  return `<path d="${shapePath(style.shape, x, y, r)}" fill="${style.ink}" fill-rule="evenodd"/>`;
}

/** A territory marker: the team's shape in the team's colour, outlined so it shows on the board. */
export function territorySvg(style, x, y, r) {
  const sw = f(r * 0.22);
  if (!style.shape) {
    return `<text x="${f(x)}" y="${f(y)}" fill="${style.fill}" stroke="#222" stroke-width="${sw}" paint-order="stroke" font-size="${f(r * 2.2)}" font-weight="700" text-anchor="middle" dominant-baseline="central">${style.letter}</text>`;
  }
  if (style.shape === 'circle') {
    return `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r * 0.8)}" fill="${style.fill}" stroke="#222" stroke-width="${sw}"/>`;
  }
  return `<path d="${shapePath(style.shape, x, y, r)}" fill="${style.fill}" fill-rule="evenodd" stroke="#222" stroke-width="${sw}" stroke-linejoin="round"/>`;
}

let swatches = 0;

/** A small standalone SVG swatch (a stone, with its mark unless the palette is plain) for legends and lists. */
export function swatch(paletteName, team, size = 18) {
  const style = teamStyle(paletteName, team);
  const wrapper = document.createElement('span');
  wrapper.className = 'swatch';
  wrapper.setAttribute('aria-hidden', 'true');
  const id = `swatch${++swatches}`; // gradient ids are document-wide
  const stroke = style.outline ? 1.4 : 0.8;
  wrapper.innerHTML = `<svg viewBox="0 0 20 20" width="${size}" height="${size}"><defs>${stoneGradient(id, style.fill)}</defs><circle cx="10" cy="10" r="9" fill="url(#${id})" stroke="${rimColour(style)}" stroke-width="${stroke}"/>${markSvg(style, 10, 10, 4.2)}</svg>`;
  return wrapper;
}

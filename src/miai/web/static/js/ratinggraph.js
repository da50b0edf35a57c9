// A rating graph as inline SVG: one point a rated game (oldest left), the rating ± deviation as a band;
// hovering or focusing a point shows its value and a link to the game in a line under the graph.
import { h, link, navigate, svgElement } from './dom.js';
import { dateText, plural } from './format.js';

const WIDTH = 600;
const HEIGHT = 200;
const PAD = { left: 44, right: 12, top: 12, bottom: 22 };

/** Round numbers for the vertical axis: about four lines between `low` and `high`. */
function ticks(low, high) {
  const raw = (high - low) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) out.push(v);
  return out;
}

function signed(n) {
  const r = Math.round(n);
  return r > 0 ? `+${r}` : r < 0 ? `−${-r}` : '±0';
}

/** What a point says, in the readout and as its accessible name. */
export function pointText(p) {
  return `${Math.round(p.rating)} ± ${Math.round(p.deviation)} (${signed(p.change)}) after game ${p.game_id}, ${dateText(p.at)}`;
}

/**
 * The graph of `history` ([{game_id, at, rating, deviation, change}], oldest first) for `label` (the kind
 * key's title). Points are spaced one game apart, not by date: a day of many games stays readable.
 */
export function ratingGraph(history, label) {
  const box = h('figure.rating-graph', { dataset: { points: String(history.length) } });
  if (!history.length) {
    box.append(h('figcaption.muted.small', 'No rated games shown yet.'));
    return box;
  }
  const lows = history.map((p) => p.rating - p.deviation);
  const highs = history.map((p) => p.rating + p.deviation);
  let low = Math.min(...lows);
  let high = Math.max(...highs);
  if (high - low < 50) {
    low -= 25;
    high += 25;
  }
  // As wide as its points need (a game or two make a small graph, not an empty 600-unit frame), drawn at
  // the same scale whatever the width: the figure's CSS width follows the drawing's.
  const width = Math.min(WIDTH, PAD.left + PAD.right + 100 * history.length);
  box.style.maxWidth = `${(width * 760) / WIDTH}px`;
  const innerW = width - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (history.length === 1 ? innerW / 2 : (i * innerW) / (history.length - 1));
  const y = (v) => PAD.top + ((high - v) * innerH) / (high - low);

  const band = [...history.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`),
    ...history.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse()].join(' ');
  const line = history.map((p, i) => `${x(i)},${y(p.rating)}`).join(' ');
  const readout = h('p.graph-readout.small', { 'aria-live': 'polite' });
  const show = (p) => {
    readout.replaceChildren(
      h('strong', String(Math.round(p.rating))), ` ± ${Math.round(p.deviation)} `,
      h('span', { class: p.change >= 0 ? 'up' : 'down' }, signed(p.change)),
      ' after ', link(`/games/${p.game_id}`, `game ${p.game_id}`), `, ${dateText(p.at)}`,
    );
  };

  const chart = svgElement('svg', {
    viewBox: `0 0 ${width} ${HEIGHT}`, role: 'group', class: 'graph', 'aria-label': `${label}: rating after each rated game`,
  });
  for (const v of ticks(low, high)) {
    chart.append(svgElement('line', { x1: PAD.left, x2: width - PAD.right, y1: y(v), y2: y(v), class: 'grid' }),
      svgElement('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, document.createTextNode(String(v))));
  }
  chart.append(svgElement('polygon', { points: band, class: 'band' }), svgElement('polyline', { points: line, class: 'line' }));
  history.forEach((p, i) => {
    const text = pointText(p);
    // An SVG link: app.js's link handler reads HTML anchors' href only, so this one navigates itself.
    const dot = svgElement('a', { href: `/games/${p.game_id}`, class: 'point', 'aria-label': text },
      svgElement('title', {}, document.createTextNode(text)),
      svgElement('circle', { cx: x(i), cy: y(p.rating), r: 4 }));
    dot.dataset.game = String(p.game_id);
    dot.addEventListener('click', (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      navigate(`/games/${p.game_id}`);
    });
    for (const name of ['mouseenter', 'focus']) dot.addEventListener(name, () => show(p));
    chart.append(dot);
  });
  const first = history[0];
  const last = history[history.length - 1];
  show(last);
  box.append(chart,
    h('figcaption.graph-axis.small.muted', h('span', dateText(first.at)), h('span', `${plural(history.length, 'rated game')}, the band is ± deviation`), h('span', dateText(last.at))),
    readout);
  return box;
}

// A small board picture for lists (home page, watch page): the `preview` of GET /api/v1/games/live drawn as SVG.
import { svgElement } from './dom.js';
import { kindOf } from './games/registry.js';
import { teamStyle } from './palette.js';

const CELL = 10; // SVG units per point; the element is sized by CSS

/**
 * `preview`: {size, cells} where cells has a character per point (row 0 at the bottom): '.' empty, '1'..'8'
 * a team's stone or piece, 'x' a blocker. Go is drawn on lines, other games on squares (Hex's rows shifted by
 * half a cell each, as its rhombus is). `label`: the accessible name.
 */
export function boardThumbnail(preview, kind, paletteName, label) {
  const entry = kindOf(kind);
  const palette = entry ? entry.palette(paletteName) : paletteName;
  const n = preview.size;
  const shift = kind === 'hex' ? CELL / 2 : 0; // per row
  const width = n * CELL + shift * (n - 1);
  const svg = svgElement('svg', { viewBox: `0 0 ${width} ${n * CELL}`, role: 'img', 'aria-label': label, class: `thumbnail kind-${kind}` });
  const at = (p) => {
    const row = Math.floor(p / n);
    const col = p % n;
    return [col * CELL + CELL / 2 + row * shift, (n - 1 - row) * CELL + CELL / 2];
  };
  svg.append(svgElement('rect', { x: 0, y: 0, width, height: n * CELL, class: 'thumb-ground' }));
  if (!entry) { // Go: the lines
    const a = CELL / 2;
    const b = n * CELL - CELL / 2;
    let d = '';
    for (let i = 0; i < n; i += 1) {
      const c = i * CELL + CELL / 2;
      d += `M${a} ${c}H${b}M${c} ${a}V${b}`;
    }
    svg.append(svgElement('path', { d, class: 'thumb-lines' }));
  } else {
    for (let p = 0; p < n * n; p += 1) {
      const [x, y] = at(p);
      svg.append(svgElement('rect', { x: x - CELL / 2 + 0.5, y: y - CELL / 2 + 0.5, width: CELL - 1, height: CELL - 1, class: 'thumb-cell' }));
    }
  }
  for (let p = 0; p < preview.cells.length && p < n * n; p += 1) {
    const c = preview.cells[p];
    if (c === '.') continue;
    const [x, y] = at(p);
    if (c === 'x') {
      svg.append(svgElement('rect', { x: x - CELL / 4, y: y - CELL / 4, width: CELL / 2, height: CELL / 2, class: 'thumb-blocker' }));
      continue;
    }
    const style = teamStyle(palette, Number(c));
    svg.append(svgElement('circle', { cx: x, cy: y, r: CELL * 0.46, fill: style.fill, class: 'thumb-stone', 'data-team': c }));
  }
  return svg;
}

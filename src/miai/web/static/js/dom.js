// Tiny DOM helpers: element building, a toast line, and a modal confirmation dialog.

/** h('button.primary#go', {onclick, disabled: true}, 'text', child...) */
export function h(spec, attrs, ...children) {
  const match = /^([a-z0-9-]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const el = document.createElement((match && match[1]) || 'div');
  if (match && match[2]) {
    for (const part of match[2].match(/[.#][\w-]+/g)) {
      if (part[0] === '.') el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs !== undefined && attrs !== null && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'value') el.value = value;
    else if (key === 'checked') el.checked = Boolean(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let toastTimer = null;

/** A short message at the bottom of the screen; `kind` error stays longer. */
export function toast(message, kind = 'info') {
  const el = document.getElementById('toast');
  el.textContent = message;
  el.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.className = 'toast';
  }, kind === 'error' ? 7000 : 3500);
}

/**
 * Run `work` with `button` busy: disabled and aria-busy until it settles (no second click while a request
 * runs). A button already busy does nothing. Returns what `work` returns.
 */
export async function whileBusy(button, work) {
  if (button && button.getAttribute('aria-busy') === 'true') return undefined;
  if (button) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
  }
  try {
    return await work();
  } finally {
    if (button) {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }
}

/** Ask before something that cannot be undone; resolves true on OK. */
export function confirmDialog(title, text, okLabel = 'OK') {
  const dialog = document.getElementById('confirm-dialog');
  dialog.querySelector('#confirm-title').textContent = title;
  dialog.querySelector('#confirm-text').textContent = text;
  dialog.querySelector('#confirm-ok').textContent = okLabel;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
  });
}

/** Navigate inside the single-page app (app.js listens). */
export function navigate(url) {
  window.dispatchEvent(new CustomEvent('miai:navigate', { detail: url }));
}

/** A small inline SVG icon (decorative; the button carries the label). */
export function icon(name) {
  const paths = {
    first: 'M5 4h2v16H5zM19 4v16L8 12z',
    prev: 'M17 4v16L6 12z',
    next: 'M7 4v16l11-8z',
    last: 'M17 4h2v16h-2zM5 4v16l11-8z',
    fullscreen: 'M4 4h6v2H6v4H4zM14 4h6v6h-2V6h-4zM4 14h2v4h4v2H4zM18 14h2v6h-6v-2h4z',
    sound: 'M3 9h4l5-5v16l-5-5H3zM14.5 8.2a5 5 0 0 1 0 7.6l-1.4-1.4a3 3 0 0 0 0-4.8zM17.3 5.4a9 9 0 0 1 0 13.2l-1.4-1.4a7 7 0 0 0 0-10.4z',
    muted: 'M3 9h4l5-5v16l-5-5H3zM15 9.4l1.4-1.4 2.1 2.1 2.1-2.1 1.4 1.4-2.1 2.1 2.1 2.1-1.4 1.4-2.1-2.1-2.1 2.1-1.4-1.4 2.1-2.1z',
  };
  const span = document.createElement('span');
  span.className = 'icon';
  span.setAttribute('aria-hidden', 'true');
  span.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18"><path d="${paths[name]}" fill="currentColor"/></svg>`;
  return span;
}

/** An SVG element: svgElement('circle', {cx, cy, r}, child...); null and undefined attributes are left out. */
export function svgElement(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

export function link(href, ...children) {
  return h('a', { href, 'data-link': true }, ...children);
}

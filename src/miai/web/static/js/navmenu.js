// The top bar when its items do not fit one row (a phone, a narrow window, large text, a long name), as
// lichess and OGS have it: the brand, the bell and a Menu button that discloses the other items (WAI-ARIA
// disclosure: aria-expanded, aria-controls); where they fit, every item is in the bar. The menu closes on
// navigation (app.js calls closeNavMenu), on Escape and on a click outside the bar. Items keep their ids
// at every width (tests and pages find them by id). app.css styles #nav-menu.
import { clear, h } from './dom.js';

let open = false;

function button() {
  return document.getElementById('nav-menu-button');
}

function setOpen(value, returnFocus = false) {
  open = value;
  const toggle = button();
  const menu = document.getElementById('nav-menu');
  if (!toggle || !menu) return;
  toggle.setAttribute('aria-expanded', String(open));
  menu.hidden = !open;
  if (returnFocus) toggle.focus();
}

export function closeNavMenu() {
  setOpen(false);
}

function menuIcon() {
  const span = h('span.icon', { 'aria-hidden': 'true' });
  span.innerHTML = '<svg viewBox="0 0 24 24" width="18" height="18"><path d="M3 5h18v2H3zM3 11h18v2H3zM3 17h18v2H3z" fill="currentColor"/></svg>';
  return span;
}

/** Draw the nav's `items` (null entries skipped): all in the bar, or when they would wrap the bell
 * (#nav-bell) in the bar and the rest behind the Menu button. `badge`: a count the button shows (the
 * dashboard's "your turn" count is out of sight in the closed menu). Focus stays on the item that had it,
 * since the bar is redrawn whenever a count changes. */
export function drawNav(nav, items, badge = 0) {
  const focused = nav.contains(document.activeElement) ? document.activeElement.id : '';
  const shown = items.filter(Boolean);
  clear(nav, shown);
  if (!wraps(nav)) {
    open = false;
  } else {
    const bell = shown.find((el) => el.id === 'nav-bell') || null;
    clear(nav,
      bell,
      h('button.nav-menu-button#nav-menu-button', {
        type: 'button', 'aria-expanded': String(open), 'aria-controls': 'nav-menu', onclick: () => setOpen(!open),
      }, menuIcon(), 'Menu', badge ? h('span.badge', { 'aria-hidden': 'true' }, String(badge)) : null),
      h('div.nav-menu#nav-menu', { hidden: !open }, shown.filter((el) => el !== bell)),
    );
  }
  if (focused) document.getElementById(focused)?.focus();
}

/** Whether the bar's items take more than one row: their vertical centres (and the brand's) differ. */
function wraps(nav) {
  const centres = [nav.parentElement.firstElementChild, ...nav.children].map((el) => {
    const box = el.getBoundingClientRect();
    return box.top + box.height / 2;
  });
  return Math.max(...centres) - Math.min(...centres) > 8;
}

/** Call `redraw` when the window's width changes (a phone turned, a window resized): the items may fit
 * now, or no longer. */
export function onNavWidthChange(redraw) {
  let width = window.innerWidth;
  let pending = false;
  window.addEventListener('resize', () => {
    if (pending || window.innerWidth === width) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      width = window.innerWidth;
      redraw();
    });
  });
}

document.addEventListener('keydown', (event) => {
  if (!open || event.key !== 'Escape') return;
  event.stopPropagation(); // the page's own Escape (a board's preview) is not meant as well
  const toggle = button();
  const inside = toggle && toggle.parentElement.contains(document.activeElement);
  setOpen(false, inside || document.activeElement === document.body);
}, true);

document.addEventListener('click', (event) => {
  if (open && !event.target.closest('#nav')) setOpen(false);
});

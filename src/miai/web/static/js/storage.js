// Site storage that may be missing: a browser that blocks cookies and site data throws on every access to
// localStorage / sessionStorage. The pages work without it (an invite or a mute is then not remembered).

function area(name) {
  try {
    return window[name];
  } catch {
    return null;
  }
}

function store(name) {
  return {
    get(key) {
      try {
        return area(name)?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        area(name)?.setItem(key, value);
      } catch {
        // blocked or full: not remembered
      }
    },
    remove(key) {
      try {
        area(name)?.removeItem(key);
      } catch {
        // blocked: nothing stored to remove
      }
    },
  };
}

export const local = store('localStorage');
export const tabSession = store('sessionStorage');

// The console's routes (docs/console.md "Pages"): one pure matcher over location.pathname under /console/, and
// navigation through the History API. Links inside the app are ordinary <a href> elements; a click on one is turned
// into a pushState here, so the keyboard, middle-click and "open in new tab" keep working.

export type Route =
  | { name: 'inbox' }
  | { name: 'signin' }
  | { name: 'history' }
  | { name: 'verdict-approval'; id: string }
  | { name: 'registry-approval'; scopeId: string; id: string }
  | { name: 'consultations' }
  | { name: 'consultation'; id: string }
  | { name: 'rules' }
  | { name: 'not-found'; path: string };

export const BASE = '/console';

function decode(segment: string): string | null {
  try {
    const value = decodeURIComponent(segment);
    return value && !value.includes('/') ? value : null;
  } catch {
    return null;
  }
}

/** The route of a pathname. Pure. */
export function matchRoute(pathname: string): Route {
  if (pathname !== BASE && !pathname.startsWith(`${BASE}/`)) return { name: 'not-found', path: pathname };
  const parts = pathname
    .slice(BASE.length)
    .split('/')
    .filter((p) => p !== '');
  const ids = parts.map(decode);
  if (ids.some((id) => id === null)) return { name: 'not-found', path: pathname };
  const [a, b, c, d] = ids as string[];
  switch (parts.length) {
    case 0:
      return { name: 'inbox' };
    case 1:
      if (a === 'signin') return { name: 'signin' };
      if (a === 'history') return { name: 'history' };
      if (a === 'consultations') return { name: 'consultations' };
      if (a === 'rules') return { name: 'rules' };
      break;
    case 2:
      if (a === 'consultations') return { name: 'consultation', id: b };
      break;
    case 3:
      if (a === 'approvals' && b === 'verdict') return { name: 'verdict-approval', id: c };
      break;
    case 4:
      if (a === 'approvals' && b === 'registry') return { name: 'registry-approval', scopeId: c, id: d };
      break;
  }
  return { name: 'not-found', path: pathname };
}

/** The path of a route (links and redirects). Pure. */
export function pathOf(route: Route): string {
  const e = encodeURIComponent;
  switch (route.name) {
    case 'inbox':
      return `${BASE}/`;
    case 'signin':
      return `${BASE}/signin`;
    case 'history':
      return `${BASE}/history`;
    case 'verdict-approval':
      return `${BASE}/approvals/verdict/${e(route.id)}`;
    case 'registry-approval':
      return `${BASE}/approvals/registry/${e(route.scopeId)}/${e(route.id)}`;
    case 'consultations':
      return `${BASE}/consultations`;
    case 'consultation':
      return `${BASE}/consultations/${e(route.id)}`;
    case 'rules':
      return `${BASE}/rules`;
    case 'not-found':
      return route.path;
  }
}

/** A same-app path to return to after signing in: only paths under /console/ (never another origin or scheme). Pure. */
export function safeNext(next: string | null): string | null {
  if (!next || !next.startsWith(`${BASE}/`) || next.startsWith('//') || next.includes('\\')) return null;
  const route = matchRoute(next.split(/[?#]/)[0]);
  return route.name === 'not-found' || route.name === 'signin' ? null : next;
}

const listeners = new Set<() => void>();

/** Subscribes to route changes (pushState here, back/forward in the browser). */
export function onNavigate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function navigate(path: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  for (const listener of listeners) listener();
}

/** Installs the click and popstate handlers once (main.tsx). */
export function startRouter(): void {
  window.addEventListener('popstate', () => {
    for (const listener of listeners) listener();
  });
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor || anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin) return;
    if (
      !anchor.pathname.startsWith(`${BASE}/`) ||
      anchor.pathname.startsWith(`${BASE}/auth/`) ||
      anchor.pathname.startsWith(`${BASE}/api/`)
    )
      return;
    event.preventDefault();
    navigate(anchor.pathname + anchor.search);
  });
}

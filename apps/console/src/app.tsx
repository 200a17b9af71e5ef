// The shell (docs/console.md "Pages"): the header with the signed-in person and sign-out, the navigation, and the
// router that picks a page from location.pathname. Every page gets the session; none renders before it is known,
// and an ended session (any 401) sends the person to the sign-in page with a way back.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { setUnauthorizedHandler } from './api';
import { ApprovalPage } from './pages/approval';
import { ConsultationPage } from './pages/consultation';
import { ConsultationsPage } from './pages/consultations';
import { HistoryPage } from './pages/history';
import { InboxPage } from './pages/inbox';
import { NotFoundPage } from './pages/not-found';
import { RulesPage } from './pages/rules';
import { SignInPage } from './pages/signin';
import { BASE, matchRoute, navigate, onNavigate, pathOf, type Route } from './router';
import { loadSession, signOut, type Session, type SessionState } from './session';

const NAV: { label: string; route: Route; active: Route['name'][] }[] = [
  { label: 'Inbox', route: { name: 'inbox' }, active: ['inbox', 'verdict-approval', 'registry-approval'] },
  { label: 'History', route: { name: 'history' }, active: ['history'] },
  { label: 'Consultations', route: { name: 'consultations' }, active: ['consultations', 'consultation'] },
  { label: 'Rules', route: { name: 'rules' }, active: ['rules'] },
];

export interface PageProps {
  session: Session;
}

function currentRoute(): Route {
  return matchRoute(location.pathname);
}

function signInPath(): string {
  const here = location.pathname + location.search;
  const route = currentRoute();
  return route.name === 'signin' || route.name === 'inbox'
    ? pathOf({ name: 'signin' })
    : `${pathOf({ name: 'signin' })}?next=${encodeURIComponent(here)}`;
}

export function App() {
  const [route, setRoute] = useState<Route>(currentRoute);
  const [state, setState] = useState<SessionState | null>(null);
  const lastPath = useRef<string | null>(null);

  useEffect(() => onNavigate(() => setRoute(currentRoute())), []);

  useEffect(() => {
    let live = true;
    // A 401 from any call reads the session again; while it is still the same signed-in session, nothing changes
    // (the page shows that call's error), so a forwarded 401 cannot loop through re-rendering.
    const refresh = () =>
      loadSession().then((s) => {
        if (live) setState((previous) => (sameSession(previous, s) ? previous : s));
      });
    setUnauthorizedHandler(() => {
      void refresh();
    });
    void refresh();
    return () => {
      live = false;
      setUnauthorizedHandler(null);
    };
  }, []);

  // Signed out on a page that needs a session: the sign-in page, remembering where the person was going.
  useEffect(() => {
    if (state && !state.signedIn && route.name !== 'signin') navigate(signInPath(), { replace: true });
    if (state && state.signedIn && route.name === 'signin') navigate(pathOf({ name: 'inbox' }), { replace: true });
  }, [state, route]);

  // Focus management: after an in-app navigation, focus moves to the new page's heading so a screen reader
  // announces it and the keyboard starts from the page, not from the link that was activated.
  useEffect(() => {
    document.title = `${titleOf(route)} · Arbiter console`;
    const path = pathOf(route);
    const first = lastPath.current === null;
    if (lastPath.current === path) return;
    lastPath.current = path;
    if (!first) document.querySelector<HTMLElement>('main h1')?.focus();
  }, [route]);

  if (!state) return <p class="loading">Loading the Arbiter console…</p>;
  if (!state.signedIn || route.name === 'signin')
    return (
      <Frame>
        <SignInPage signedOut={state.signedIn ? { oidcProvider: null } : state.signedOut} error={state.signedIn ? null : state.error} />
      </Frame>
    );
  return (
    <Frame session={state.session} route={route}>
      <Page route={route} session={state.session} />
    </Frame>
  );
}

function sameSession(a: SessionState | null, b: SessionState): boolean {
  if (!a || a.signedIn !== b.signedIn) return false;
  if (a.signedIn && b.signedIn) return a.session.principal.id === b.session.principal.id && a.session.csrf_token === b.session.csrf_token;
  return !a.signedIn && !b.signedIn && a.error === b.error && a.signedOut.oidcProvider === b.signedOut.oidcProvider;
}

function titleOf(route: Route): string {
  switch (route.name) {
    case 'inbox':
      return 'Inbox';
    case 'signin':
      return 'Sign in';
    case 'history':
      return 'History';
    case 'verdict-approval':
    case 'registry-approval':
      return `Approval ${route.id}`;
    case 'consultations':
      return 'Consultations';
    case 'consultation':
      return `Consultation ${route.id}`;
    case 'rules':
      return 'Rules';
    case 'not-found':
      return 'Not found';
  }
}

function Page({ route, session }: { route: Route; session: Session }) {
  switch (route.name) {
    case 'inbox':
      return <InboxPage session={session} />;
    case 'history':
      return <HistoryPage session={session} />;
    case 'verdict-approval':
      return <ApprovalPage key={route.id} session={session} target={{ flow: 'verdict', id: route.id }} />;
    case 'registry-approval':
      return (
        <ApprovalPage
          key={`${route.scopeId}/${route.id}`}
          session={session}
          target={{ flow: 'registry', scopeId: route.scopeId, id: route.id }}
        />
      );
    case 'consultations':
      return <ConsultationsPage session={session} />;
    case 'consultation':
      return <ConsultationPage key={route.id} session={session} id={route.id} />;
    case 'rules':
      return <RulesPage session={session} />;
    case 'signin':
    case 'not-found':
      return <NotFoundPage />;
  }
}

function Frame({ session, route, children }: { session?: Session; route?: Route; children: ComponentChildren }) {
  const [signingOut, setSigningOut] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);
  const onSignOut = async () => {
    setSigningOut(true);
    setSignOutError(null);
    if (await signOut()) {
      location.assign(pathOf({ name: 'signin' }));
      return;
    }
    setSigningOut(false);
    setSignOutError('Signing out failed; try again.');
  };
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={`${BASE}/`}>
          Arbiter console
        </a>
        {session ? (
          <div class="who">
            <span>
              Signed in as <strong>{session.principal.name}</strong> <span class="muted">({session.principal.id})</span>
            </span>
            <button type="button" onClick={onSignOut} disabled={signingOut}>
              Sign out
            </button>
            {signOutError ? (
              <span role="alert" class="error-text">
                {signOutError}
              </span>
            ) : null}
          </div>
        ) : null}
      </header>
      {session && route ? (
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.label}>
                <a href={pathOf(item.route)} aria-current={item.active.includes(route.name) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

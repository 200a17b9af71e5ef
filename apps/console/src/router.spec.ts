import { matchRoute, pathOf, safeNext, type Route } from './router';

describe(matchRoute.name, () => {
  it('knows every console route and gives its path back', () => {
    const routes: Route[] = [
      { name: 'inbox' },
      { name: 'signin' },
      { name: 'history' },
      { name: 'verdict-approval', id: 'apr-1' },
      { name: 'registry-approval', scopeId: 'scp-1', id: 'apr-2' },
      { name: 'consultations' },
      { name: 'consultation', id: 'cns-1' },
      { name: 'rules' },
    ];
    for (const route of routes) expect(matchRoute(pathOf(route))).toEqual(route);
    expect(matchRoute('/console')).toEqual({ name: 'inbox' });
  });

  it('answers not-found for other paths, extra segments and encoded slashes', () => {
    for (const path of [
      '/',
      '/consoles',
      '/console/approvals/verdict',
      '/console/history/x',
      '/console/approvals/verdict/a%2Fb',
      '/console/%E0%A4%A',
    ])
      expect(matchRoute(path).name).toBe('not-found');
  });
});

describe(safeNext.name, () => {
  it('keeps only a console page of this origin', () => {
    expect(safeNext('/console/history')).toBe('/console/history');
    expect(safeNext('/console/approvals/verdict/apr-1?x=1')).toBe('/console/approvals/verdict/apr-1?x=1');
    for (const next of [
      null,
      '',
      'https://evil.example/console/',
      '//evil.example/console/',
      '/console/\\evil',
      '/api/v1/tenants',
      '/console/signin',
      '/console/nope',
    ])
      expect(safeNext(next)).toBeNull();
  });
});

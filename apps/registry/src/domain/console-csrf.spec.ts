import { csrfRefusal } from './console-csrf';

describe(csrfRefusal.name, () => {
  const base = {
    method: 'POST',
    csrfHeader: 'tok',
    expectedToken: 'tok',
    secFetchSite: 'same-origin',
    origin: 'http://127.0.0.1:3001',
    ownOrigins: ['http://127.0.0.1:3001'],
  };

  it('lets a same-origin write with the token through, and a read without one', () => {
    expect(csrfRefusal(base)).toBeNull();
    expect(csrfRefusal({ ...base, method: 'GET', csrfHeader: undefined })).toBeNull();
    expect(csrfRefusal({ ...base, secFetchSite: undefined, origin: undefined })).toBeNull();
  });

  it('refuses a write without the token or with a wrong one', () => {
    expect(csrfRefusal({ ...base, csrfHeader: undefined })).toMatch(/Missing X-CSRF-Token/);
    expect(csrfRefusal({ ...base, csrfHeader: 'other' })).toMatch(/Wrong X-CSRF-Token/);
    expect(csrfRefusal({ ...base, expectedToken: null })).toMatch(/Wrong/);
  });

  it('refuses a write from another site even with the token', () => {
    expect(csrfRefusal({ ...base, secFetchSite: 'cross-site' })).toMatch(/cross-site/);
    expect(csrfRefusal({ ...base, secFetchSite: 'same-site' })).toMatch(/same-site/);
    expect(csrfRefusal({ ...base, secFetchSite: undefined, origin: 'https://evil.example' })).toMatch(/another origin/);
    expect(csrfRefusal({ ...base, origin: 'null' })).toMatch(/another origin/);
  });
});

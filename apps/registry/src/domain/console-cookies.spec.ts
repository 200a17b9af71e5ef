import { createHash } from 'node:crypto';
import {
  consoleLoggedUrl,
  consolePathOrHome,
  cookieSecure,
  csrfTokenFor,
  hashToken,
  isLoopbackUrl,
  isTokenFormat,
  newToken,
  sessionCookie,
} from './console-cookies';

describe(cookieSecure.name, () => {
  it('drops Secure on plain http to a loopback host only', () => {
    expect(cookieSecure('http://127.0.0.1:3001')).toBe(false);
    expect(cookieSecure('http://localhost:3001')).toBe(false);
    expect(cookieSecure('http://[::1]:3001')).toBe(false);
    expect(cookieSecure('http://127.8.9.10')).toBe(false);
  });

  it('keeps Secure everywhere else, plain http to another host included', () => {
    expect(cookieSecure('https://arbiter.example.com')).toBe(true);
    expect(cookieSecure('https://127.0.0.1:3001')).toBe(true);
    expect(cookieSecure('http://arbiter.example.com')).toBe(true);
    expect(cookieSecure('http://10.0.0.5:3001')).toBe(true);
    expect(cookieSecure('http://127.0.0.1.example.com')).toBe(true);
  });
});

describe(isLoopbackUrl.name, () => {
  it('knows 127.0.0.0/8, ::1 and localhost, and nothing that only looks like them', () => {
    expect(isLoopbackUrl('http://127.0.0.1')).toBe(true);
    expect(isLoopbackUrl('http://localhost.evil.example')).toBe(false);
    expect(isLoopbackUrl('http://[::ffff:7f00:1]')).toBe(false);
  });
});

describe(sessionCookie.name, () => {
  it('is HttpOnly, SameSite=Strict, Path=/console, with Secure when asked', () => {
    const sut = sessionCookie('tok', 28800, true);
    expect(sut).toBe('arbiter_console=tok; Path=/console; Max-Age=28800; HttpOnly; SameSite=Strict; Secure');
    expect(sessionCookie('tok', 60, false)).not.toMatch(/Secure/);
  });
});

describe(csrfTokenFor.name, () => {
  it('is the SHA-256 of a labelled cookie value, checked with another implementation', () => {
    const token = newToken();
    const expected = createHash('sha256')
      .update(Buffer.from(`arbiter console csrf\n${token}`, 'utf8'))
      .digest('base64url');
    expect(csrfTokenFor(token)).toBe(expected);
    expect(csrfTokenFor(token)).not.toBe(token);
    expect(hashToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
  });
});

describe(isTokenFormat.name, () => {
  it('accepts 32 random bytes in base64url only', () => {
    expect(isTokenFormat(newToken())).toBe(true);
    expect(isTokenFormat('short')).toBe(false);
    expect(isTokenFormat(undefined)).toBe(false);
  });
});

describe(consolePathOrHome.name, () => {
  it('keeps a path inside the console and sends anything else home', () => {
    expect(consolePathOrHome('/console/approvals/verdict/apr-1')).toBe('/console/approvals/verdict/apr-1');
    expect(consolePathOrHome('/console/approvals?status=pending#top')).toBe('/console/approvals?status=pending#top');
    expect(consolePathOrHome('/console/approvals/registry/scp-1/apr%2D2')).toBe('/console/approvals/registry/scp-1/apr%2D2');
    for (const bad of [
      undefined,
      '',
      '/api/v1/tenants',
      '//evil.example/console/',
      '/console//evil',
      '/console/\\evil',
      'https://evil/console/',
      '/console/../api/v1/tenants',
      '/console/../../evil',
      '/console/%2e%2e/api/v1/tenants',
      '/console/.%2E/metrics',
      '/console/./approvals',
    ]) {
      expect(consolePathOrHome(bad)).toBe('/console/');
    }
  });
});

describe(consoleLoggedUrl.name, () => {
  it('masks the tokens of sign-in links and callbacks, and leaves other URLs alone', () => {
    expect(consoleLoggedUrl(`/console/auth/link/${newToken()}`)).toBe('/console/auth/link/…');
    expect(consoleLoggedUrl('/console/auth/callback?code=c&state=s')).toBe('/console/auth/callback?…');
    expect(consoleLoggedUrl('/api/v1/principals?limit=5')).toBe('/api/v1/principals?limit=5');
  });
});

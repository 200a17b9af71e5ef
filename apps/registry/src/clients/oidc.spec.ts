import { oidcSettings } from './oidc';

describe(oidcSettings.name, () => {
  it('is off without OIDC_ISSUER, and a public client without a secret', () => {
    expect(oidcSettings({})).toBeNull();
    expect(oidcSettings({ OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'arbiter' })).toEqual({
      issuer: 'https://login.example.com',
      clientId: 'arbiter',
      clientSecret: undefined,
    });
  });

  it('stops the start naming the variable when the configuration is incomplete or unsafe', () => {
    expect(() => oidcSettings({ OIDC_ISSUER: 'https://login.example.com' })).toThrow(/^OIDC_CLIENT_ID: required/);
    expect(() => oidcSettings({ OIDC_CLIENT_ID: 'arbiter' })).toThrow(/^OIDC_ISSUER: required/);
    expect(() => oidcSettings({ OIDC_ISSUER: 'http://login.example.com', OIDC_CLIENT_ID: 'a' })).toThrow(/^OIDC_ISSUER: must use https/);
    expect(oidcSettings({ OIDC_ISSUER: 'http://127.0.0.1:4000', OIDC_CLIENT_ID: 'a' })?.issuer).toBe('http://127.0.0.1:4000');
  });
});

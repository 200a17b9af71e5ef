import { applySignInChange, type SignInFields } from './principal-sign-in';

const none: SignInFields = { oidc_issuer: null, oidc_subject: null, console_permissions: [] };
const bound: SignInFields = { oidc_issuer: 'https://idp.example', oidc_subject: 'alice', console_permissions: ['read'] };

describe(applySignInChange.name, () => {
  it('binds an issuer and subject sent together to a human principal', () => {
    const sut = applySignInChange('human', none, { oidc_issuer: 'https://idp.example', oidc_subject: 'alice' });
    expect(sut).toEqual({ oidc_issuer: 'https://idp.example', oidc_subject: 'alice', console_permissions: [] });
  });

  it('refuses half of the pair', () => {
    expect(applySignInChange('human', none, { oidc_issuer: 'https://idp.example' })).toMatch(/together/);
    expect(applySignInChange('human', bound, { oidc_subject: 'bob' })).toMatch(/together/);
    expect(applySignInChange('human', bound, { oidc_issuer: null, oidc_subject: 'bob' })).toMatch(/both set or both null/);
  });

  it('unbinds with both null and keeps the pair when neither is sent', () => {
    expect(applySignInChange('human', bound, { oidc_issuer: null, oidc_subject: null })).toEqual({
      ...none,
      console_permissions: ['read'],
    });
    expect(applySignInChange('human', bound, { console_permissions: ['approve', 'approve'] })).toEqual({
      ...bound,
      console_permissions: ['approve'],
    });
  });

  it('refuses sign-in fields on an agent, and accepts an agent without them', () => {
    expect(applySignInChange('agent', none, { console_permissions: ['read'] })).toMatch(/human principals only/);
    expect(applySignInChange('agent', none, { oidc_issuer: 'https://idp.example', oidc_subject: 'x' })).toMatch(/human/);
    expect(applySignInChange('agent', none, { console_permissions: [] })).toEqual(none);
  });

  it('refuses an issuer that is not an http(s) URL', () => {
    for (const issuer of ['idp.example', 'ftp://idp.example', 'https://idp.example/?a=1', 'https://idp.example/#x']) {
      expect(applySignInChange('human', none, { oidc_issuer: issuer, oidc_subject: 's' })).toMatch(/URL/);
    }
  });
});

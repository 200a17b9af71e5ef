import { errorFrom, query, registryPath, seg, verdictPath } from './api';
import { decisionBody } from './approvals-api';
import { signedOutFrom } from './session';

describe(errorFrom.name, () => {
  it('reads the three error dialects and a missing body', () => {
    expect(errorFrom(403, { code: 'not_a_valid_decider', message: 'no', details: { a: 1 } })).toMatchObject({
      status: 403,
      code: 'not_a_valid_decider',
      message: 'no',
      details: { a: 1 },
    });
    expect(errorFrom(404, { detail: 'Scope not found' })).toMatchObject({ status: 404, code: null, message: 'Scope not found' });
    expect(errorFrom(502, undefined)).toMatchObject({ status: 502, code: null, message: 'HTTP 502' });
  });
});

describe('paths', () => {
  it('go through the forwarders, with encoded segments and only the given query entries', () => {
    expect(registryPath('/scopes')).toBe('/console/api/registry/scopes');
    expect(verdictPath(`${seg('tnt-1')}/v1/approvals`)).toBe('/console/api/verdict/tnt-1/v1/approvals');
    expect(seg('a/b?c')).toBe('a%2Fb%3Fc');
    expect(query({ status: 'pending', cursor: null, limit: 5, x: undefined, y: '' })).toBe('?status=pending&limit=5');
    expect(query({})).toBe('');
  });
});

describe(decisionBody.name, () => {
  it('speaks each flow: verdict approve/reject with decider_notes and a grant, registry approved/rejected with comment', () => {
    expect(decisionBody('verdict', { approve: true, notes: 'ok', grantUntil: '2026-11-27T13:00:00.000Z' })).toEqual({
      decision: 'approve',
      decider_notes: 'ok',
      grant: { expires_at: '2026-11-27T13:00:00.000Z' },
    });
    expect(decisionBody('verdict', { approve: false, notes: '  ', grantUntil: '2026-11-27T13:00:00.000Z' })).toEqual({
      decision: 'reject',
    });
    expect(decisionBody('registry', { approve: true, notes: 'fine', grantUntil: null })).toEqual({ decision: 'approved', comment: 'fine' });
    expect(decisionBody('registry', { approve: false, notes: '', grantUntil: '2026-11-27T13:00:00.000Z' })).toEqual({
      decision: 'rejected',
    });
  });
});

describe(signedOutFrom.name, () => {
  it('offers single sign-on only when the session answer says it is configured', () => {
    expect(signedOutFrom({ detail: 'no', oidc: true })).toEqual({ oidcProvider: 'single sign-on' });
    expect(signedOutFrom({ detail: 'no', oidc: { name: 'Okta' } })).toEqual({ oidcProvider: 'Okta' });
    expect(signedOutFrom({ detail: 'no' })).toEqual({ oidcProvider: null });
    expect(signedOutFrom(undefined)).toEqual({ oidcProvider: null });
  });
});

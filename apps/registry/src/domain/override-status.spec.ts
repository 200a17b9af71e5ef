import { overrideStatus } from './override-status';

describe(overrideStatus.name, () => {
  const now = new Date('2026-06-01T12:00:00Z');

  it('is active until expires_at, expired from it on, revoked whenever revoked', () => {
    expect(overrideStatus({ revoked_at: null, expires_at: null }, now)).toBe('active');
    expect(overrideStatus({ revoked_at: null, expires_at: new Date('2026-06-01T12:00:01Z') }, now)).toBe('active');
    expect(overrideStatus({ revoked_at: null, expires_at: new Date('2026-06-01T12:00:00Z') }, now)).toBe('expired');
    expect(overrideStatus({ revoked_at: new Date('2026-05-01T00:00:00Z'), expires_at: new Date('2026-01-01T00:00:00Z') }, now)).toBe(
      'revoked',
    );
  });
});

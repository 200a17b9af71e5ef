import { exitCodeOf, renderReport } from './render';

describe(renderReport.name, () => {
  it('prints the subject, the outcome and one aligned line per check', () => {
    const text = renderReport({
      subject: 'bundle bnd-1',
      valid: false,
      status: 'invalid',
      checks: [
        { check: 'shape', status: 'pass', message: 'version 1' },
        { check: 'signature', status: 'fail', message: 'does not verify' },
        { check: 'chain', status: 'info', message: 'later facts ignored' },
      ],
    });
    expect(text).toBe(
      [
        'bundle bnd-1: INVALID (1 check failed)',
        '  [ok]   shape      version 1',
        '  [FAIL] signature  does not verify',
        '  [info] chain      later facts ignored',
      ].join('\n'),
    );
  });

  it("says UNPINNED, and marks the check, when the keys were not the verifier's own", () => {
    const report = {
      subject: 'evidence pack of cns-1',
      valid: false,
      status: 'unpinned' as const,
      checks: [{ check: 'trust', status: 'unpinned' as const, message: 'no trusted keys given' }],
    };
    expect(renderReport(report)).toBe(
      [
        'evidence pack of cns-1: UNPINNED (no check failed, but only against keys you were handed, not keys you hold: give --trust <file>)',
        '  [PIN?] trust  no trusted keys given',
      ].join('\n'),
    );
  });
});

describe(exitCodeOf.name, () => {
  it('is 0 for a valid report, 1 for an invalid one, 3 for an unpinned one', () => {
    const of = (status: 'valid' | 'invalid' | 'unpinned') => exitCodeOf({ subject: 's', valid: status === 'valid', status, checks: [] });
    expect([of('valid'), of('invalid'), of('unpinned')]).toEqual([0, 1, 3]);
  });
});

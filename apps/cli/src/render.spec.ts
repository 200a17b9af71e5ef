import { renderReport } from './render';

describe(renderReport.name, () => {
  it('prints the subject, the outcome and one aligned line per check', () => {
    const text = renderReport({
      subject: 'bundle bnd-1',
      valid: false,
      checks: [
        { check: 'shape', status: 'pass', message: 'version 1' },
        { check: 'signature', status: 'fail', message: 'does not verify' },
        { check: 'chain', status: 'info', message: 'later facts ignored' },
      ],
    });
    expect(text).toBe(['bundle bnd-1: INVALID (1 check failed)', '  [ok]   shape      version 1', '  [FAIL] signature  does not verify', '  [info] chain      later facts ignored'].join('\n'));
  });
});

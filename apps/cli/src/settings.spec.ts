import { checkBody, keyValues, renderCheck, scalarOf } from './commands/check';
import { formatEnvFile, lookup, parseEnvFile, type SettingsFiles } from './settings';

describe('env files', () => {
  it('reads KEY=value lines, quotes and export aside, and ignores every other line', () => {
    const text =
      '# comment\n\nARBITER_VERDICT_URL=http://127.0.0.1:4002\nexport ARBITER_TENANT="tnt-1"\nX=\'a b\'\n$(rm -rf /)\nnot a line\n';
    expect(parseEnvFile(text)).toEqual({ ARBITER_VERDICT_URL: 'http://127.0.0.1:4002', ARBITER_TENANT: 'tnt-1', X: 'a b' });
  });

  it('writes what it reads back, and refuses a value a shell would interpret', () => {
    const values = { ARBITER_REGISTRY_URL: 'http://127.0.0.1:3001', ARBITER_API_KEY: 'ak-0123abcd' };
    const text = formatEnvFile(['header'], values);
    expect(text).toBe('# header\nARBITER_REGISTRY_URL=http://127.0.0.1:3001\nARBITER_API_KEY=ak-0123abcd\n');
    expect(parseEnvFile(text)).toEqual(values);
    expect(() => formatEnvFile([], { X: 'a;rm -rf /' })).toThrow('a value a shell would interpret');
    expect(() => formatEnvFile([], { X: '$(id)' })).toThrow();
  });
});

describe(lookup.name, () => {
  const files: SettingsFiles = {
    dir: '/d',
    stack: { ARBITER_VERDICT_URL: 'http://stack', ARBITER_API_KEY: 'ak-planted' },
    quickstart: { ARBITER_VERDICT_URL: 'http://quick', ARBITER_API_KEY: 'ak-q', OTHER: 'x' },
  };

  it('takes the environment, then the quickstart file, then the stack file', () => {
    expect(lookup('ARBITER_VERDICT_URL', { ARBITER_VERDICT_URL: 'http://env' }, files)).toEqual({
      value: 'http://env',
      origin: 'environment',
    });
    expect(lookup('ARBITER_VERDICT_URL', { ARBITER_VERDICT_URL: '' }, files)).toEqual({ value: 'http://quick', origin: 'quickstart' });
    expect(lookup('ARBITER_VERDICT_URL', {}, { ...files, quickstart: {} })).toEqual({ value: 'http://stack', origin: 'stack' });
    expect(lookup('ARBITER_VERDICT_URL', {}, { stack: {}, quickstart: {} })).toBeUndefined();
  });

  it('takes from each file only the variables it is meant to hold: no key from the stack file', () => {
    expect(lookup('ARBITER_API_KEY', {}, { ...files, quickstart: {} })).toBeUndefined();
    expect(lookup('OTHER', {}, files)).toBeUndefined();
  });
});

describe('check arguments', () => {
  it('reads scalars as JSON when they parse, else as text', () => {
    expect([scalarOf('5000'), scalarOf('true'), scalarOf('"5000"'), scalarOf('eu'), scalarOf('{"a":1}')]).toEqual([
      5000,
      true,
      '5000',
      'eu',
      '{"a":1}',
    ]);
  });

  it('nests dotted parameters, merges JSON objects, and refuses keys that are not keys', () => {
    expect(keyValues(['transfer.amount=5000', 'transfer.currency=EUR', 'to=acct-2'], '--param', true)).toEqual({
      transfer: { amount: 5000, currency: 'EUR' },
      to: 'acct-2',
    });
    expect(keyValues(['{"region":"eu"}', 'tier=1'], '--scope', false)).toEqual({ region: 'eu', tier: 1 });
    expect(keyValues(['a.b=1'], '--scope', false)).toEqual({ 'a.b': 1 });
    for (const bad of ['__proto__.x=1', 'constructor=1', 'a..b=1', 'novalue', '=1'])
      expect(() => keyValues([bad], '--param', true)).toThrow();
    expect(() => keyValues(['a=1', 'a.b=2'], '--param', true)).toThrow('a is already a value');
  });

  it('builds the body of POST check', () => {
    expect(
      checkBody({
        action: 'bank.transfer',
        resource: 'acct:1',
        scope: ['region=eu'],
        param: ['amount=5000'],
        parameters: '{"to":"x","amount":1}',
        onBehalfOf: 'hum-1',
        explain: true,
      }),
    ).toEqual({
      action: 'bank.transfer',
      resource: 'acct:1',
      scope: { region: 'eu' },
      parameters: { to: 'x', amount: 5000 },
      on_behalf_of: 'hum-1',
      explain: true,
    });
    expect(checkBody({ action: 'a', resource: 'r' })).toEqual({ action: 'a', resource: 'r', scope: {} });
    expect(() => checkBody({ action: 'a', resource: 'r', context: '[1]' })).toThrow('--context must be a JSON object');
  });
});

describe(renderCheck.name, () => {
  it('says a budget that blocks in words: where its window stood and the amount that would fit', () => {
    const answer = {
      operation_status: 'complete',
      verdict: 'blocked',
      consultation_id: 'cns-1',
      dominating_rule_id: 'rul-b',
      cited_rule_ids: ['rul-b'],
      signed_verdict: 'x.y.z',
      limits: [{ key: '{"principal":"agn-1"}', max: 1500, rule_id: 'rul-b', used_after: 300, used_before: 300, window: '24h' }],
      explanation: {
        not_invertible: [{ rule_id: 'rul-c', field: 'limit.count', op: 'limit', reason: 'window full: 50 of 50 in 1h' }],
        to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 1200 }] }],
      },
    };
    expect(
      renderCheck(answer as never)
        .split('\n')
        .slice(0, 4),
    ).toEqual([
      'blocked  (consultation cns-1, rule rul-b)',
      '  window 24h of rul-b {"principal":"agn-1"}: 300 of 1500 used before, 300 after',
      '  allowed if amount <= 1200',
      '  no change of the operation undoes rul-c: window full: 50 of 50 in 1h',
    ]);
  });
});

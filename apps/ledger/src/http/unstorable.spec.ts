import { unstorableInParams, unstorableInQuery } from './unstorable';

describe(unstorableInQuery.name, () => {
  it('names the query parameter whose value or name holds U+0000', () => {
    expect(unstorableInQuery('/streams/s/facts?limit=5&cursor=a%00b')).toEqual({ field: 'cursor', reason: 'nul', inName: false });
    expect(unstorableInQuery('/x?ok=1&bad%00name=1')).toEqual({ field: 'bad\u0000name', reason: 'nul', inName: true });
  });

  it('passes URLs without %00 in the query, including %00 in the path (the route names that)', () => {
    expect(unstorableInQuery('/streams/s/facts?limit=5&offset=%2000')).toBeNull();
    expect(unstorableInQuery('/facts/%00')).toBeNull();
    expect(unstorableInQuery('/facts/x?')).toBeNull();
  });
});

describe(unstorableInParams.name, () => {
  it('names the decoded path parameter holding U+0000', () => {
    expect(unstorableInParams({ stream_id: 'ok', fact_id: 'f\u0000' })).toEqual({ field: 'fact_id', reason: 'nul', inName: false });
    expect(unstorableInParams({ rest: ['a', '\u0000'] })).toEqual({ field: 'rest', reason: 'nul', inName: false });
    expect(unstorableInParams({ stream_id: 'fine' })).toBeNull();
  });
});

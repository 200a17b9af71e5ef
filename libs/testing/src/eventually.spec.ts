import { eventually } from './eventually';

/** A probe answering the given values in turn (the last one from then on). */
function answers<T>(...values: Array<T | Error>): () => Promise<T> {
  let i = 0;
  return async () => {
    const value = values[Math.min(i++, values.length - 1)];
    if (value instanceof Error) throw value;
    return value as T;
  };
}

describe(eventually.name, () => {
  it('resolves with the first value other than undefined, null or false', async () => {
    expect(await eventually('a value', answers<number | undefined | null | false>(undefined, null, false, 0), { intervalMs: 1 })).toBe(0);
  });

  it('asks again while the probe throws, and resolves with what it returns then', async () => {
    expect(await eventually('a value', answers<string>(new Error('not yet'), new Error('not yet'), 'ready'), { intervalMs: 1 })).toBe(
      'ready',
    );
  });

  it('waits until `until` accepts the value: false or a thrown assertion is "not yet"', async () => {
    expect(await eventually('three', answers(1, 2, 3), { intervalMs: 1, until: (n) => n === 3 })).toBe(3);
    expect(await eventually('an empty list', answers([1], []), { intervalMs: 1, until: (rows) => expect(rows).toEqual([]) })).toEqual([]);
  });

  it('accepts an undefined value when `until` says so', async () => {
    expect(
      await eventually('nothing left', answers<string | undefined>('x', undefined), { intervalMs: 1, until: (v) => v === undefined }),
    ).toBeUndefined();
  });

  it('names what it waited for, the tries and the last value seen when the time is up', async () => {
    const error = await eventually('the third delivery', answers(1, 2), { timeoutMs: 30, intervalMs: 5, until: (n) => n === 3 }).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^eventually: gave up waiting for the third delivery after \d+\.\d s and \d+ tries; the last try gave this value: 2$/,
    );
  });

  it('gives the last error seen, as message and cause', async () => {
    const last = new Error('connection refused');
    const error = (await eventually('the ledger', answers<number>(new Error('first'), last), { timeoutMs: 30, intervalMs: 5 }).catch(
      (e: Error) => e,
    )) as Error;
    expect(error.message).toMatch(/the last try gave this error: connection refused$/);
    expect(error.cause).toBe(last);
  });

  it('tries at least once even with no time at all', async () => {
    expect(await eventually('a value', answers('now'), { timeoutMs: 0 })).toBe('now');
    const error = (await eventually('a value', answers<undefined>(undefined), { timeoutMs: 0 }).catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/and 1 try; the last try gave this value: undefined$/);
  });
});

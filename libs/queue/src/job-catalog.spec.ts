import { QueueError } from './errors';
import { defineJob } from './job';
import { defineCatalog, findJob, queuesOf } from './job-catalog';

const job = (name: string, queue: string) =>
  defineJob<{ n: number }>({
    name,
    queue,
    schema: { type: 'object', required: ['n'], properties: { n: { type: 'number' } } },
    retry: { attempts: 1, backoff: { type: 'fixed', delay: 0 } },
  });

describe(defineCatalog.name, () => {
  it('keys jobs by their name and freezes the catalog', () => {
    const a = job('test.v1.a', 'one');
    const sut = defineCatalog({ 'test.v1.a': a });
    expect(sut['test.v1.a']).toBe(a);
    expect(Object.isFrozen(sut)).toBe(true);
  });

  it('rejects a key that is not the job name with invalid_catalog', () => {
    expect(() => defineCatalog({ 'test.v2.a': job('test.v1.a', 'one') })).toThrow(expect.objectContaining({ code: 'invalid_catalog' }));
  });
});

describe(findJob.name, () => {
  const sut = defineCatalog({ 'test.v1.a': job('test.v1.a', 'one') });

  it('finds a job by name', () => {
    expect(findJob(sut, 'test.v1.a').name).toBe('test.v1.a');
  });

  it.each(['test.v2.a', 'constructor', 'toString', '__proto__'])('answers unknown_job for %j', (name) => {
    let caught: unknown;
    try {
      findJob(sut, name);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(QueueError);
    expect((caught as QueueError).code).toBe('unknown_job');
  });
});

describe(queuesOf.name, () => {
  it('lists each queue once, in catalog order', () => {
    const sut = defineCatalog({
      'test.v1.a': job('test.v1.a', 'one'),
      'test.v1.b': job('test.v1.b', 'two'),
      'test.v1.c': job('test.v1.c', 'one'),
    });
    expect(queuesOf(sut)).toEqual(['one', 'two']);
  });
});

import { QueueError } from './errors';
import { checkHandlers } from './handlers';
import { defineJob } from './job';
import { defineCatalog } from './job-catalog';

const job = (name: string) =>
  defineJob<{ n: number }>({
    name,
    queue: 'test',
    schema: { type: 'object', required: ['n'], properties: { n: { type: 'number' } } },
    retry: { attempts: 1, backoff: { type: 'fixed', delay: 0 } },
  });

const catalog = defineCatalog({ 'test.v1.a': job('test.v1.a'), 'test.v1.b': job('test.v1.b') });
const handler = async () => undefined;

function mismatch(handlers: Record<string, unknown>): QueueError {
  try {
    checkHandlers(catalog, handlers);
  } catch (err) {
    expect(err).toBeInstanceOf(QueueError);
    return err as QueueError;
  }
  throw new Error('expected checkHandlers to throw');
}

describe(checkHandlers.name, () => {
  it('accepts exactly one handler per catalog job', () => {
    expect(() => checkHandlers(catalog, { 'test.v1.a': handler, 'test.v1.b': handler })).not.toThrow();
  });

  it('rejects a catalog job without a handler with handler_mismatch', () => {
    const sut = mismatch({ 'test.v1.a': handler });
    expect(sut.code).toBe('handler_mismatch');
    expect(sut.details).toEqual({ missing: ['test.v1.b'], unknown: [] });
    expect(sut.message).toContain('no handler for test.v1.b');
  });

  it('rejects a handler for a job not in the catalog with handler_mismatch', () => {
    const sut = mismatch({ 'test.v1.a': handler, 'test.v1.b': handler, 'test.v2.b': handler });
    expect(sut.code).toBe('handler_mismatch');
    expect(sut.details).toEqual({ missing: [], unknown: ['test.v2.b'] });
  });

  it('reports missing and unknown handlers together', () => {
    expect(mismatch({ 'test.v1.a': handler, 'test.v1.c': handler }).details).toEqual({ missing: ['test.v1.b'], unknown: ['test.v1.c'] });
  });

  it('counts a non-function handler as missing', () => {
    expect(mismatch({ 'test.v1.a': handler, 'test.v1.b': 'nope' }).details).toEqual({ missing: ['test.v1.b'], unknown: [] });
  });

  it('does not take an inherited property for a handler', () => {
    const handlers = Object.create({ 'test.v1.b': handler }) as Record<string, unknown>;
    handlers['test.v1.a'] = handler;
    expect(mismatch(handlers).details).toEqual({ missing: ['test.v1.b'], unknown: [] });
  });
});

import { QueueError } from './errors';
import { defineJob, JOB_NAME_PATTERN, type JobSpec, type PayloadOf, type ResultOf } from './job';

interface Greeting {
  to: string;
  at: string;
  count: number;
}

const spec: JobSpec<Greeting> = {
  name: 'test.v1.greet',
  queue: 'test',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['to', 'at', 'count'],
    properties: {
      to: { type: 'string', minLength: 1 },
      at: { type: 'string', format: 'date-time' },
      count: { type: 'integer', minimum: 0 },
    },
  },
  retry: { attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(QueueError);
    return (err as QueueError).code;
  }
  return undefined;
}

describe(defineJob.name, () => {
  it.each(['system.v1.ping', 'outbox.v1.relay', 'webhook.v12.deliver', 'rule_cache.v2.refresh_all'])(
    'accepts the versioned name %s',
    (name) => {
      expect(JOB_NAME_PATTERN.test(name)).toBe(true);
      expect(defineJob({ ...spec, name }).name).toBe(name);
    },
  );

  it.each([
    'ping',
    'system.ping',
    'system.v0.ping',
    'system.V1.ping',
    'system.v1',
    'system.v1.ping.extra',
    'System.v1.ping',
    'system.v1.Ping',
    'system.v1.ping:x',
    'system.v01.ping',
    '',
  ])('rejects the name %j with invalid_job_name', (name) => {
    expect(codeOf(() => defineJob({ ...spec, name }))).toBe('invalid_job_name');
  });

  it('rejects a queue name BullMQ cannot hold with invalid_job_definition', () => {
    expect(codeOf(() => defineJob({ ...spec, queue: 'a:b' }))).toBe('invalid_job_definition');
  });

  it.each([0, 1.5, -1])('rejects retry.attempts %p with invalid_job_definition', (attempts) => {
    expect(codeOf(() => defineJob({ ...spec, retry: { ...spec.retry, attempts } }))).toBe('invalid_job_definition');
  });

  it('rejects a schema with an unknown keyword (ajv strict mode) with invalid_job_definition', () => {
    const schema = { ...spec.schema, maxItemz: 3 } as unknown as JobSpec<Greeting>['schema'];
    expect(codeOf(() => defineJob({ ...spec, schema }))).toBe('invalid_job_definition');
  });

  it('keeps the retry policy next to the name and applies default retention', () => {
    const sut = defineJob(spec);
    expect(sut.retry).toEqual({ attempts: 3, backoff: { type: 'exponential', delay: 1000 } });
    expect(sut.removeOnComplete).toEqual({ age: 86400, count: 10000 });
    expect(sut.removeOnFail).toEqual({ age: 604800 });
    expect(Object.isFrozen(sut)).toBe(true);
  });

  describe('parse', () => {
    const sut = defineJob<Greeting, { ok: true }>(spec);

    it('returns a valid payload unchanged', () => {
      const payload = { to: 'ada', at: '2026-01-02T03:04:05Z', count: 2 };
      expect(sut.parse(payload)).toBe(payload);
    });

    it('rejects a bad payload with invalid_payload listing every problem', () => {
      let caught: QueueError | undefined;
      try {
        sut.parse({ to: '', at: 'yesterday', extra: 1 });
      } catch (err) {
        caught = err as QueueError;
      }
      expect(caught).toBeInstanceOf(QueueError);
      expect(caught!.code).toBe('invalid_payload');
      expect(caught!.details).toEqual(
        expect.arrayContaining([
          "(payload) must have required property 'count'",
          '(payload) has unknown property "extra"',
          '/to must NOT have fewer than 1 characters',
          '/at must match format "date-time"',
        ]),
      );
    });

    it.each([null, 'text', 42, []])('rejects the non-object payload %j', (payload) => {
      expect(codeOf(() => sut.parse(payload))).toBe('invalid_payload');
    });
  });

  it('carries payload and result types for handlers', () => {
    const sut = defineJob<Greeting, { ok: true }>(spec);
    // Compile-time checks: these assignments fail to type-check if the inference breaks.
    const payload: PayloadOf<typeof sut> = { to: 'x', at: '2026-01-01T00:00:00Z', count: 0 };
    const result: ResultOf<typeof sut> = { ok: true };
    expect([payload.count, result.ok, sut.name]).toEqual([0, true, spec.name]);
  });
});

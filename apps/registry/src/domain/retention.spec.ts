import { retentionProblem } from './retention';

const MIN = 60_000;
const DAY = 86_400_000;

describe('retentionProblem', () => {
  it('accepts no retention, and values on either bound', () => {
    expect(retentionProblem(undefined, MIN, 10 * DAY)).toBeNull();
    expect(retentionProblem({ consultations: '1m', deliveries: '10d', events: '240h' }, MIN, 10 * DAY)).toBeNull();
  });

  it('answers 422 naming the bound just outside it', () => {
    expect(retentionProblem({ consultations: '59s' }, MIN, 10 * DAY)).toEqual({
      status: 422,
      detail: 'body.settings.retention.consultations: 59s is below RETENTION_MIN (1m)',
    });
    expect(retentionProblem({ events: '14401m' }, MIN, 10 * DAY)).toEqual({
      status: 422,
      detail: 'body.settings.retention.events: 14401m is above RETENTION_MAX (10d)',
    });
  });

  it('answers 400 for what is not a retention', () => {
    for (const bad of [null, '90d', [], { consultations: '1w' }, { consultations: 90 }, { weeks: '1d' }, { events: '' }]) {
      expect(retentionProblem(bad, MIN, 10 * DAY)?.status).toBe(400);
    }
  });
});

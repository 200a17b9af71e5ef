// A webhook attempt reads its rows where they lie (docs/operations.md "A webhook attempt"): a delivery's id carries its
// event's time, so the attempt's statements on the partitioned tables name their partition; an id of an older form,
// a retention changed since and an outbox row of an older release are still found, by a look in every partition.
import { newId, timeOfOrderedId } from '@arbiter/db';
import { Client } from 'pg';
import { sql, type Api } from './fixtures';
import { startDeliveryRig, type DeliveryRig } from './delivery-rig';

jest.setTimeout(90_000);

const DAY = 86_400_000;
const PARTITIONED = ['events', 'webhook_deliveries', 'webhook_attempts'] as const;

let rig: DeliveryRig;
let admin: Api;
let subscriptionId: string;
/** The statements on the partitioned tables the registry ran since the last reset, with their parameters. */
let statements: Array<{ text: string; values: unknown[] }> = [];

beforeAll(async () => {
  rig = await startDeliveryRig('lookup', {});
  admin = rig.admin;
  // Daily partitions as maintenance keeps them at steady state: 30 around now + 30 days (deliveries, attempts), 30
  // around now + 90 days (events); the default partition takes anything else.
  for (const table of PARTITIONED) {
    for (const r of await sql<{ name: string }>(
      rig.h,
      `SELECT relid::regclass::text AS name FROM pg_partition_tree($1) WHERE isleaf AND relid::regclass::text <> $1 || '_default'`,
      [table],
    ))
      await sql(rig.h, `DROP TABLE ${r.name}`);
    const first = Math.floor((Date.now() + (table === 'events' ? 75 : 15) * DAY) / DAY) * DAY;
    for (let d = 0; d < 30; d++) {
      const from = new Date(first + d * DAY);
      await sql(
        rig.h,
        `CREATE TABLE ${table}_p${from.toISOString().slice(0, 10).replaceAll('-', '')}t0000 PARTITION OF ${table}
           FOR VALUES FROM ('${from.toISOString()}') TO ('${new Date(from.getTime() + DAY).toISOString()}')`,
      );
    }
  }
  subscriptionId = (
    await admin.post(`/api/v1/scopes/${rig.scopeId}/webhooks`, { url: rig.receiver.url, events: ['approval.requested'] }).expect(201)
  ).body.id;
  // Every statement any pg client of this process sends: the registry runs in it.
  const query = Client.prototype.query;
  jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const [text, values] = args as [unknown, unknown];
    const sqlText = typeof text === 'string' ? text : (text as { text?: string })?.text;
    if (sqlText && PARTITIONED.some((t) => sqlText.includes(`"${t}"`)))
      statements.push({ text: sqlText, values: Array.isArray(values) ? values : ((text as { values?: unknown[] }).values ?? []) });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
});
afterAll(async () => {
  jest.restoreAllMocks();
  await rig.stop();
});

/** How many partitions a statement is planned over with its parameters (EXPLAIN on a client of the test's own). */
async function partitionsScanned(s: { text: string; values: unknown[] }): Promise<number> {
  const c = new Client({ connectionString: rig.h.databaseUrl });
  await c.connect();
  try {
    await c.query('BEGIN');
    const { rows } = await (Client.prototype.query as jest.Mock)
      .getMockImplementation()!
      .call(c, `EXPLAIN (FORMAT JSON) ${s.text}`, s.values);
    await c.query('ROLLBACK');
    const plan = JSON.stringify(rows[0]['QUERY PLAN']);
    return new Set(plan.match(/"Relation Name":"(events|webhook_deliveries|webhook_attempts)_[a-z0-9]+"/g) ?? []).size;
  } finally {
    await c.end();
  }
}

/** One approval.requested event fanned out to the subscription: its delivery's id and the event's row. */
async function oneDelivery(): Promise<{ deliveryId: string; attempt: number; eventCreatedAt: Date }> {
  await rig.requestApproval();
  const { dispatch } = await rig.relay();
  expect(dispatch).toHaveLength(1);
  const [row] = await sql<{ created_at: Date }>(
    rig.h,
    `SELECT e.created_at FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = $1`,
    [dispatch[0].delivery_id],
  );
  return { deliveryId: dispatch[0].delivery_id, attempt: dispatch[0].attempt, eventCreatedAt: row.created_at };
}

describe('a webhook attempt reads its rows where they lie', () => {
  it('gives a delivery an id carrying its event time, and plans each statement of its attempt over one partition', async () => {
    const { deliveryId, attempt, eventCreatedAt } = await oneDelivery();
    expect(timeOfOrderedId(deliveryId, 'dlv-')).toBe(eventCreatedAt.getTime());
    statements = [];
    expect((await rig.attempt(deliveryId, attempt)).outcome).toBe('succeeded');
    const reads = statements.filter((s) => /^\s*(SELECT|UPDATE)/i.test(s.text));
    // The lock (with the subscription's secrets), the stale attempts, the start, the event, the finish, the result
    // (answering the delivery's state): the delivery is read once, by its lock.
    expect(reads.length).toBeGreaterThanOrEqual(6);
    expect(reads.filter((s) => /^\s*SELECT\b[\s\S]*\bFROM\s+"?(public"\.")?webhook_deliveries"?/i.test(s.text))).toHaveLength(1);
    const scanned = await Promise.all(reads.map(partitionsScanned));
    expect(scanned.every((n) => n === 1)).toBe(true);
    const [row] = await sql<{ status: string }>(rig.h, `SELECT status FROM webhook_deliveries WHERE id = $1`, [deliveryId]);
    expect(row.status).toBe('succeeded');
    expect(rig.receiver.received.at(-1)!.headers['webhook-id']).toBe(deliveryId);
  });

  it('plans the relay’s read of a batch’s events over their partition, from the keep_until each outbox row names', async () => {
    await rig.requestApproval();
    const [outboxRow] = await sql<{ event_keep_until: Date | null; keep_until: Date }>(
      rig.h,
      `SELECT o.event_keep_until, e.keep_until FROM outbox o JOIN events e ON e.id = o.event_id`,
    );
    expect(outboxRow.event_keep_until).toEqual(outboxRow.keep_until);
    statements = [];
    const { dispatch } = await rig.relay();
    const eventReads = statements.filter((s) => /^\s*SELECT/i.test(s.text) && s.text.includes('FROM "public"."events"'));
    expect(eventReads).toHaveLength(1);
    expect(await partitionsScanned(eventReads[0])).toBe(1);
    for (const d of dispatch) expect((await rig.attempt(d.delivery_id, d.attempt)).outcome).toBe('succeeded');
  });

  it('still finds and delivers what its id or outbox row does not place: an id of an older form, a retention changed since, an outbox row of an older release', async () => {
    // A delivery made by an older release (random id), of an event kept under a retention no tenant names any more.
    await rig.requestApproval();
    await sql(rig.h, `UPDATE outbox SET event_keep_until = NULL`);
    await sql(rig.h, `UPDATE events SET keep_until = keep_until + interval '1 day' WHERE id = (SELECT event_id FROM outbox)`);
    const { dispatch } = await rig.relay();
    expect(dispatch).toHaveLength(1);
    // Random: its first 12 digits read as a time may lie thousands of years ahead (here they do).
    const oldId = `dlv-ffff${newId('').slice(4)}`;
    await sql(rig.h, `UPDATE webhook_deliveries SET id = $2, keep_until = keep_until - interval '2 days' WHERE id = $1`, [
      dispatch[0].delivery_id,
      oldId,
    ]);
    const before = rig.receiver.received.length;
    expect((await rig.attempt(oldId, dispatch[0].attempt)).outcome).toBe('succeeded');
    expect(rig.receiver.received).toHaveLength(before + 1);
    expect(rig.receiver.received.at(-1)!.headers['webhook-id']).toBe(oldId);
    const [row] = await sql<{ status: string; attempts: string }>(
      rig.h,
      `SELECT d.status, (SELECT count(*) FROM webhook_attempts a WHERE a.delivery_id = d.id AND a.outcome = 'succeeded') AS attempts
         FROM webhook_deliveries d WHERE d.id = $1`,
      [oldId],
    );
    expect(row).toEqual({ status: 'succeeded', attempts: '1' });
    const listed = (await admin.get(`/api/v1/webhooks/${subscriptionId}/deliveries?limit=1000`).expect(200)).body.items as Array<{
      id: string;
    }>;
    expect(listed.map((d) => d.id)).toContain(oldId);
  });

  it('answers 404 for a delivery that does not exist, after looking everywhere', async () => {
    const unknown = `dlv-${Date.now().toString(16).padStart(12, '0')}000000000000`;
    await rig.internal(`/webhook-deliveries/${unknown}/attempts`, { attempt: 1 }).expect(404);
  });
});

// See delivery-attempt.mjs.
import crypto from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import pino from 'pino';
import { applyMigrations, createPrismaClient, partitionName } from '@arbiter/db';
import { PrismaClient } from '../../apps/registry/src/generated/prisma/client';
import { EventsRepository } from '../../apps/registry/src/repositories/events.repository';
import { OutboxRepository } from '../../apps/registry/src/repositories/outbox.repository';
import { OutboxRelayService } from '../../apps/registry/src/services/outbox-relay.service';
import { WebhookDeliveryService } from '../../apps/registry/src/services/webhook-delivery.service';
import { createWebhookKeys } from '../../apps/registry/src/keys';
import { RetentionService } from '../../apps/registry/src/services/retention.service';
import { newSecretBytes, sealSecret } from '../../apps/registry/src/domain/standard-webhooks';
import type { WebhookSender } from '../../apps/registry/src/clients/webhook-sender';
import { processCpuSeconds, withOneBackend } from '../verdict/harness';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const EVENT_PARTITIONS = Number(option('event-partitions', '90'));
const DELIVERY_PARTITIONS = Number(option('delivery-partitions', '30'));
const ROWS = Number(option('rows', '200'));
const EVENTS = Number(option('events', '500'));
const ROUNDS = Number(option('rounds', '3'));
/** --statements: pg_stat_statements loaded; the statements of the last round's attempts are printed, costliest first. */
const STATEMENTS = args.includes('--statements');
const DAY = 86_400_000;
const TENANT = 'tnt-bench';
const SUB = 'whs-bench';

const day = (ms: number) => Math.floor(ms / DAY) * DAY;

async function partitionsOf(pool: import('pg').Pool, table: string, days: number, fill: (from: number, n: number) => Promise<void>) {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT relid::regclass::text AS name FROM pg_partition_tree($1) WHERE isleaf AND relid::regclass::text <> $1 || '_default'`,
    [table],
  );
  for (const r of rows) await pool.query(`DROP TABLE ${r.name}`);
  const retention = days * DAY;
  for (let d = 0; d < days; d++) {
    const from = day(Date.now() + retention - d * DAY);
    await pool.query(
      `CREATE TABLE ${partitionName(table, from)} PARTITION OF ${table} FOR VALUES FROM ('${new Date(from).toISOString()}') TO ('${new Date(from + DAY).toISOString()}')`,
    );
    await fill(from, ROWS);
  }
  // Ahead of today's rows: the partition a row written now lands in.
  const ahead = day(Date.now() + retention) + DAY;
  await pool.query(
    `CREATE TABLE ${partitionName(table, ahead)} PARTITION OF ${table} FOR VALUES FROM ('${new Date(ahead).toISOString()}') TO ('${new Date(ahead + DAY).toISOString()}')`,
  );
}

async function main() {
  await withOneBackend(
    'delivery',
    async ({ url, pool, pid }) => {
      await applyMigrations(url, path.join(process.cwd(), 'prisma', 'registry', 'migrations'));
      if (STATEMENTS) await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      const kek = crypto.randomBytes(32);
      await pool.query(`INSERT INTO tenants (id, slug, name) VALUES ($1, 'bench', 'bench')`, [TENANT]);
      await pool.query(
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, secret_ciphertext, secret_created_at)
       VALUES ($1, $2, 'https://hooks.example/bench', '{"*"}', $3, now())`,
        [SUB, TENANT, sealSecret(newSecretBytes(), SUB, kek)],
      );
      // Rows of the past days, as the retention keeps them: events, and a delivery with one attempt for each.
      await partitionsOf(pool, 'events', EVENT_PARTITIONS, async (from, n) => {
        await pool.query(
          `INSERT INTO events (id, seq, tenant_id, scope_ids, type, entity_type, entity_id, data, created_at, keep_until, idempotency_key)
         SELECT 'evt-' || lpad(to_hex(s), 16, '0'), s, $1, '{}', 'rule.created', 'rule', 'rul-x', '{}', k - interval '90 days', k, 'key-' || s
           FROM (SELECT nextval('events_seq_seq') AS s, to_timestamp($2::bigint / 1000.0) + (g * interval '1 second') AS k FROM generate_series(1, $3) g) x`,
          [TENANT, from, n],
        );
      });
      for (const table of ['webhook_deliveries', 'webhook_attempts'])
        await partitionsOf(pool, table, DELIVERY_PARTITIONS, async (from, n) => {
          const fill =
            table === 'webhook_deliveries'
              ? `INSERT INTO webhook_deliveries (id, tenant_id, subscription_id, event_id, event_type, status, attempt_count, max_attempts, keep_until)
               SELECT 'dlv-old-' || $2::text || '-' || g, $1, '${SUB}', 'evt-old-' || $2::text || '-' || g, 'rule.created', 'succeeded', 1, 5,
                      to_timestamp($2::bigint / 1000.0) + (g * interval '1 second') FROM generate_series(1, $3) g`
              : `INSERT INTO webhook_attempts (id, tenant_id, delivery_id, subscription_id, attempt, key_id, outcome, keep_until)
               SELECT 'wat-old-' || $2::text || '-' || g, $1, 'dlv-old-' || $2::text || '-' || g, '${SUB}', 1, 'k', 'succeeded',
                      to_timestamp($2::bigint / 1000.0) + (g * interval '1 second') FROM generate_series(1, $3) g`;
          await pool.query(fill, [TENANT, from, n]);
        });
      await pool.query('ANALYZE');

      const prisma = createPrismaClient(PrismaClient, pool);
      const logger = pino({ level: 'silent' });
      const answered: WebhookSender = {
        send: async () => ({ ok: true, retryable: true, status_code: 204, error: null, duration_ms: 1 }),
      } as unknown as WebhookSender;
      const retentions = new RetentionService(pool);
      const relay = new OutboxRelayService(prisma, { maxAttempts: 5, leaseMs: 60_000 }, logger);
      const deliveries = new WebhookDeliveryService(
        prisma,
        createWebhookKeys(pool, kek),
        answered,
        { retryBaseMs: 1000, retryMaxDelayMs: 60_000, timeoutMs: 10_000, maxConsecutiveFailures: 50, keyEncryptionKey: kek },
        logger,
        () => retentions.hints(),
      );
      // The statements since the last call, costliest first (execution and planning, wall time): --statements.
      const statements = async (phase: string) => {
        if (!STATEMENTS) return;
        const { rows } = await pool.query<{ calls: string; ms: number; plan_us: string; query: string }>(
          `SELECT calls, total_exec_time + total_plan_time AS ms, round(total_plan_time::numeric * 1000 / $1) AS plan_us, query FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY 2 DESC LIMIT 8`,
          [EVENTS],
        );
        await pool.query('SELECT pg_stat_statements_reset()');
        process.stdout.write(`  ${phase}, per event:\n`);
        for (const r of rows)
          process.stdout.write(
            `    ${Math.round((r.ms * 1000) / EVENTS)} µs, ${r.calls} calls (planning ${r.plan_us} µs): ${r.query.replace(/\s+/g, ' ').slice(0, 150)}\n`,
          );
      };
      const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      process.stdout.write(
        `${EVENT_PARTITIONS} partitions of events, ${DELIVERY_PARTITIONS} of deliveries and of attempts, ${ROWS} rows each; ` +
          `${EVENTS} events a round; load average ${load}\n`,
      );
      for (let round = 1; round <= ROUNDS; round++) {
        // Written as a change writes them: the event and its outbox row.
        for (let i = 0; i < EVENTS; i++) {
          const event = await new EventsRepository(prisma).append(TENANT as never, null, {
            type: 'rule.created',
            scope_id: null,
            scope_ids: [],
            entity_type: 'rule',
            entity_id: `rul-${round}-${i}`,
            data: { n: i },
          });
          await new OutboxRepository(prisma).add(TENANT as never, [event]);
        }
        if (STATEMENTS) await pool.query('SELECT pg_stat_statements_reset()');
        const cpu0 = processCpuSeconds(pid);
        const wall0 = performance.now();
        const leased: Array<{ delivery_id: string; attempt: number }> = [];
        for (;;) {
          const answer = await relay.relay(100);
          leased.push(...answer.dispatch);
          if (!answer.fanned_out && !answer.dispatch.length) break;
        }
        const cpu1 = processCpuSeconds(pid);
        const wall1 = performance.now();
        await statements('fan-out and lease');
        let ok = 0;
        for (const d of leased) if ((await deliveries.attempt(d.delivery_id, d.attempt)).outcome === 'succeeded') ok++;
        const cpu2 = processCpuSeconds(pid);
        const wall2 = performance.now();
        await statements('attempts');
        const per = (s: number) => `${Math.round((s * 1e6) / EVENTS)} µs`;
        process.stdout.write(
          `round ${round}: fan-out and lease ${per(cpu1 - cpu0)} of backend CPU an event (${per((wall1 - wall0) / 1000)} wall); ` +
            `attempt ${per(cpu2 - cpu1)} (${per((wall2 - wall1) / 1000)} wall); ${ok} of ${leased.length} delivered\n`,
        );
      }
      await prisma.$disconnect();
    },
    STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' } : undefined,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

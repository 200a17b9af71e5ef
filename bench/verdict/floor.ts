// The floor the verdict gateway is measured against (docs/benchmarks.md "Verdict"): a bare express 5 endpoint that signs
// an ES256 JWS (node:crypto, key made once) and group-commits one row per request, answering after
// the commit. No authentication, no evaluation, no hashing.
//
// FLOOR_ROW_BYTES (unset by default: the floor as defined) pads each stored row to about that many bytes of JSON
// with incompressible text, to measure what a row of a consultation record's size costs PostgreSQL alone
// (docs/benchmarks.md "Cheap per call").
import express from 'express';
import { randomBytes, randomUUID } from 'node:crypto';
import { createEs256Signer, generateEs256KeyPair } from '@arbiter/crypto';
import { createPool, GroupCommitWriter } from '@arbiter/db';

async function main() {
  const pool = createPool({ url: process.env.DATABASE_URL!, max: 10 });
  await pool.query('CREATE TABLE IF NOT EXISTS floor_rows (id text PRIMARY KEY, body json NOT NULL, at timestamptz NOT NULL)');
  const signer = createEs256Signer(generateEs256KeyPair().privateJwk, 'floor:2026');
  const writer = new GroupCommitWriter<{ id: string; body: string }>(
    async (rows) => {
      await pool.query('INSERT INTO floor_rows (id, body, at) SELECT id, body, now() FROM unnest($1::text[], $2::json[]) AS t(id, body)', [
        rows.map((r) => r.id),
        rows.map((r) => r.body),
      ]);
    },
    { maxBatch: 500, maxInFlight: 2 },
  );
  const padTo = Number(process.env.FLOOR_ROW_BYTES ?? 0);
  const pad = randomBytes(Math.ceil(padTo * 0.75)).toString('base64'); // made once: the server does no extra work per row
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: '1mb' }));
  app.post('/check', async (req, res) => {
    const id = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const jws = signer.sign({
      jti: id,
      iat: now,
      exp: now + 300,
      action: req.body.action,
      resource: req.body.resource,
      scope: req.body.scope,
    });
    const row = JSON.stringify({ id, request: req.body, jws });
    await writer.write({
      id,
      body: padTo > row.length ? JSON.stringify({ id, request: req.body, jws, pad: pad.slice(0, padTo - row.length) }) : row,
    });
    res.json({ consultation_id: id, signed_verdict: jws });
  });
  const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
  process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});

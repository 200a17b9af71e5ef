// The gateway's per-check work without HTTP or the database, piece by piece (µs per call, one core):
// where a check's CPU goes before it reaches the socket or PostgreSQL. Run: node bench/verdict/pipeline.mjs
import { performance } from 'node:perf_hooks';
import { createEs256Signer, generateEs256KeyPair } from '@arbiter/crypto';
import { newId } from '@arbiter/db';
import { compilePolicy, evaluate, type CompleteEvaluation } from '@arbiter/policy';
import { benchmarkFixture } from '@arbiter/testing/benchmark-fixture';
import { buildConsultation, contextHash, normativeHash, verdictClaims } from '../../apps/verdict/src/domain/consultation-builder';
import { presentCheck } from '../../apps/verdict/src/presenters/verdicts';
import { parseCheckBody, validateScope } from '../../apps/verdict/src/domain/request-parsing';

function time(name: string, fn: (i: number) => unknown, n = 20_000): number {
  for (let i = 0; i < 2_000; i++) fn(i);
  const started = performance.now();
  for (let i = 0; i < n; i++) fn(i);
  const us = ((performance.now() - started) * 1000) / n;
  process.stdout.write(`${name.padEnd(44)} ${us.toFixed(1).padStart(7)} µs\n`);
  return us;
}

const fixture = benchmarkFixture(100);
const policy = compilePolicy(fixture.rules, fixture.overrides, fixture.policy);
const bodies = fixture.requests.map((r) =>
  JSON.stringify({ action: r.action, resource: r.resource, scope: r.scope, parameters: r.parameters, context: r.context }),
);
const signer = createEs256Signer(generateEs256KeyPair().privateJwk, 'tnt-bench:2026');
const active = { kid: signer.kid, epoch: '2026', sign: (claims: object) => signer.sign(claims) };
const parsed = bodies.map((b) => parseCheckBody(JSON.parse(b)));
const now = new Date(fixture.now);

const input = (i: number) => {
  const body = parsed[i & 63];
  const scope = validateScope(body.scope, null, 'invalid_scope_field');
  const context = (body.context ?? {}) as never;
  const parameters = body.parameters ?? {};
  const hash = contextHash({ action: body.action, resource: body.resource, scope, parameters, context });
  const evaluation = evaluate(
    policy,
    { mode: 'check', action: body.action, resource: body.resource, scope, parameters, context },
    now,
  ) as CompleteEvaluation;
  return {
    id: newId('cns-'),
    operation: 'check' as const,
    tenantId: 'tnt-0123456789abcdef01234567',
    callerPrincipalId: 'prn-0123456789abcdef01234567',
    onBehalfOf: null,
    onBehalfOfAuthenticated: false,
    requestedAt: now,
    action: body.action,
    resource: body.resource,
    scope,
    parameters,
    context,
    contextHash: hash,
    evaluation,
    ttlSeconds: 300,
    history: [],
    correlation: null,
    stateHash: `sha256:${'0'.repeat(64)}`,
    stateRevision: 42,
    issuer: 'arbiter-verdict',
  };
};
const inputs = Array.from({ length: 64 }, (_, i) => input(i));
const records = inputs.map((d) => buildConsultation(d, active).record);

const steps = [
  time('parse body (JSON.parse + parseCheckBody)', (i) => parseCheckBody(JSON.parse(bodies[i & 63]))),
  time('context_hash', (i) => {
    const d = inputs[i & 63];
    return contextHash({ action: d.action, resource: d.resource, scope: d.scope, parameters: d.parameters, context: d.context });
  }),
  time('evaluate (100 rules)', (i) => {
    const d = inputs[i & 63];
    return evaluate(
      policy,
      { mode: 'check', action: d.action, resource: d.resource, scope: d.scope, parameters: d.parameters, context: d.context },
      now,
    );
  }),
  time('consultation id', () => newId('cns-')),
  time('buildConsultation (normative_hash + JWS)', (i) => buildConsultation(inputs[i & 63], active)),
  time('answer (presentCheck + JSON.stringify)', (i) => JSON.stringify(presentCheck(records[i & 63]))),
];
time('  of buildConsultation: normative_hash', (i) => normativeHash(records[i & 63], inputs[i & 63].contextHash.parts));
time('  of buildConsultation: JWS (claims, ES256)', (i) => active.sign(verdictClaims(records[i & 63], 'arbiter-verdict')));
process.stdout.write(
  `record ${Buffer.byteLength(JSON.stringify(records[0]))} bytes; one check's steps: ${steps.reduce((a, b) => a + b, 0).toFixed(0)} µs\n`,
);

// The request guard's test for a repeated member name (libs/input/src/json-text.ts countMemberNames, docs/development.md
// "Storable JSON") against the scan that names the name (findRepeatedMemberName), and against JSON.parse itself, per
// body: what every request pays is the count; the scan runs only when the count differs from the parsed members.
// Run with `node bench/handwritten/run.mjs member-names`; results in docs/benchmarks.md "Cheap per call".
import { countMemberNames, findRepeatedMemberName } from '../../libs/input/src/json-text';
import { printMachine } from './common';

const QUICK = process.argv.includes('--quick');
const CALLS = QUICK ? 200_000 : 1_000_000;

const check = JSON.stringify({
  action: 'payments.transfer',
  resource: 'acct:eu/4471',
  scope: { region: 'eu', env: 'prod' },
  parameters: { transfer: { amount: 1234.5, currency: 'EUR' }, beneficiary: { country: 'DE', iban: 'DE89370400440532013000' } },
  context: { 'kyc.level': { value: 3, source: 'kyc', verification_status: 'verified' } },
});
// The fact bench/ledger seals, and a long one (40 order lines, quotes escaped in every note).
const seal = JSON.stringify({
  tenant_id: 'tnt-0123456789abcdef01234567',
  actor: 'agent:bench',
  custom_payload: {
    order_id: 'ord-1',
    amount: 1251,
    currency: 'EUR',
    approved_by: 'agent:billing',
    lines: [{ sku: 'A-17', qty: 2 }],
    note: 'benchmark fact',
  },
});
const long = JSON.stringify({
  idempotency_key: 'k-1',
  custom_payload: { lines: Array.from({ length: 40 }, (_, i) => ({ sku: `sku-${i}`, qty: i, note: 'a "quoted": note' })) },
});

function time(label: string, body: string, f: (s: string) => unknown): void {
  let sink = 0;
  for (let i = 0; i < CALLS / 10; i++) sink += Number(Boolean(f(body))); // warm-up
  const t = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) sink += Number(Boolean(f(body)));
  const ns = Number(process.hrtime.bigint() - t) / CALLS;
  console.log(
    `${label.padEnd(28)} ${String(body.length).padStart(5)} chars  ${(ns / 1000).toFixed(3)} µs a call  (${sink > -1 ? 'ok' : ''})`,
  );
}

printMachine('member names');
for (const [name, body] of [
  ['check body', check],
  ['seal body', seal],
  ['long seal body', long],
] as const) {
  time(`${name}: JSON.parse`, body, JSON.parse);
  time(`${name}: count`, body, countMemberNames);
  time(`${name}: scan`, body, findRepeatedMemberName);
}

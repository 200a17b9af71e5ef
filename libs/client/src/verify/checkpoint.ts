// A ledger checkpoint (signed tree head, RFC 9162 section 2.1 trees; docs/evidence.md): its shape, the
// key's window at created_at_ms and the Ed25519 signature, checked as proof bundles are
// (ledger-signature.ts). The signed input is the whole checkpoint without `signature`, so a member
// added or changed after signing breaks the signature.
import { checkpointShapeProblems, type VerifyCheckpointOptions } from './checkpoint-shape';
import { ed25519SignatureValid, ledgerKeyAt } from './ledger-signature';
import { ReportBuilder, type VerificationReport } from './report';

type Rec = Record<string, unknown>;

export type { VerifyCheckpointOptions };

/** Checks `shape`, `key` and `signature` of a checkpoint against a ledger key set (GET /.well-known/ledger-keys). */
export function verifyCheckpoint(checkpoint: unknown, keys: unknown, opts: VerifyCheckpointOptions = {}): VerificationReport {
  const c = (checkpoint ?? {}) as Rec;
  const report = new ReportBuilder(
    `checkpoint of ${typeof c.stream_id === 'string' ? c.stream_id : '(no stream)'} at size ${show(c.tree_size)}`,
  );
  if (!checkpoint || typeof checkpoint !== 'object' || Array.isArray(checkpoint))
    return report.fail('shape', 'the checkpoint is not a JSON object').build();
  const problems = checkpointShapeProblems(c, opts);
  if (problems.length) return report.fail('shape', problems.join('; ')).build();
  report.pass('shape', `stream ${c.stream_id}, ${c.tree_size} facts, root ${c.root_hash}`);

  const lookup = ledgerKeyAt(keys, c.key_id, c.created_at_ms as number, 'checkpoint');
  if (!report.expect('key', lookup.ok, lookup.message, lookup.message) || !lookup.ok) return report.build();

  const { signature, ...unsigned } = c;
  const valid = ed25519SignatureValid(lookup.key, unsigned, signature);
  if (typeof valid === 'string') return report.fail('signature', valid).build();
  report.expect(
    'signature',
    valid,
    `Ed25519 signature valid with key ${String(lookup.key.kid)}`,
    `the Ed25519 signature does not verify with key ${String(lookup.key.kid)}: a member of the checkpoint was changed, or another key signed it`,
  );
  return report.build();
}

const show = (v: unknown) => JSON.stringify(v) ?? 'absent';

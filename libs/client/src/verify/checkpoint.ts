// A ledger checkpoint (signed tree head, RFC 9162 section 2.1 trees; docs/evidence.md): its shape, the
// key's window at created_at_ms and the Ed25519 signature, checked as proof bundles are
// (ledger-signature.ts). The signed input is the whole checkpoint without `signature`, so a member
// added or changed after signing breaks the signature.
import { checkpointBeforeSignature, reportCheckpointSignature, type VerifyCheckpointOptions } from './checkpoint-checks';
import { ed25519SignatureValid } from './ledger-signature';
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
  const next = checkpointBeforeSignature(report, c, keys, opts);
  if (next) reportCheckpointSignature(report, next.key, ed25519SignatureValid(next.key, next.unsigned, next.signature));
  return report.build();
}

const show = (v: unknown) => JSON.stringify(v) ?? 'absent';

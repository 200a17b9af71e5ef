// A ledger checkpoint (signed tree head, RFC 9162 section 2.1 trees; docs/evidence.md): its shape, the
// key's window at created_at_ms and the Ed25519 signature, checked as proof bundles are
// (ledger-signature.ts). The signed input is the whole checkpoint without `signature`, so a member
// added or changed after signing breaks the signature.
import { isDigestText } from '@arbiter/merkle';
import { ed25519SignatureValid, ledgerKeyAt } from './ledger-signature';
import { ReportBuilder, type VerificationReport } from './report';

type Rec = Record<string, unknown>;

const REQUIRED = ['stream_id', 'tree_size', 'root_hash', 'created_at_ms', 'key_id', 'signature_alg', 'signature'];

export interface VerifyCheckpointOptions {
  /** The stream it must be of. */
  streamId?: string;
  /** The tree size it must have. */
  treeSize?: number;
}

/** Checks `shape`, `key` and `signature` of a checkpoint against a ledger key set (GET /.well-known/ledger-keys). */
export function verifyCheckpoint(checkpoint: unknown, keys: unknown, opts: VerifyCheckpointOptions = {}): VerificationReport {
  const c = (checkpoint ?? {}) as Rec;
  const report = new ReportBuilder(
    `checkpoint of ${typeof c.stream_id === 'string' ? c.stream_id : '(no stream)'} at size ${show(c.tree_size)}`,
  );
  if (!checkpoint || typeof checkpoint !== 'object' || Array.isArray(checkpoint))
    return report.fail('shape', 'the checkpoint is not a JSON object').build();
  const missing = REQUIRED.filter((f) => !(f in c));
  if (missing.length) return report.fail('shape', `the checkpoint has no ${missing.join(', ')}`).build();
  const problems: string[] = [];
  if (typeof c.stream_id !== 'string' || !c.stream_id) problems.push('stream_id is not a string');
  if (!Number.isSafeInteger(c.tree_size) || (c.tree_size as number) < 1)
    problems.push(`tree_size ${show(c.tree_size)} is not a positive integer`);
  if (!isDigestText(c.root_hash)) problems.push(`root_hash ${show(c.root_hash)} is not sha256:<64 lowercase hex>`);
  if (!Number.isSafeInteger(c.created_at_ms)) problems.push(`created_at_ms ${show(c.created_at_ms)} is not an integer`);
  if (c.signature_alg !== 'Ed25519') problems.push(`signature_alg ${show(c.signature_alg)} is not Ed25519`);
  if (opts.streamId !== undefined && c.stream_id !== opts.streamId)
    problems.push(`it is of stream ${show(c.stream_id)}, not ${opts.streamId}`);
  if (opts.treeSize !== undefined && c.tree_size !== opts.treeSize)
    problems.push(`its tree_size ${show(c.tree_size)} is not ${opts.treeSize}`);
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

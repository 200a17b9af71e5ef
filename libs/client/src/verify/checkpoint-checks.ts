// A ledger checkpoint's checks but the Ed25519 arithmetic (docs/evidence.md "Checkpoints"): its shape, its key's
// window at created_at_ms, and how the signature's outcome is reported. Pure, shared by the SDK's verifyCheckpoint
// (node:crypto) and the console's browser verifier (WebCrypto).
import { ledgerKeyAt } from './ledger-key';
import type { ReportBuilder } from './report';

type Rec = Record<string, unknown>;

const REQUIRED = ['stream_id', 'tree_size', 'root_hash', 'created_at_ms', 'key_id', 'signature_alg', 'signature'];
const DIGEST = /^sha256:[0-9a-f]{64}$/;

export interface VerifyCheckpointOptions {
  /** The stream it must be of. */
  streamId?: string;
  /** The tree size it must have. */
  treeSize?: number;
}

const show = (v: unknown) => JSON.stringify(v) ?? 'absent';

/** What is wrong with a checkpoint object's members (empty when nothing is). */
export function checkpointShapeProblems(c: Rec, opts: VerifyCheckpointOptions = {}): string[] {
  const missing = REQUIRED.filter((f) => !(f in c));
  if (missing.length) return [`the checkpoint has no ${missing.join(', ')}`];
  const problems: string[] = [];
  if (typeof c.stream_id !== 'string' || !c.stream_id) problems.push('stream_id is not a string');
  if (!Number.isSafeInteger(c.tree_size) || (c.tree_size as number) < 1)
    problems.push(`tree_size ${show(c.tree_size)} is not a positive integer`);
  if (typeof c.root_hash !== 'string' || !DIGEST.test(c.root_hash))
    problems.push(`root_hash ${show(c.root_hash)} is not sha256:<64 lowercase hex>`);
  if (!Number.isSafeInteger(c.created_at_ms)) problems.push(`created_at_ms ${show(c.created_at_ms)} is not an integer`);
  if (c.signature_alg !== 'Ed25519') problems.push(`signature_alg ${show(c.signature_alg)} is not Ed25519`);
  if (opts.streamId !== undefined && c.stream_id !== opts.streamId)
    problems.push(`it is of stream ${show(c.stream_id)}, not ${opts.streamId}`);
  if (opts.treeSize !== undefined && c.tree_size !== opts.treeSize)
    problems.push(`its tree_size ${show(c.tree_size)} is not ${opts.treeSize}`);
  return problems;
}

/**
 * `shape` and `key`: what the signature must then be checked over and with (null when a check failed, reported).
 * `c` must be an object.
 */
export function checkpointBeforeSignature(
  report: ReportBuilder,
  c: Rec,
  keys: unknown,
  opts: VerifyCheckpointOptions = {},
): { key: Rec; unsigned: Rec; signature: unknown } | null {
  const problems = checkpointShapeProblems(c, opts);
  if (problems.length) {
    report.fail('shape', problems.join('; '));
    return null;
  }
  report.pass('shape', `stream ${String(c.stream_id)}, ${String(c.tree_size)} facts, root ${String(c.root_hash)}`);
  const lookup = ledgerKeyAt(keys, c.key_id, c.created_at_ms as number, 'checkpoint');
  if (!report.expect('key', lookup.ok, lookup.message, lookup.message) || !lookup.ok) return null;
  const { signature, ...unsigned } = c;
  return { key: lookup.key, unsigned, signature };
}

/** `signature`: the outcome of the Ed25519 check (a string says why it could not be made). */
export function reportCheckpointSignature(report: ReportBuilder, key: Rec, valid: boolean | string): void {
  if (typeof valid === 'string') report.fail('signature', valid);
  else
    report.expect(
      'signature',
      valid,
      `Ed25519 signature valid with key ${String(key.kid)}`,
      `the Ed25519 signature does not verify with key ${String(key.kid)}: a member of the checkpoint was changed, or another key signed it`,
    );
}

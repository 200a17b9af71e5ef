// The shape a ledger checkpoint must have before its signature is worth checking (docs/evidence.md
// "Checkpoints"): pure, shared by the SDK's verifyCheckpoint and the console's browser verifier.

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

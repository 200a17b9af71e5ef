// The entries of a Requirement's `acceptable_sources` (docs/verdicts.md "Facts the ledger vouches for").
// An entry is a source a Fact may name, compared as written, with two entries about the ledger:
//   `ledger`                 a Fact the gateway verified against a ledger fact of the caller's tenant,
//                            whatever its stream but the services' audit streams (`arbiter.`);
//   `ledger:<stream glob>`   the same, of a fact whose stream id the glob matches (`ledger:kyc-*`), with
//                            the glob syntax of applies_to (glob.ts): `*` any run, `?` one character.
//                            Only a glob that starts with `arbiter.` as written reaches an audit stream.
// The audit streams record what the services did at the callers' request (consultations, approvals'
// decisions): an agent steers what they say, so a rule must name them to take them as vouching.
// Only the gateway gives a Fact the source `ledger`, with the cited fact's stream in `ledger_stream`: a
// caller's Fact that claims the ledger without a valid citation is refused before evaluation.
import { AUDIT_STREAM_PREFIX, isReservedStream } from '@arbiter/audit-streams';
import { compileGlob, type StringMatcher } from './glob';
import type { Fact } from './types';

/** The source of a Fact a verified ledger citation stands behind. */
export const LEDGER_SOURCE = 'ledger';
/** `ledger:` then a stream glob (in acceptable_sources) or a fact id (in a citing Fact's source). */
export const LEDGER_SOURCE_PREFIX = 'ledger:';
/** A stream id's characters (docs/ledger-formats.md "Limits and validation") and the two wildcards, 1 to 128 of them. */
const STREAM_GLOB = /^[A-Za-z0-9._:*?-]{1,128}$/;

/** Whether an acceptable_sources entry is one a verified ledger citation can meet: `ledger` or `ledger:<stream glob>`. */
export function isLedgerSourceEntry(entry: string): boolean {
  return entry === LEDGER_SOURCE || entry.startsWith(LEDGER_SOURCE_PREFIX);
}

/** What is wrong with an acceptable_sources entry, or null (a `ledger:` entry needs a stream glob). */
export function sourceEntryProblem(entry: string): string | null {
  if (!entry.startsWith(LEDGER_SOURCE_PREFIX)) return null;
  return STREAM_GLOB.test(entry.slice(LEDGER_SOURCE_PREFIX.length))
    ? null
    : `${JSON.stringify(entry)}: ledger:<stream glob> needs a glob of 1 to 128 letters, digits, ".", "_", ":", "-", "*" or "?"`;
}

/** Whether a Fact's source is acceptable. */
export type SourceMatcher = (fact: Fact) => boolean;

/** Whether an acceptable_sources entry reaches the services' audit streams: a `ledger:` glob that names them as written. */
function reachesAuditStreams(entry: string): boolean {
  return entry.startsWith(LEDGER_SOURCE_PREFIX + AUDIT_STREAM_PREFIX);
}

/** A stream glob that never matches an audit stream unless it names them (`ledger:*` does not reach `arbiter.…`). */
function streamMatcher(entry: string): StringMatcher {
  const matches = compileGlob(entry.slice(LEDGER_SOURCE_PREFIX.length));
  return reachesAuditStreams(entry) ? matches : (stream) => !isReservedStream(stream) && matches(stream);
}

/** Compiles an acceptable_sources list once; a malformed `ledger:` entry accepts nothing (fail closed). */
export function compileSources(entries: readonly string[]): SourceMatcher {
  const exact = new Set(entries.filter((e) => e !== LEDGER_SOURCE && !e.startsWith(LEDGER_SOURCE_PREFIX)));
  const anyStream = entries.includes(LEDGER_SOURCE);
  const streams: StringMatcher[] = entries
    .filter((e) => e.startsWith(LEDGER_SOURCE_PREFIX) && sourceEntryProblem(e) === null)
    .map(streamMatcher);
  if (!anyStream && streams.length === 0) return (f) => exact.has(f.source);
  return (f) => {
    if (f.source !== LEDGER_SOURCE) return exact.has(f.source);
    const stream = f.ledger_stream;
    // A verified citation always names its stream; a Fact of a record made before streams were named does not.
    if (typeof stream !== 'string') return anyStream;
    if (anyStream && !isReservedStream(stream)) return true;
    return streams.some((m) => m(stream));
  };
}

/**
 * The entries both lists accept, for merging two Requirements on one field: an entry of one list is kept
 * when the other lists it too, and a `ledger:<stream glob>` entry also when the other lists `ledger`
 * (every stream but the audit streams, so a glob naming those is not within it). Two different globs are not
 * intersected: neither is kept (fail closed).
 */
export function intersectSources(a: readonly string[], b: readonly string[]): string[] {
  const within = (entry: string, list: readonly string[]) =>
    list.includes(entry) || (entry.startsWith(LEDGER_SOURCE_PREFIX) && !reachesAuditStreams(entry) && list.includes(LEDGER_SOURCE));
  return [...new Set([...a.filter((e) => within(e, b)), ...b.filter((e) => within(e, a))])];
}

/**
 * The source members of a Fact that the entries accept, preferring `existing`'s when they accept it:
 * for a `ledger:<stream glob>` entry, a ledger Fact of a stream the glob matches (its wildcards taken
 * as nothing and `x`). Null when the list accepts nothing.
 */
export function acceptedSource(entries: readonly string[], existing: Fact | null): Pick<Fact, 'source' | 'ledger_stream'> | null {
  if (existing && compileSources(entries)(existing)) return sourceOf(existing);
  const first = entries.find((e) => !e.startsWith(LEDGER_SOURCE_PREFIX) || sourceEntryProblem(e) === null);
  if (first === undefined) return null;
  if (!first.startsWith(LEDGER_SOURCE_PREFIX)) return { source: first };
  return { source: LEDGER_SOURCE, ledger_stream: first.slice(LEDGER_SOURCE_PREFIX.length).replace(/\*/g, '').replace(/\?/g, 'x') };
}

function sourceOf(f: Fact): Pick<Fact, 'source' | 'ledger_stream'> {
  return f.ledger_stream === undefined ? { source: f.source } : { source: f.source, ledger_stream: f.ledger_stream };
}

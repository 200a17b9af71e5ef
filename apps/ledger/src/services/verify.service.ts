import { ChainWalk, describeBreak, type ChainBreak } from '../domain/chain';
import type { FactRecord, LedgerRepository, OwnedStream } from '../repositories/ledger.repository';
import type { VerificationResult } from '../models/ledger';

export interface ChainReport {
  stream: OwnedStream;
  factsVerified: number;
  broken: ChainBreak | null;
}

/**
 * Walks a stream's chain up to the head it had when the walk started, in pages of `pageSize`
 * facts read by keyset (memory is two pages, whatever the stream's length). The next page is read
 * while the current one is checked, so PostgreSQL and the hashing run at the same time. Facts
 * sealed during the walk lie beyond that head and are left for the next verification.
 */
export class VerifyService {
  constructor(
    private readonly repo: LedgerRepository,
    private readonly pageSize: number,
  ) {}

  async walk(stream: OwnedStream, onFact?: (f: FactRecord) => void): Promise<ChainReport> {
    const walk = new ChainWalk(stream);
    const read = (after: number) => this.repo.chainPage(stream, after, stream.head_seq, this.pageSize);
    let next: Promise<FactRecord[]> | null = stream.head_seq > 0 ? read(0) : null;
    while (next) {
      const page = await next;
      if (page.length === 0) break;
      const after = page[page.length - 1].seq;
      // Read ahead; a page that is not needed (a break below) is read and dropped.
      next = after < stream.head_seq ? read(after) : null;
      next?.catch(() => undefined); // awaited on the next turn; a break below leaves it unobserved
      for (const fact of page) {
        const broken = walk.check(fact);
        if (broken) return { stream, factsVerified: walk.factsVerified, broken };
        onFact?.(fact);
      }
    }
    return { stream, factsVerified: walk.factsVerified, broken: walk.finish() };
  }

  async verify(stream: OwnedStream): Promise<VerificationResult> {
    const report = await this.walk(stream);
    const base = {
      facts_verified: report.factsVerified,
      stream_id: stream.stream_id,
      head_fact_id: stream.head_fact_id,
      head_hash: stream.head_hash,
    };
    if (!report.broken) return { valid: true, ...base };
    return { valid: false, ...base, error: describeBreak(report.broken), broken_fact_id: report.broken.fact_id };
  }
}

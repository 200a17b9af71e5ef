import type { Logger } from 'pino';
import { retentionMs } from '@arbiter/db';

/**
 * The retentions of consultations the tenants' settings name, as the registry last answered them (the default always
 * among them): where the gateway looks first for a record by its id (domain/record-whereabouts.ts). Asked at start and
 * at every partition maintenance run, which needs the same answer; until the first answer, and whenever the registry
 * cannot answer, the last one known stays (at first the default alone). A stale answer only makes some lookups look
 * in every partition, as they all did before.
 */
export class RetentionHints {
  private known: readonly number[] = [retentionMs(undefined, 'consultations')];

  constructor(private readonly ask: () => Promise<{ consultations: number[] }>) {}

  /** The retentions in milliseconds, as last known. */
  current(): readonly number[] {
    return this.known;
  }

  /** Asks the registry again; rejects (keeping what was known) when it cannot answer. */
  async refresh(): Promise<number[]> {
    const { consultations } = await this.ask();
    if (consultations.length) this.known = consultations;
    return consultations;
  }

  /** A first answer, at start, without waiting for it nor failing the start. */
  warm(logger: Logger): void {
    this.refresh().catch((err: unknown) => logger.debug({ err }, 'retentions in use not known yet: lookups by id use the default'));
  }
}

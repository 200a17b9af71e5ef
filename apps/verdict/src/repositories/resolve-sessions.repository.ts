import type { TenantId, TenantOwned } from '@arbiter/auth';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import type { Fact } from '@arbiter/policy';
import type { SealedSessionFacts } from '../domain/sealed-values';

export type ResolveVariant = 'detailed' | 'overview';

/** A resolve loop in progress (docs/verdicts.md): what earlier rounds accumulated. */
export interface ResolveSessionState {
  id: string;
  tenant_id: string;
  caller_principal_id: string;
  variant: ResolveVariant;
  action: string;
  resource: string;
  scope: Record<string, string | number | boolean>;
  context: Record<string, Fact>;
  /** The accumulated Facts that hold sensitive values, encrypted (docs/verdicts.md "Sensitive fields"); null when none. */
  sealed_values: SealedSessionFacts | null;
  /** Rounds evaluated so far. */
  rounds: number;
  history: Array<{ round: number; fields: string[] }>;
  correlation: Record<string, unknown> | null;
  consultation_id: string | null;
  completed_at: Date | null;
  expires_at: Date;
}

type Row = Awaited<ReturnType<PrismaClient['resolveSession']['findFirst']>> & object;

function toState(row: Row): ResolveSessionState {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    caller_principal_id: row.caller_principal_id,
    variant: row.variant as ResolveVariant,
    action: row.action,
    resource: row.resource,
    scope: row.scope as ResolveSessionState['scope'],
    context: row.context as unknown as ResolveSessionState['context'],
    sealed_values: (row.sealed_values ?? null) as unknown as SealedSessionFacts | null,
    rounds: row.rounds,
    history: row.history as ResolveSessionState['history'],
    correlation: (row.correlation ?? null) as ResolveSessionState['correlation'],
    consultation_id: row.consultation_id,
    completed_at: row.completed_at,
    expires_at: row.expires_at,
  };
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** Resolve sessions, always read and written within one tenant (but the expiry sweep). */
export class ResolveSessionRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async find(tenantId: TenantId, id: string): Promise<ResolveSessionState | null> {
    const row = await this.prisma.resolveSession.findFirst({ where: { id, tenant_id: tenantId } });
    return row ? toState(row) : null;
  }

  async create(s: TenantOwned<Omit<ResolveSessionState, 'completed_at' | 'consultation_id'>>): Promise<void> {
    await this.prisma.resolveSession.create({
      data: {
        id: s.id,
        tenant_id: s.tenant_id,
        caller_principal_id: s.caller_principal_id,
        variant: s.variant,
        action: s.action,
        resource: s.resource,
        scope: json(s.scope),
        context: json(s.context),
        sealed_values: s.sealed_values === null ? undefined : json(s.sealed_values),
        rounds: s.rounds,
        history: json(s.history),
        correlation: s.correlation === null ? undefined : json(s.correlation),
        expires_at: s.expires_at,
      },
    });
  }

  /**
   * Records one more round, only if no other call advanced the session meanwhile (optimistic:
   * `rounds` must still be `previousRounds`). Returns false when it lost that race.
   */
  async advance(
    tenantId: TenantId,
    id: string,
    previousRounds: number,
    next: Pick<ResolveSessionState, 'scope' | 'context' | 'sealed_values' | 'rounds' | 'history' | 'correlation' | 'expires_at'> & {
      consultation_id?: string;
    },
  ): Promise<boolean> {
    const now = new Date();
    const { count } = await this.prisma.resolveSession.updateMany({
      where: { id, tenant_id: tenantId, rounds: previousRounds, completed_at: null },
      data: {
        scope: json(next.scope),
        context: json(next.context),
        sealed_values: next.sealed_values === null ? Prisma.DbNull : json(next.sealed_values),
        rounds: next.rounds,
        history: json(next.history),
        correlation: next.correlation === null ? undefined : json(next.correlation),
        updated_at: now,
        expires_at: next.expires_at,
        ...(next.consultation_id ? { consultation_id: next.consultation_id, completed_at: now } : {}),
      },
    });
    return count === 1;
  }

  /**
   * Opens a session again at `rounds` after the round that claimed it for `consultationId` could not record that
   * consultation; a session completed by another consultation is left alone.
   */
  async reopen(tenantId: TenantId, id: string, consultationId: string, rounds: number): Promise<void> {
    await this.prisma.resolveSession.updateMany({
      where: { id, tenant_id: tenantId, consultation_id: consultationId },
      data: { consultation_id: null, completed_at: null, rounds, updated_at: new Date() },
    });
  }

  /** Housekeeping across tenants: sessions past expires_at, whoever's. */
  async deleteExpiredAnyTenant(now = new Date()): Promise<number> {
    const { count } = await this.prisma.resolveSession.deleteMany({ where: { expires_at: { lt: now } } });
    return count;
  }
}

import type { Logger } from 'pino';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import { AppError, shownId } from '@arbiter/http';
import { ownTenant, requireAnyPermission } from '../domain/tenant-access';
import type { ConsultationOutcome } from '../models/outcomes';
import type { OutcomeRow, WindowRepository } from '../repositories/windows.repository';
import { windowsUnavailable } from './windows.service';
import type { ConsultationsService, ScopeReach } from './consultations.service';
import { reachedVersionIds } from '../domain/consultation-record';

/**
 * POST /<tenant_id>/v1/consultations/<id>/outcome (docs/verdicts.md "Windows and outcomes"): the caller of
 * a consultation says whether the operation was carried out. `executed: false` gives back, once, what the
 * consultation consumed in its windows and withdraws its marks. Reported once per consultation: the same
 * report again answers the same, the other one is 409 outcome_already_reported. `check`, and only the
 * consultation's own caller, with a key that reaches its scopes: any other id is 404 consultation_not_found. The
 * record stays as it was.
 */
export class OutcomesService {
  constructor(
    /** Where the record is, PostgreSQL or its archive: a mark outlives the partition of the consultation that left it. */
    private readonly consultations: Pick<ConsultationsService, 'find'>,
    private readonly windows: WindowRepository,
    private readonly logger: Logger,
    /** A key restricted to some scopes reports only on consultations its scopes govern (docs/verdicts.md "Authentication"). */
    private readonly reach: ScopeReach | null = null,
  ) {}

  async report(identity: AuthenticatedIdentity, tenantParam: string, id: string, executed: boolean): Promise<ConsultationOutcome> {
    requireAnyPermission(identity, ['check']);
    const tenantId = ownTenant(identity, tenantParam);
    const record = await this.ownRecord(tenantId, id);
    // Another principal's consultation answers as an unknown one: consultation ids are not shared between callers.
    if (
      !record ||
      record.caller_principal_id !== identity.principal.id ||
      (this.reach !== null && !(await this.reach.reaches(identity, reachedVersionIds(record))))
    )
      throw new AppError(404, 'consultation_not_found', `Consultation ${shownId(id)} does not exist or was not made by this caller`, {
        consultation_id: shownId(id),
      });
    let stored: OutcomeRow;
    try {
      ({ outcome: stored } = await this.windows.reportOutcome(tenantId, id, executed));
    } catch (err) {
      this.logger.error({ err, consultation_id: id, tenant_id: tenantId }, 'outcome not recorded');
      throw windowsUnavailable();
    }
    if (stored.executed !== executed)
      throw new AppError(
        409,
        'outcome_already_reported',
        `The outcome of consultation ${id} was already reported as executed: ${stored.executed}; it cannot change`,
        { consultation_id: id, executed: stored.executed },
      );
    return { consultation_id: id, executed, given_back: stored.given_back, reported_at: stored.reported_at.toISOString() };
  }

  /**
   * The tenant's consultation of this id, in PostgreSQL or archived (docs/operations.md "Archive"): its windows and marks
   * stay for their own periods, so its caller may still report it once its partition has left. Another tenant's,
   * wherever it is, is none (404 like any other id here).
   */
  private async ownRecord(tenantId: string, id: string) {
    try {
      const found = await this.consultations.find(tenantId, id);
      return found && found.tenant_id === tenantId ? found.record : null;
    } catch (err) {
      if (err instanceof AppError && err.status === 403) return null;
      throw err;
    }
  }
}

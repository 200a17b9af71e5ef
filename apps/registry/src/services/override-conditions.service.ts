import { conditionProblem } from '@arbiter/cel';
import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client';

const BATCH = 500;

/**
 * Decides conditions_error for override rows whose conditions were written before they were CEL
 * (migration 20261221000000_override_conditions): SQL cannot parse CEL, so the registry does it when
 * it starts. A row whose conditions do not parse is marked: it is listed as `invalid_conditions` and
 * neutralises nothing. Idempotent and safe with several replicas (each row is decided by what it
 * holds; a second replica writes the same answer). Answers how many rows it marked invalid.
 */
export async function checkStoredOverrideConditions(prisma: PrismaClient, logger: Logger): Promise<number> {
  let invalid = 0;
  for (;;) {
    const rows = await prisma.override.findMany({
      where: { conditions_checked: false },
      select: { id: true, tenant_id: true, conditions: true, override_type: true },
      orderBy: { id: 'asc' },
      take: BATCH,
    });
    if (!rows.length) return invalid;
    for (const row of rows) {
      const blank = row.conditions === null || row.conditions.trim() === '';
      const problem = blank
        ? row.override_type === 'conditional'
          ? 'a conditional override without conditions never applies'
          : null
        : conditionProblem(row.conditions);
      await prisma.override.updateMany({
        where: { id: row.id, tenant_id: row.tenant_id, conditions_checked: false },
        data: { conditions_checked: true, conditions_error: problem },
      });
      if (problem) {
        invalid++;
        logger.warn(
          { override_id: row.id, tenant_id: row.tenant_id, problem },
          'override conditions do not parse as CEL: listed as invalid_conditions, it neutralises nothing',
        );
      }
    }
  }
}

import type { AppliesTo } from '../models/rules';

/** `{}` and absent mean the same (every operation), so both are stored as null. */
export function normalizeAppliesTo(a: AppliesTo | undefined): AppliesTo | null {
  if (!a || (!a.actions && !a.resources)) return null;
  return { ...(a.actions ? { actions: a.actions } : {}), ...(a.resources ? { resources: a.resources } : {}) };
}

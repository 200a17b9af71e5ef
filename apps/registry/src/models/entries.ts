import type { AuthorFields, AuthorType, ServerFields } from './common';

export interface Decision extends ServerFields {
  /** `dec-` prefix */
  id: string;
  scope_id: string;
  decision: string;
  context: string | null;
  reasoning: string | null;
  author: string;
  author_type: AuthorType;
  tags: string[];
  /** Namespace path, or null. */
  namespace: string | null;
  /** Decisions are not changed after creation. */
  status: 'active';
}

/** @minLength 1 @maxLength 100 */
export type Tag = string;

export interface CreateDecisionBody extends AuthorFields {
  /** @minLength 1 @maxLength 20000 */
  decision: string;
  /** @maxLength 50000 */
  context?: string;
  /** @maxLength 50000 */
  reasoning?: string;
  /** @maxItems 50 */
  tags?: Tag[];
  /** Path of a namespace of the scope (created beforehand with POST /scopes/{scope_id}/namespaces). */
  namespace?: string;
}

export interface Invariant extends ServerFields {
  /** `inv-` prefix */
  id: string;
  scope_id: string;
  constraint: string;
  rationale: string | null;
  /** Going against it needs an approval (docs/approvals.md). */
  requires_approval: boolean;
  author: string;
  author_type: AuthorType;
  /** DELETE revokes (soft delete). */
  status: 'active' | 'revoked';
  revoked_at: string | null;
}

export interface CreateInvariantBody extends AuthorFields {
  /** @minLength 1 @maxLength 20000 */
  constraint: string;
  /** @maxLength 50000 */
  rationale?: string;
  /** Default false. */
  requires_approval?: boolean;
}

import type { AuthorFields, AuthorType, EntryType, ServerFields } from './common';

export type ReferenceStatus = 'cited' | 'followed' | 'verified' | 'diverged';

export interface Reference extends ServerFields {
  /** `ref-` prefix */
  id: string;
  scope_id: string;
  entry_id: string;
  entry_type: EntryType;
  context_type: string;
  context_ref: string;
  status: ReferenceStatus;
  reason: string | null;
  author: string;
  author_type: AuthorType;
}

export interface CreateReferenceBody extends AuthorFields {
  /** Id of a decision, invariant or rule of the scope. */
  entry_id: string;
  /**
   * Kind of external context, e.g. `pull_request`, `ticket`, `consultation`.
   * @pattern ^[a-z][a-z0-9_.-]{0,63}$
   */
  context_type: string;
  /** @minLength 1 @maxLength 2000 */
  context_ref: string;
  status: ReferenceStatus;
  /** Required when status is `diverged`. @maxLength 20000 */
  reason?: string;
}

export type LinkRelation = 'depends_on' | 'supersedes' | 'contradicts' | 'in_tension_with' | 'creates';

export interface Link extends ServerFields {
  /** `lnk-` prefix */
  id: string;
  from_id: string;
  from_type: EntryType;
  from_scope_id: string;
  to_id: string;
  to_type: EntryType;
  to_scope_id: string;
  relation: LinkRelation;
  status: 'active';
}

export interface CreateLinkBody {
  from_id: string;
  from_type: EntryType;
  to_id: string;
  to_type: EntryType;
  relation: LinkRelation;
}

import type { ServerFields } from './common';

export interface Namespace extends ServerFields {
  /** `ns-` prefix */
  id: string;
  scope_id: string;
  /** `root`, `root/child` or `root/child/grandchild`. */
  path: string;
  /** The last segment of the path. */
  name: string;
  /** The namespace one level up; null for a root. */
  parent_id: string | null;
  /** 0 for a root, at most 2. */
  depth: number;
  description: string | null;
  status: 'active';
}

export interface CreateNamespaceBody {
  /**
   * Path form `parent/child`: a root plus at most two levels below it. Segments are lowercase
   * letters, digits, `_` and `-`. The parent must exist.
   * @minLength 1 @maxLength 200
   */
  path: string;
  /** @maxLength 5000 */
  description?: string;
}

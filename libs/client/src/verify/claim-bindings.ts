// Which claim of a signed verdict binds which member of its consultation record (docs/verdicts.md, the
// claim table): one list for every verifier, the SDK's and the console's.

/** Claims of the signed verdict and the record member each must equal. */
export const CLAIM_BINDINGS: readonly (readonly [claim: string, member: string])[] = [
  ['jti', 'id'],
  ['tenant_id', 'tenant_id'],
  ['sub', 'caller_principal_id'],
  ['verdict', 'verdict'],
  ['action', 'action'],
  ['resource', 'resource'],
  ['scope', 'scope_used'],
  ['parameters', 'parameters'],
  ['on_behalf_of', 'on_behalf_of'],
  ['context_hash', 'context_hash'],
  ['normative_hash', 'normative_hash'],
  ['dominating_rule_id', 'dominating_rule_id'],
  ['cited_rule_version_ids', 'cited_rule_version_ids'],
];

// What the gateway refuses in a check's parameters and context before it evaluates them (docs/verdicts.md
// "Parameters and context"), in one place for the gateway and for `arbiter rules test`, which fails a case the
// gateway would refuse rather than vouch for a decision nobody gets. Each answers where the request goes wrong, or
// null; the caller names it as its surface does (an HTTP error, a problem of the test file).
import { findMemberName, PROTOTYPE_NAME, type JsonPath } from '@arbiter/input';
import { COMMITMENT_MEMBER } from '@arbiter/sensitive';
import type { CompiledPolicy } from './compile';

/**
 * The member name a JavaScript object takes for its prototype when a member of that name is assigned: a parsed body
 * holds it as a member, but every copy made by assignment (a map of Facts, a scope, a record's commitments, a
 * verifier's reading) would lose it, or take its value for the object's inherited members, which `plain` field reads
 * then see (docs/verdicts.md "Parameters and context"). A request carrying it anywhere is refused.
 */
export const PROTOTYPE_MEMBER = PROTOTYPE_NAME;

/**
 * The path below `parameters` of the first member whose name no rule can read (it holds a dot: rules address
 * parameters by dot paths, or it is `__proto__`) or that only the gateway may write (`$commit`, docs/verdicts.md
 * "Sensitive fields").
 */
export function reservedParameterMember(parameters: unknown): JsonPath | null {
  return findMemberName(parameters, (name) => name.includes('.') || name === COMMITMENT_MEMBER || name === PROTOTYPE_MEMBER);
}

/** The path below a Fact's value of the first member named `$commit` or `__proto__`. */
export function reservedValueMember(value: unknown): JsonPath | null {
  return findMemberName(value, (name) => name === COMMITMENT_MEMBER || name === PROTOTYPE_MEMBER);
}

/** A Fact named so would stand in for the parameter a rule names by its path alone. */
export function isParametersFactName(field: string): boolean {
  return field === 'parameters' || field.startsWith('parameters.');
}

/**
 * A parameters member named `parameters` while the tenant's rules or overrides read a field `parameters.<path>`:
 * the member would stand in for the parameter such a field misnames (the rule reads 1, the verdict signs 50,000).
 */
export function feedsMisnamedField(policy: CompiledPolicy, parameters: Readonly<Record<string, unknown>>): boolean {
  return policy.readsParametersMember && Object.prototype.hasOwnProperty.call(parameters, 'parameters');
}

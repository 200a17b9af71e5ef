export {
  MAX_JSON_DEPTH,
  PROTOTYPE_NAME,
  stringProblem,
  inspectJson,
  findUnstorableString,
  reasonText,
  describeUnstorable,
  printable,
  escapeLoneSurrogates,
  wellFormedJson,
  type Unstorable,
  type UnstorableReason,
  type JsonPath,
  type Inspection,
} from './storable';
export {
  invalidUtf8Offset,
  scanJsonText,
  isInexactNumber,
  findInexactNumber,
  findInvalidUtf8,
  findRepeatedMemberName,
  findRepeatedName,
  countMemberNames,
  type TextPosition,
} from './json-text';
export { UnstorableJsonError, jsonPointer, decodeJsonBytes, assertExactNumbers, parseStorableJson } from './body';
export { isPlainObject, hasOwn, unknownMember, stringMember, isIntegerIn, findMemberName, type MemberProblem } from './fields';
export { bracketPath, dottedPath, type BracketStyle } from './paths';
export { parseIsoDateOrTime, parseIsoInstant } from './time';

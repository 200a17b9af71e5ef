export {
  keyPathIsSensitive,
  MAX_SENSITIVE_FIELDS,
  MAX_SENSITIVE_PATH_LENGTH,
  sensitivePathProblem,
  sensitivePolicy,
  sensitiveSettingsProblem,
  type SensitivePath,
  type SensitivePolicy,
  type SettingsProblem,
} from './settings';
export {
  MAX_SUBJECT_LENGTH,
  replaceSensitive,
  restoreSensitive,
  subjectName,
  subjectOf,
  type FactLike,
  type Replaced,
  type Restored,
} from './locate';
export {
  commit,
  COMMITMENT_MEMBER,
  COMMITMENT_PREFIX,
  isCommitment,
  keyDigest,
  newKey,
  subjectDigest,
  type Commitment,
} from './commitment';
export {
  keyId,
  newSubjectKeys,
  openValues,
  rewrapKey,
  sealValues,
  unwrapKey,
  unwrapSubjectKeys,
  wrapKey,
  wrapSubjectKeys,
  type SubjectKeys,
} from './sealed-values';

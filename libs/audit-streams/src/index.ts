export {
  AUDIT_STREAM_PREFIX,
  AUDIT_STREAM_KINDS,
  auditStreamAffixes,
  auditStreamId,
  auditStreamTenant,
  isReservedStream,
  VERDICT_SEAL_ACTOR,
  REGISTRY_SEAL_ACTOR,
  SERVICE_SEALER,
  type AuditStreamKind,
} from './audit-streams';
export { consultationSealPayload, type ConsultationSealPayload, type ConsultationSealSource } from './consultation-seal';

export { verifyConsultationEvidence, type ConsoleEvidenceInput, type ConsoleEvidenceReport, type EvidenceKeys } from './verify';
export { parseTrustFile, type TrustAnchors } from '@arbiter/client/browser';
export { trustFromText } from './trust-input';

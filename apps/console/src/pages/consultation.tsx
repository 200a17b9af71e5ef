// /console/consultations/<id> (docs/evidence.md "In the console"): the record, its precedence trace, the explanation
// on demand, and the verification of its evidence in the browser against a trust file the person loads, or
// against the keys the services publish (then the page says they are not pinned).
import { useEffect, useState } from 'preact/hooks';
import { get, seg, verdictPath, type ApiError } from '../api';
import type { PageProps } from '../app';
import { ErrorNotice, Loading, PageHeading } from '../components/page';
import { jsonText, limitKeyText, limitsOf, limitStateText, sensitiveRows, type ConsultationRecord } from '../consultations';
import { trustFromText, verifyConsultationEvidence, type ConsoleEvidenceReport, type EvidenceKeys, type TrustAnchors } from '../evidence';

export function ConsultationPage({ session, id }: PageProps & { id: string }) {
  const [record, setRecord] = useState<ConsultationRecord | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const base = verdictPath(`${seg(session.tenant_id)}/v1/consultations/${seg(id)}`);

  useEffect(() => {
    let live = true;
    void get<ConsultationRecord>(base).then((r) => {
      if (!live) return;
      if (r.ok) setRecord(r.data);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [base]);

  return (
    <section>
      <PageHeading>Consultation {id}</PageHeading>
      <ErrorNotice error={error} context="The consultation could not be read" />
      {!record && !error ? <Loading what="the consultation" /> : null}
      {record ? (
        <>
          <RecordFacts record={record} />
          <Trace record={record} />
          <Limits record={record} />
          <Explanation base={base} />
          <Evidence base={base} tenantId={session.tenant_id} />
        </>
      ) : null}
    </section>
  );
}

function RecordFacts({ record }: { record: ConsultationRecord }) {
  return (
    <>
      <dl class="facts">
        <dt>Verdict</dt>
        <dd>
          <span class="badge">{record.verdict}</span>
        </dd>
        <dt>Action</dt>
        <dd>{record.action}</dd>
        <dt>Resource</dt>
        <dd>{record.resource}</dd>
        <dt>Principal</dt>
        <dd>{record.caller_principal_id}</dd>
        <dt>On behalf of</dt>
        <dd>{record.on_behalf_of ?? '—'}</dd>
        <dt>Requested</dt>
        <dd>{record.requested_at}</dd>
        <dt>Deciding rule</dt>
        <dd>{record.dominating_rule_id ?? 'none (the tenant default)'}</dd>
        {record.approval_id ? (
          <>
            <dt>Approval</dt>
            <dd>{record.approval_id}</dd>
          </>
        ) : null}
      </dl>
      <h2>Scope</h2>
      <pre class="value">{jsonText(record.scope_used)}</pre>
      <h2>Parameters</h2>
      <pre class="value">{jsonText(record.parameters)}</pre>
      <h2>Context</h2>
      <pre class="value">{jsonText(record.context_snapshot)}</pre>
      <SensitiveValues record={record} />
    </>
  );
}

/** The values the record holds as commitments (docs/verdicts.md "Sensitive fields"): readable, erased, or not shown. */
function SensitiveValues({ record }: { record: ConsultationRecord }) {
  const rows = sensitiveRows(record);
  if (!rows.length) return null;
  return (
    <>
      <h2>Sensitive fields</h2>
      <p>Recorded as commitments, which the hashes and the signature cover; an erased value can no longer be read.</p>
      <table class="list">
        <caption class="visually-hidden">Each sensitive value of the record, by where it was</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.path}>
              <td>{r.path}</td>
              <td>{r.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Trace({ record }: { record: ConsultationRecord }) {
  return (
    <>
      <h2>Trace</h2>
      {record.precedence_trace.length ? (
        <table class="list">
          <caption class="visually-hidden">The rules that were candidates, in precedence order</caption>
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Version</th>
              <th scope="col">Severity</th>
              <th scope="col">Scope match</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {record.precedence_trace.map((t) => (
              <tr key={`${t.rule_id}/${t.rule_version_id}`}>
                <td>{t.rule_id}</td>
                <td>{t.rule_version_id}</td>
                <td>{t.severity}</td>
                <td>{t.scope_match}</td>
                <td>
                  {t.reason}
                  {t.decided_by ? ` (decided by ${t.decided_by})` : ''}
                  {t.overridden_by ? ` (overridden by ${t.overridden_by})` : ''}
                  {t.missing_fields?.length ? ` (missing ${t.missing_fields.join(', ')})` : ''}
                  {limitStateText(t) ? ` (${limitStateText(t)})` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No rule was a candidate: the tenant default decided.</p>
      )}
      {record.shadow?.length ? (
        <>
          <h3>Shadow rules that would have decided otherwise</h3>
          <ul>
            {record.shadow.map((s) => (
              <li key={s.rule_version_id}>
                {s.rule_id} ({s.rule_version_id}) would have answered {s.would_be}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

/** The windows the answer read (the record's `limits`): what each held before and after the operation, of its max. */
function Limits({ record }: { record: ConsultationRecord }) {
  const limits = limitsOf(record);
  if (!limits.length) return null;
  return (
    <>
      <h2>Limits</h2>
      <table class="list">
        <caption class="visually-hidden">The windows of the rules with a limit, before and after this operation</caption>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Window</th>
            <th scope="col">Key</th>
            <th scope="col">Used before</th>
            <th scope="col">Used after</th>
            <th scope="col">Max</th>
          </tr>
        </thead>
        <tbody>
          {limits.map((l) => (
            <tr key={`${l.rule_id}/${l.key}`}>
              <td>{l.rule_id}</td>
              <td>{l.window}</td>
              <td>{limitKeyText(l.key)}</td>
              <td>{l.used_before}</td>
              <td>{l.used_after}</td>
              <td>{l.max}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Explanation({ base }: { base: string }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const load = async () => {
    setBusy(true);
    setError(null);
    const r = await get<{ explanation: unknown }>(`${base}/explanation`);
    setBusy(false);
    if (r.ok)
      setText(
        r.data.explanation === null
          ? 'No explanation: the verdict was neither blocked nor approval_required.'
          : jsonText(r.data.explanation),
      );
    else setError(r.error);
  };
  return (
    <>
      <h2>Explanation</h2>
      {text === null ? (
        <button type="button" class="button" onClick={load} disabled={busy}>
          Show the explanation
        </button>
      ) : (
        <pre class="value">{text}</pre>
      )}
      <ErrorNotice error={error} context="The explanation could not be read" />
    </>
  );
}

const STATUS_TEXT = { pass: 'passed', fail: 'FAILED', info: 'note', unpinned: 'not pinned' } as const;

function Evidence({ base, tenantId }: { base: string; tenantId: string }) {
  const [trust, setTrust] = useState<{ name: string; anchors: TrustAnchors } | null>(null);
  const [trustError, setTrustError] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | string | null>(null);
  const [report, setReport] = useState<ConsoleEvidenceReport | null>(null);
  const [busy, setBusy] = useState(false);

  const onFile = async (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    setTrust(null);
    setReport(null);
    setTrustError(null);
    if (!file) return;
    const parsed = trustFromText(await file.text(), file.name);
    if (parsed.ok) setTrust({ name: file.name, anchors: parsed.trust });
    else setTrustError(parsed.error);
  };

  const verify = async (mode: 'trust' | 'published') => {
    setBusy(true);
    setError(null);
    setReport(null);
    try {
      const [record, evidence] = await Promise.all([get<unknown>(base), get<{ ledger?: { keys?: unknown } }>(`${base}/evidence`)]);
      if (!record.ok) return setError(record.error);
      if (!evidence.ok)
        return setError(
          evidence.error.code === 'evidence_pending'
            ? 'The consultation is not sealed in the ledger yet (sealing is asynchronous): try again in a moment.'
            : evidence.error,
        );
      let keys: EvidenceKeys;
      if (mode === 'trust' && trust) keys = { source: 'trust', trust: trust.anchors };
      else {
        const jwks = await get<unknown>(verdictPath(`v1/tenants/${seg(tenantId)}/jwks`));
        if (!jwks.ok) return setError(jwks.error);
        keys = {
          source: 'published',
          jwks: jwks.data as never,
          ledger_keys: (evidence.data.ledger?.keys ?? { keys: [] }) as never,
          where: "the verdict service's key set and the ledger keys in the evidence answer",
        };
      }
      setReport(await verifyConsultationEvidence({ record: record.data, evidence: evidence.data, keys }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h2>Evidence</h2>
      <p class="hint">
        Checks, in this browser, the record's hashes and ES256 signature, the ledger fact that sealed it, its RFC 9162 inclusion proof and
        the ledger's Ed25519-signed checkpoint: the checks of <code>arbiter verify evidence</code>.
      </p>
      <div class="actions">
        <label>
          Trust file (from <code>arbiter trust export</code>) <input type="file" accept="application/json,.json" onChange={onFile} />
        </label>
      </div>
      {trustError ? (
        <p role="alert" class="error-text">
          {trustError}
        </p>
      ) : null}
      {trust ? (
        <p class="muted">
          Loaded {trust.name}: keys of {trust.anchors.tenant_id}.
        </p>
      ) : null}
      <div class="actions">
        <button type="button" class="button primary" disabled={!trust || busy} onClick={() => verify('trust')}>
          Verify evidence with the trust file
        </button>
        <button type="button" class="button" disabled={busy} onClick={() => verify('published')}>
          Verify evidence with the published keys
        </button>
      </div>
      <ErrorNotice error={error} context="The evidence could not be verified" />
      {busy ? <Loading what="and checking the evidence" /> : null}
      {report ? <EvidenceReport report={report} /> : null}
    </>
  );
}

function EvidenceReport({ report }: { report: ConsoleEvidenceReport }) {
  return (
    <div class="evidence-report" aria-label="Evidence verification">
      {report.status === 'valid' ? (
        <p class="notice success" role="status">
          Valid: every check passed against the keys of your trust file.
        </p>
      ) : report.status === 'unpinned' ? (
        <p class="notice error" role="alert">
          Not pinned: every check passed, but against the keys the services publish, which are not pinned. A service that forged the record
          could publish matching keys; load a trust file to check against keys you hold.
        </p>
      ) : (
        <p class="notice error" role="alert">
          Invalid: the check {report.first_failure?.check} failed: {report.first_failure?.message}
        </p>
      )}
      <ol class="checks">
        {report.checks.map((c, i) => (
          <li key={i} data-check={c.check} data-status={c.status}>
            <strong>{c.check}</strong>: {STATUS_TEXT[c.status]}. <span class="muted">{c.message}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

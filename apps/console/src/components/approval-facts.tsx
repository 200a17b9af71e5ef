// What an approval asks, as a description list (docs/console.md "The inbox"). Everything from agents and users
// (action, resource, parameters, notes, justification) is a text child: Preact puts it in a text node, so markup in
// it is shown, never parsed.
import { duration, quorumState, type ApprovalView } from '../approvals';

/** Any JSON value, pretty-printed as text. */
export function JsonValue({ value, label }: { value: unknown; label: string }) {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return (
    <pre class="value" aria-label={label} tabIndex={0}>
      {text}
    </pre>
  );
}

export function When({ at, now, future }: { at: string; now: Date; future?: boolean }) {
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) return <span>{at}</span>;
  const delta = future ? ms - now.getTime() : now.getTime() - ms;
  const relative = future ? (delta > 0 ? `in ${duration(delta)}` : `${duration(-delta)} ago`) : `${duration(delta)} ago`;
  return (
    <time dateTime={new Date(ms).toISOString()} title={new Date(ms).toISOString()}>
      {relative} (
      {new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')}
      )
    </time>
  );
}

export interface FactsProps {
  view: ApprovalView;
  now: Date;
  /** Registry scope names by id. */
  scopeNames?: Map<string, string>;
  /** Rule statements found in the registry, by rule id (when the approval does not carry them). */
  statements?: Map<string, string>;
  full?: boolean;
}

export function ApprovalFacts({ view, now, scopeNames, statements, full }: FactsProps) {
  const quorum = quorumState(view);
  return (
    <dl class="facts">
      <dt>Action</dt>
      <dd>
        <code>{view.action}</code>
      </dd>
      {view.resource !== null ? (
        <>
          <dt>Resource</dt>
          <dd>
            <code>{view.resource}</code>
          </dd>
        </>
      ) : null}
      <dt>Scope</dt>
      <dd>
        {view.flow === 'registry' ? (
          <span>
            {scopeNames?.get(view.scopeId ?? '') ?? 'registry scope'} <code>{view.scopeId}</code>
          </span>
        ) : (
          <JsonValue value={view.operationScope ?? {}} label="Scope" />
        )}
      </dd>
      {view.parameters !== null ? (
        <>
          <dt>Parameters</dt>
          <dd>
            <JsonValue value={view.parameters} label="Parameters" />
          </dd>
        </>
      ) : null}
      <dt>{view.rules.length === 1 ? 'Deciding rule' : 'Deciding rules'}</dt>
      <dd>
        <ul class="plain">
          {view.rules.map((rule) => (
            <li key={rule.id}>
              <span class="statement">{rule.statement ?? statements?.get(rule.id) ?? '(statement not available)'}</span>{' '}
              <code>{rule.id}</code>
              {rule.kind === 'invariant' ? <span class="muted"> (invariant)</span> : null}
            </li>
          ))}
        </ul>
      </dd>
      <dt>Requested by</dt>
      <dd>
        <code>{view.requester ?? 'a service'}</code>
      </dd>
      <dt>{view.flow === 'verdict' ? 'On behalf of' : 'On behalf of (as stated)'}</dt>
      <dd>{view.onBehalfOf !== null ? <code>{view.onBehalfOf}</code> : <span class="muted">nobody named</span>}</dd>
      <dt>{view.flow === 'verdict' ? "Requester's notes" : 'Justification'}</dt>
      <dd>
        {view.requesterNotes !== null && view.requesterNotes !== '' ? (
          <span class="notes">{view.requesterNotes}</span>
        ) : (
          <span class="muted">none</span>
        )}
      </dd>
      <dt>Requested</dt>
      <dd>
        <When at={view.requestedAt} now={now} />
      </dd>
      <dt>Expires</dt>
      <dd>{view.expiresAt ? <When at={view.expiresAt} now={now} future /> : <span class="muted">not stated by the server</span>}</dd>
      <dt>Quorum</dt>
      <dd>{quorum ?? <span class="muted">one approval decides</span>}</dd>
      {full ? (
        <>
          <dt>Deciders</dt>
          <dd>
            {view.candidateDeciders.length ? (
              view.candidateDeciders.map((d, i) => (
                <span key={d}>
                  {i ? ', ' : ''}
                  <code>{d}</code>
                </span>
              ))
            ) : (
              <span class="muted">anyone holding approve</span>
            )}
          </dd>
          {view.escalatesAt ? (
            <>
              <dt>Escalates</dt>
              <dd>
                <When at={view.escalatesAt} now={now} future /> to{' '}
                {view.escalationDeciders.map((d, i) => (
                  <span key={d}>
                    {i ? ', ' : ''}
                    <code>{d}</code>
                  </span>
                ))}
              </dd>
            </>
          ) : null}
          {view.consultationId ? (
            <>
              <dt>Consultation</dt>
              <dd>
                <a href={`/console/consultations/${encodeURIComponent(view.consultationId)}`}>
                  <code>{view.consultationId}</code>
                </a>
              </dd>
            </>
          ) : null}
        </>
      ) : null}
    </dl>
  );
}

/** The approvals given so far (quorum), oldest first, each with its decider and notes. */
export function ApprovalsGiven({ view }: { view: ApprovalView }) {
  if (!view.approvals.length) return null;
  return (
    <section aria-labelledby="approvals-given">
      <h2 id="approvals-given">Approvals given</h2>
      <ul class="plain">
        {view.approvals.map((a) => (
          <li key={a.decider + a.decided_at}>
            <code>{a.decider}</code> at {a.decided_at}
            {a.notes ? (
              <>
                : <span class="notes">{a.notes}</span>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

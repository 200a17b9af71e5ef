// One approval (docs/console.md "Deciding"): everything the inbox shows and more, the approvals given so far, and,
// when the signed-in person may decide it, the decision form: notes, an optional bounded grant, Approve and Reject.
// The outcome or the server's refusal is announced in a live region.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../api';
import type { PageProps } from '../app';
import { mayDecide, quorumState, type ApprovalView } from '../approvals';
import { decide, listScopes, loadApproval, loadRuleIndex, loadTrigger, type ApprovalTarget, type LoadedApproval } from '../approvals-api';
import { ApprovalFacts, ApprovalsGiven, When } from '../components/approval-facts';
import { ErrorNotice, Loading, PageHeading, describeError } from '../components/page';

export type { ApprovalTarget };

/** `YYYY-MM-DDTHH:MM` in local time, the value format of a datetime-local input. Pure. */
export function localInputValue(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A datetime-local value as ISO 8601, or null when empty or not a time. Pure. */
export function isoFromLocalInput(value: string): string | null {
  if (!value.trim()) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Extra lines for a refusal whose details say more (the latest allowed grant end, who already decided). Pure. */
export function refusalHints(error: ApiError): string[] {
  const d = error.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {};
  const hints: string[] = [];
  if (typeof d.latest === 'string') hints.push(`The grant may end no later than ${d.latest}.`);
  if (typeof d.decider === 'string') hints.push(`Already decided by ${d.decider}.`);
  if (error.code === 'already_decided' || error.status === 409) hints.push('Reload the page to see its current state.');
  return hints;
}

type Feedback = { kind: 'ok'; text: string } | { kind: 'error'; error: ApiError } | null;

export function ApprovalPage({ session, target }: PageProps & { target: ApprovalTarget }) {
  const [loaded, setLoaded] = useState<LoadedApproval | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [statement, setStatement] = useState<Map<string, string>>(new Map());
  const [scopeNames, setScopeNames] = useState<Map<string, string>>(new Map());
  const [now, setNow] = useState(() => new Date());
  const [notes, setNotes] = useState('');
  const [withGrant, setWithGrant] = useState(false);
  const [grantUntil, setGrantUntil] = useState(() => localInputValue(new Date(Date.now() + 3600_000)));
  // Registry: the override's end is sent only when the person set it (else the server's default bound applies).
  const [grantTouched, setGrantTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const feedbackRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    void (async () => {
      const answer = await loadApproval(session, target);
      if (!live) return;
      if (!answer.ok) {
        setLoadError(answer.error);
        return;
      }
      setLoaded(answer.data);
      // The deciding rule's statement and the scope's name, from the registry (best effort: the page works without).
      const view = answer.data.view;
      const scopes = await listScopes();
      if (!live || !scopes.ok) return;
      setScopeNames(new Map(scopes.data.map((s) => [s.id, s.name])));
      if (view.flow === 'registry') {
        const trigger = await loadTrigger(view);
        if (live && trigger.ok && trigger.data) setStatement(new Map([[view.rules[0].id, trigger.data]]));
      } else if (view.rules.some((r) => r.statement === null)) {
        const rules = await loadRuleIndex(scopes.data);
        if (live) setStatement(new Map(rules.items.map((r) => [r.id, r.statement])));
      }
    })();
    return () => {
      live = false;
    };
  }, [session, target.flow, target.id, target.flow === 'registry' ? target.scopeId : '']);

  // In the commit that shows the feedback, not after the next paint: the refusal or success is announced with the
  // focus already on it, and nothing (a reader, a test) can see the message before the focus moved.
  useLayoutEffect(() => {
    if (feedback) feedbackRef.current?.focus();
  }, [feedback]);

  const onDecide = async (approve: boolean) => {
    if (!loaded || busy) return;
    const wanted = target.flow === 'registry' ? loaded.requiresApproval && grantTouched : withGrant;
    const until = approve && wanted ? isoFromLocalInput(grantUntil) : null;
    if (approve && target.flow === 'verdict' && withGrant && !until) {
      setFeedback({ kind: 'error', error: { status: 0, code: null, message: 'Give the time the grant ends, or untick the grant.' } });
      return;
    }
    setBusy(true);
    setFeedback(null);
    const answer = await decide(session, target, { approve, notes, grantUntil: until });
    setBusy(false);
    setNow(new Date());
    if (!answer.ok) {
      setFeedback({ kind: 'error', error: answer.error });
      return;
    }
    setLoaded(answer.data);
    setFeedback({ kind: 'ok', text: outcomeText(answer.data.view, approve) });
  };

  if (loadError)
    return (
      <section>
        <PageHeading>Approval {target.id}</PageHeading>
        <ErrorNotice error={loadError} context="This approval could not be read" />
      </section>
    );
  if (!loaded)
    return (
      <section>
        <PageHeading>Approval {target.id}</PageHeading>
        <Loading what="the approval" />
      </section>
    );

  const view = loaded.view;
  const verdict = mayDecide(view, session, now);
  return (
    <section>
      <PageHeading>
        Approval <code>{view.id}</code>
      </PageHeading>
      <p>
        <span class={`badge ${view.status}`}>{view.status}</span> {view.flow === 'verdict' ? 'A verdict approval' : 'A registry approval'}
        {quorumState(view) ? ` · ${quorumState(view)}` : ''}
      </p>
      <ApprovalFacts view={view} now={now} scopeNames={scopeNames} statements={statement} full />
      <ApprovalsGiven view={view} />
      {view.status !== 'pending' ? <DecisionSummary view={view} now={now} /> : null}
      <div ref={feedbackRef} tabIndex={-1} aria-live="polite" class="feedback">
        {feedback?.kind === 'ok' ? <p class="notice success">{feedback.text}</p> : null}
        {feedback?.kind === 'error' ? (
          <div class="notice error" role="alert">
            <strong>The decision was refused: </strong>
            {describeError(feedback.error)}
            {refusalHints(feedback.error).map((h) => (
              <span key={h}> {h}</span>
            ))}
          </div>
        ) : null}
      </div>
      {verdict.may ? (
        <form
          class="decide"
          aria-labelledby="decide-heading"
          onSubmit={(e) => {
            e.preventDefault();
          }}
        >
          <h2 id="decide-heading">Your decision</h2>
          <div>
            <label for="decision-notes">Notes (optional)</label>
            <textarea
              id="decision-notes"
              rows={3}
              maxLength={20000}
              value={notes}
              onInput={(e) => setNotes((e.target as HTMLTextAreaElement).value)}
              aria-describedby="decision-notes-hint"
            />
            <p id="decision-notes-hint" class="hint">
              Kept with the decision; the requester and later readers see them.
            </p>
          </div>
          {view.flow === 'verdict' ? (
            <fieldset>
              <legend>Grant (optional)</legend>
              <p>
                <input
                  type="checkbox"
                  id="grant-enabled"
                  checked={withGrant}
                  onChange={(e) => setWithGrant((e.target as HTMLInputElement).checked)}
                />{' '}
                <label for="grant-enabled">Approve with a grant: later operations in this scope are allowed until the time below</label>
              </p>
              <label for="grant-until">Grant ends at (your local time)</label>
              <input
                type="datetime-local"
                id="grant-until"
                value={grantUntil}
                disabled={!withGrant}
                onInput={(e) => setGrantUntil((e.target as HTMLInputElement).value)}
                aria-describedby="grant-hint"
              />
              <p id="grant-hint" class="hint">
                The grant covers exactly the approved operation's scope and ends at most APPROVAL_GRANT_TTL_SECONDS (1 hour by default)
                after the decision; the server refuses a later end. Without a grant, the requester's next check of exactly this operation is
                allowed once.
              </p>
            </fieldset>
          ) : loaded.requiresApproval ? (
            <div>
              <label for="grant-until">Override ends at (your local time)</label>
              <input
                type="datetime-local"
                id="grant-until"
                value={grantUntil}
                onInput={(e) => {
                  setGrantTouched(true);
                  setGrantUntil((e.target as HTMLInputElement).value);
                }}
                aria-describedby="grant-hint"
              />
              <p id="grant-hint" class="hint">
                Approving creates an override of the trigger until then, at most APPROVAL_GRANT_TTL_SECONDS (1 hour by default) after the
                decision; left unchanged, the server uses that bound.
              </p>
            </div>
          ) : null}
          <div class="actions">
            <button type="button" class="approve" disabled={busy} onClick={() => void onDecide(true)}>
              Approve
            </button>
            <button type="button" class="reject" disabled={busy} onClick={() => void onDecide(false)}>
              Reject
            </button>
          </div>
        </form>
      ) : view.status === 'pending' ? (
        <p class="notice">You may not decide this approval: {verdict.reason}.</p>
      ) : null}
    </section>
  );
}

function outcomeText(view: ApprovalView, approved: boolean): string {
  if (view.status === 'pending' && approved) {
    const quorum = quorumState(view);
    return `Your approval is recorded${quorum ? ` (${quorum})` : ''}. The approval stays pending until enough deciders approve.`;
  }
  if (view.status === 'approved') return `Approved.${view.outcome ? ` ${view.outcome}.` : ''}`;
  if (view.status === 'rejected') return 'Rejected.';
  return `The approval is now ${view.status}.`;
}

function DecisionSummary({ view, now }: { view: ApprovalView; now: Date }) {
  return (
    <section aria-labelledby="decision-heading">
      <h2 id="decision-heading">Decision</h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>{view.status}</dd>
        <dt>Decided by</dt>
        <dd>
          {view.decider ? (
            <code>{view.decider}</code>
          ) : (
            <span class="muted">nobody (it {view.status === 'expired' ? 'expired' : 'was not decided by a person'})</span>
          )}
        </dd>
        {view.decidedAt ? (
          <>
            <dt>Decided</dt>
            <dd>
              <When at={view.decidedAt} now={now} />
            </dd>
          </>
        ) : null}
        <dt>Notes</dt>
        <dd>{view.deciderNotes ? <span class="notes">{view.deciderNotes}</span> : <span class="muted">none</span>}</dd>
        {view.outcome ? (
          <>
            <dt>Outcome</dt>
            <dd>{view.outcome}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

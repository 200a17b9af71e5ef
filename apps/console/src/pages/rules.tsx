// /console/rules (docs/evidence.md "In the console"): the rules of a scope with their versions, the disagreements of
// shadow rules (GET /api/v1/rules/<id>/shadow), and a simulation preview of an edit: the edited content replayed by
// POST /<tenant>/v1/simulations over past consultations, listing those whose verdict would change. Nothing is saved.
import { useEffect, useState } from 'preact/hooks';
import { get, post, query, registryPath, seg, verdictPath, type ApiError } from '../api';
import type { PageProps } from '../app';
import { ErrorNotice, Loading, PageHeading } from '../components/page';
import { BASE } from '../router';
import {
  draftOf,
  simulationRequest,
  windowText,
  type Rule,
  type RuleVersion,
  type Scope,
  type ShadowReport,
  type SimulationResult,
} from '../rules';

type Page<T> = { items: T[]; next_cursor: string | null };

export function RulesPage({ session }: PageProps) {
  const [scopes, setScopes] = useState<Scope[] | null>(null);
  const [scopeId, setScopeId] = useState('');
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    void get<Page<Scope>>(registryPath(`scopes${query({ limit: 1000 })}`)).then((r) => {
      if (!r.ok) return setError(r.error);
      setScopes(r.data.items);
      if (r.data.items.length) setScopeId(r.data.items[0].id);
    });
  }, []);

  return (
    <section>
      <PageHeading>Rules</PageHeading>
      <ErrorNotice error={error} context="The scopes could not be read" />
      {!scopes && !error ? <Loading what="scopes" /> : null}
      {scopes ? (
        scopes.length ? (
          <label>
            Scope{' '}
            <select value={scopeId} onChange={(e) => setScopeId((e.currentTarget as HTMLSelectElement).value)}>
              {scopes.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.id})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <p>The tenant has no scope.</p>
        )
      ) : null}
      {scopeId ? (
        <ScopeRules key={scopeId} scopeId={scopeId} tenantId={session.tenant_id} canSimulate={canSimulate(session.permissions)} />
      ) : null}
    </section>
  );
}

/** The simulation needs manage_rules (admin and platform_admin hold everything). */
const canSimulate = (permissions: string[]) => permissions.some((p) => p === 'manage_rules' || p === 'admin' || p === 'platform_admin');

function ScopeRules({ scopeId, tenantId, canSimulate }: { scopeId: string; tenantId: string; canSimulate: boolean }) {
  const [rules, setRules] = useState<Rule[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [editing, setEditing] = useState<Rule | null>(null);

  useEffect(() => {
    void get<Page<Rule>>(registryPath(`scopes/${seg(scopeId)}/rules${query({ status: 'active', limit: 1000 })}`)).then((r) => {
      if (r.ok) setRules(r.data.items);
      else setError(r.error);
    });
  }, [scopeId]);

  return (
    <>
      <ErrorNotice error={error} context="The rules could not be read" />
      {!rules && !error ? <Loading what="rules" /> : null}
      {rules && !rules.length ? <p>This scope has no active rule.</p> : null}
      {rules?.length ? (
        <ul class="cards">
          {rules.map((rule) => (
            <li key={rule.id} class="card">
              <RuleCard rule={rule} scopeId={scopeId} onEdit={canSimulate ? () => setEditing(rule) : undefined} />
            </li>
          ))}
        </ul>
      ) : null}
      {editing ? <SimulationPreview key={editing.id} rule={editing} tenantId={tenantId} /> : null}
    </>
  );
}

function RuleCard({ rule, scopeId, onEdit }: { rule: Rule; scopeId: string; onEdit?: () => void }) {
  const [versions, setVersions] = useState<RuleVersion[] | null>(null);
  const [shadow, setShadow] = useState<ShadowReport | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const remembers = windowText(rule);

  useEffect(() => {
    if (rule.mode !== 'shadow') return;
    void get<ShadowReport>(registryPath(`rules/${seg(rule.id)}/shadow`)).then((r) => (r.ok ? setShadow(r.data) : setError(r.error)));
  }, [rule.id, rule.mode]);

  const loadVersions = async () => {
    const r = await get<Page<RuleVersion>>(registryPath(`scopes/${seg(scopeId)}/rules/${seg(rule.id)}/versions${query({ limit: 100 })}`));
    if (r.ok) setVersions(r.data.items);
    else setError(r.error);
  };

  return (
    <>
      <h3>{rule.directive}</h3>
      <dl class="facts">
        <dt>Rule</dt>
        <dd>{rule.id}</dd>
        <dt>Severity</dt>
        <dd>{rule.severity}</dd>
        <dt>Mode</dt>
        <dd>{rule.mode === 'shadow' ? 'shadow (evaluated, never decides)' : 'enforce'}</dd>
        {remembers ? (
          <>
            <dt>{rule.limit ? 'Limit' : 'Requires prior'}</dt>
            <dd>{remembers}</dd>
          </>
        ) : null}
        <dt>Current version</dt>
        <dd>{rule.current_version_id}</dd>
      </dl>
      {shadow ? (
        <div class="shadow-report">
          <h4>Shadow disagreements</h4>
          <p>
            {shadow.disagreements === 0
              ? 'No consultation so far would have been decided otherwise.'
              : `${shadow.disagreements} consultations would have been decided otherwise.`}
          </p>
          {shadow.by_version.length ? (
            <table class="list">
              <caption class="visually-hidden">Shadow disagreements of {rule.id} by version</caption>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Disagreements</th>
                  <th scope="col">Latest</th>
                </tr>
              </thead>
              <tbody>
                {shadow.by_version.map((v) => (
                  <tr key={v.rule_version_id}>
                    <td>{v.rule_version_id}</td>
                    <td>{v.disagreements}</td>
                    <td>{v.last_at}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}
      <div class="actions">
        {versions ? null : (
          <button type="button" class="button" onClick={loadVersions}>
            Show versions of {rule.id}
          </button>
        )}
        {onEdit ? (
          <button type="button" class="button" onClick={onEdit}>
            Preview an edit of {rule.id}
          </button>
        ) : null}
      </div>
      {versions ? (
        <ol>
          {versions.map((v) => (
            <li key={v.id}>
              {v.id} ({v.status}, {v.created_at}): {v.severity}, {v.mode}: {v.directive}
            </li>
          ))}
        </ol>
      ) : null}
      <ErrorNotice error={error} />
    </>
  );
}

function SimulationPreview({ rule, tenantId }: { rule: Rule; tenantId: string }) {
  const [text, setText] = useState(() => draftOf(rule));
  const [days, setDays] = useState('7');
  const [result, setResult] = useState<SimulationResult | null>(null);
  const [error, setError] = useState<ApiError | string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setResult(null);
    const request = simulationRequest(rule.id, text, Number(days));
    if (!request.ok) return setError(request.error);
    setBusy(true);
    const r = await post<SimulationResult>(verdictPath(`${seg(tenantId)}/v1/simulations`), request.body);
    setBusy(false);
    if (r.ok) setResult(r.data);
    else setError(r.error);
  };

  return (
    <form class="simulation" aria-labelledby="simulation-heading" onSubmit={run}>
      <h2 id="simulation-heading">Simulation preview: {rule.id}</h2>
      <p class="hint">
        Replays past consultations against the rules with this edit; nothing is saved. Write the rule's content as JSON (directive,
        severity, applies_to, conditions, …).
      </p>
      <label>
        Rule content (JSON)
        <textarea
          rows={14}
          cols={80}
          spellcheck={false}
          value={text}
          onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      <label>
        Consultations of the last (days){' '}
        <input type="number" min={1} max={365} value={days} onInput={(e) => setDays((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <div class="actions">
        <button type="submit" class="button primary" disabled={busy}>
          Run the simulation
        </button>
      </div>
      <ErrorNotice error={error} context="The simulation did not run" />
      {busy ? <Loading what="the simulation" /> : null}
      {result ? <SimulationOutcome result={result} /> : null}
    </form>
  );
}

function SimulationOutcome({ result }: { result: SimulationResult }) {
  return (
    <div class="simulation-result" role="status">
      <p>
        {result.changed} of {result.evaluated} consultations would change verdict ({result.window.since} to {result.window.until}).
      </p>
      {Object.keys(result.transitions).length ? (
        <ul>
          {Object.entries(result.transitions).map(([t, n]) => (
            <li key={t}>
              {t.replace('->', ' → ')}: {n}
            </li>
          ))}
        </ul>
      ) : null}
      {result.samples.length ? (
        <table class="list">
          <caption>Consultations whose verdict would change</caption>
          <thead>
            <tr>
              <th scope="col">Consultation</th>
              <th scope="col">Requested</th>
              <th scope="col">Action</th>
              <th scope="col">Resource</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {result.samples.map((s) => (
              <tr key={s.consultation_id}>
                <td>
                  <a href={`${BASE}/consultations/${seg(s.consultation_id)}`}>{s.consultation_id}</a>
                </td>
                <td>{s.requested_at}</td>
                <td>{s.action}</td>
                <td>{s.resource}</td>
                <td>{s.before}</td>
                <td>{s.after}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

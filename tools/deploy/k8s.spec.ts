import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import {
  baseObjects,
  containerEnv,
  DEPLOYMENT_REQUIRED,
  IMAGE_ENV,
  find,
  hasKubectl,
  OVERLAY_PARTS,
  OVERLAYS,
  renderOverlay,
  ROOT,
  selects,
  yamlDocuments,
  yamlFiles,
  type Container,
  type K8sObject,
  type LabelSelector,
} from './manifests';
import { schemaErrors } from './schemas';
import { APPS, CLOSE_HOOKS_MS, envVarsOf, SERVICES, type App } from './sources';

/**
 * The Kubernetes manifests (k8s/) as kustomize renders them: what every service needs is provided, secrets
 * only by reference, probes and resources everywhere, nothing sized for one replica.
 */

const ROOT_VERSION = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;

// Without kubectl the overlay checks are skipped on a developer's machine, but never in CI (CI=true): there each of
// them fails, saying how to get kubectl (.ci/run fetches it with tools/deploy/fetch-kubectl.mjs).
const kubectl = hasKubectl() || process.env.CI === 'true';
if (!kubectl) {
  console.warn(
    'tools/deploy/k8s.spec.ts: no kubectl; the overlay checks are skipped (run `node tools/deploy/fetch-kubectl.mjs` to run them).',
  );
}
const withKubectl = kubectl ? describe : describe.skip;

/** Every kustomization that can be applied: each overlay, and each of its parts alone. */
const APPLICABLE = OVERLAYS.flatMap((o) => [o, ...OVERLAY_PARTS.map((part) => `${o}/${part}`)]);
/** The part an object belongs to: its app.kubernetes.io/name label (every object of a deployable's part has it), else shared. */
const partOf = (o: K8sObject): string => {
  const name = o.metadata.labels?.['app.kubernetes.io/name'] ?? '';
  return (APPS as readonly string[]).includes(name) ? name : 'shared';
};
const identity = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;

describe('k8s manifests', () => {
  it('parses every YAML file under k8s/', () => {
    const files = yamlFiles(path.join(ROOT, 'k8s'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(yamlDocuments(file).length).toBeGreaterThan(0);
  });

  it('defines no Secret, so no value can be committed', () => {
    for (const file of yamlFiles(path.join(ROOT, 'k8s'))) {
      for (const doc of yamlDocuments<K8sObject>(file)) expect(doc.kind).not.toBe('Secret');
    }
  });

  it('runs the migrations of every database in an init container of its Deployment, and has no Job to delete by hand', () => {
    for (const service of SERVICES) {
      const pod = find(baseObjects(), 'Deployment', service)!.spec!.template!.spec;
      expect(pod.initContainers?.map((c) => [c.name, c.command])).toEqual([['migrate', ['node', 'migrate.js']]]);
    }
    expect(baseObjects().filter((o) => o.kind === 'Job')).toEqual([]);
  });

  it('splits the base into a shared part and one kustomization per deployable, each listing only its own files', () => {
    const base = path.join(ROOT, 'k8s', 'base');
    const [root] = yamlDocuments<{ resources: string[] }>(path.join(base, 'kustomization.yaml'));
    expect(root.resources).toEqual([...OVERLAY_PARTS]);
    for (const part of OVERLAY_PARTS) {
      const [k] = yamlDocuments<{ resources: string[] }>(path.join(base, part, 'kustomization.yaml'));
      expect(k.resources.every((r) => !r.includes('/'))).toBe(true);
    }
  });
});

withKubectl.each(APPLICABLE)('k8s kustomization %s', (name) => {
  it('renders with kubectl kustomize, every object valid against the Kubernetes (and Prometheus Operator) schemas', () => {
    const objects = renderOverlay(name);
    expect(objects.length).toBeGreaterThan(0);
    expect(schemaErrors(objects)).toEqual([]);
  });

  it('puts every object in the arbiter namespace', () => {
    for (const o of renderOverlay(name)) {
      expect({ object: identity(o), namespace: o.metadata.namespace }).toEqual({ object: identity(o), namespace: 'arbiter' });
    }
  });
});

withKubectl.each(OVERLAYS)('k8s overlay %s, applied one part at a time', (overlay) => {
  it('renders as a whole exactly what its parts render one by one', () => {
    const parts = OVERLAY_PARTS.flatMap((part) => renderOverlay(`${overlay}/${part}`));
    const byId = (list: K8sObject[]) => Object.fromEntries(list.map((o) => [identity(o), o]));
    expect(byId(renderOverlay(overlay))).toEqual(byId(parts));
    expect(new Set(parts.map(identity)).size).toBe(parts.length);
  });

  it.each(OVERLAY_PARTS)('holds in part %s only objects of that part, so applying it leaves the others alone', (part) => {
    const objects = renderOverlay(`${overlay}/${part}`);
    expect(objects.filter((o) => partOf(o) !== part).map(identity)).toEqual([]);
    // …and every object of the part carries that label, so `kubectl apply --prune -l app.kubernetes.io/name=<part>` finds them all.
    if (part !== 'shared') expect(find(objects, 'Deployment', part)).toBeDefined();
  });
});

withKubectl.each(OVERLAYS)('k8s overlay %s (kubectl kustomize)', (overlay) => {
  const objects = () => renderOverlay(overlay);
  const deployment = (app: App) => find(objects(), 'Deployment', app)!;
  const podLabels = (o: K8sObject) => o.spec!.template!.metadata!.labels!;
  const containerOf = (o: K8sObject): Container => o.spec!.template!.spec.containers[0];

  it('has a Deployment for each deployable, the worker included', () => {
    for (const app of APPS) expect(deployment(app)).toBeDefined();
  });

  it.each(APPS)('provides every variable %s requires, each secret only through a secretKeyRef', (app) => {
    const env = containerEnv(containerOf(deployment(app)), objects());
    const schema = envVarsOf(app);
    const missing = [...schema.filter((v) => v.required).map((v) => v.name), ...DEPLOYMENT_REQUIRED[app]].filter((n) => !env.has(n));
    expect(missing).toEqual([]);
    const known = new Set([...schema.map((v) => v.name), ...IMAGE_ENV]);
    expect([...env.keys()].filter((n) => !known.has(n))).toEqual([]);
    for (const v of schema.filter((s) => s.secret && env.has(s.name))) {
      expect({ name: v.name, from: env.get(v.name) }).toEqual({ name: v.name, from: 'secret' });
    }
  });

  it('holds no secret in a ConfigMap', () => {
    const secretNames = new Set(
      APPS.flatMap((a) =>
        envVarsOf(a)
          .filter((v) => v.secret)
          .map((v) => v.name),
      ),
    );
    for (const map of objects().filter((o) => o.kind === 'ConfigMap')) {
      expect(Object.keys(map.data ?? {}).filter((k) => secretNames.has(k))).toEqual([]);
    }
    expect(objects().filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  it('gives every container of every Deployment, init containers included, CPU and memory requests and limits', () => {
    const workloads = objects().filter((o) => o.kind === 'Deployment');
    for (const w of workloads) {
      for (const c of [...(w.spec!.template!.spec.initContainers ?? []), ...w.spec!.template!.spec.containers]) {
        expect({ workload: w.metadata.name, resources: c.resources }).toEqual({
          workload: w.metadata.name,
          resources: {
            requests: { cpu: expect.any(String), memory: expect.any(String) },
            limits: { cpu: expect.any(String), memory: expect.any(String) },
          },
        });
      }
    }
  });

  it.each(SERVICES)('probes %s on /livez and /readyz at the port its ConfigMap makes it listen on', (service) => {
    const c = containerOf(deployment(service));
    expect(c.livenessProbe?.httpGet?.path).toBe('/livez');
    expect(c.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(c.startupProbe?.httpGet?.path).toBe('/livez');
    const configMap = find(objects(), 'ConfigMap', c.envFrom![0].configMapRef!.name)!;
    const port = c.ports!.find((p) => p.name === c.readinessProbe!.httpGet!.port);
    expect(port?.containerPort).toBe(Number(configMap.data!.PORT));
    expect(configMap.data!.HOST).toBe('0.0.0.0');
  });

  it('probes the worker on its ops endpoint (METRICS_PORT): /livez and /readyz', () => {
    const c = containerOf(deployment('worker'));
    expect(c.livenessProbe?.httpGet?.path).toBe('/livez');
    expect(c.readinessProbe?.httpGet?.path).toBe('/readyz');
    const configMap = find(objects(), 'ConfigMap', c.envFrom![0].configMapRef!.name)!;
    const port = c.ports!.find((p) => p.name === c.readinessProbe!.httpGet!.port);
    expect(port?.containerPort).toBe(Number(configMap.data!.METRICS_PORT));
    expect(configMap.data!.HOST).toBe('0.0.0.0');
  });

  it('gives every process time to finish in-flight work before it is killed', () => {
    for (const app of APPS) {
      const d = deployment(app);
      const c = containerOf(d);
      const configMap = find(objects(), 'ConfigMap', c.envFrom![0].configMapRef!.name)!;
      const preStop = Number(c.lifecycle?.preStop?.exec?.command.at(-1) ?? 0);
      const needed = preStop + Number(configMap.data!.SHUTDOWN_GRACE_MS) / 1000 + CLOSE_HOOKS_MS / 1000;
      expect({ app, enough: d.spec!.template!.spec.terminationGracePeriodSeconds! >= needed }).toEqual({ app, enough: true });
    }
  });

  it('runs every container as a non-root user', () => {
    for (const w of objects().filter((o) => o.kind === 'Deployment')) {
      expect(w.spec!.template!.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: expect.any(Number) });
      expect(w.spec!.template!.spec.securityContext!.runAsUser).not.toBe(0);
    }
  });

  it(`references only images built from this repository, tagged ${ROOT_VERSION}`, () => {
    for (const w of objects().filter((o) => o.kind === 'Deployment')) {
      const app = w.metadata.labels!['app.kubernetes.io/name'];
      for (const c of [...(w.spec!.template!.spec.initContainers ?? []), ...w.spec!.template!.spec.containers])
        expect(c.image).toBe(`arbiter/${app}:${ROOT_VERSION}`);
    }
  });

  it.each(SERVICES)('migrates the %s database in an init container of the same image, given only its database URL', (service) => {
    const pod = deployment(service).spec!.template!.spec;
    const [init] = pod.initContainers!;
    expect(init.command).toEqual(['node', 'migrate.js']);
    expect(init.image).toBe(pod.containers[0].image);
    const env = containerEnv(init, objects());
    expect([...env]).toEqual([[`DATABASE_URL_${service.toUpperCase()}`, 'secret']]);
    expect(init.env![0].valueFrom!.secretKeyRef).toEqual(
      pod.containers[0].env!.find((e) => e.name === init.env![0].name)!.valueFrom!.secretKeyRef,
    );
  });

  it('has no Job: nothing to delete by hand before an upgrade', () => {
    expect(objects().filter((o) => o.kind === 'Job')).toEqual([]);
  });

  it('autoscales verdict and ledger, and leaves their replica count to the autoscaler', () => {
    for (const service of ['verdict', 'ledger'] as const) {
      const hpa = find(objects(), 'HorizontalPodAutoscaler', service)!;
      expect(hpa.spec!.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: service });
      expect(hpa.spec!.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec!.maxReplicas).toBeGreaterThan(hpa.spec!.minReplicas!);
      expect(deployment(service).spec!.replicas).toBeUndefined();
    }
  });

  it('runs at least two replicas of what is not autoscaled', () => {
    for (const app of ['registry', 'worker'] as const) expect(deployment(app).spec!.replicas).toBeGreaterThanOrEqual(2);
  });

  it('has a PodDisruptionBudget that selects each Deployment and still lets a pod be evicted', () => {
    for (const app of APPS) {
      const pdb = find(objects(), 'PodDisruptionBudget', app)!;
      expect(selects(pdb.spec!.selector as LabelSelector, podLabels(deployment(app)))).toBe(true);
      expect(pdb.spec!.maxUnavailable).toBeGreaterThanOrEqual(1);
    }
  });

  it('routes each Service to its own pods only', () => {
    for (const service of SERVICES) {
      const svc = find(objects(), 'Service', service)!;
      const selector = { matchLabels: svc.spec!.selector as Record<string, string> };
      expect(selects(selector, podLabels(deployment(service)))).toBe(true);
      for (const other of APPS.filter((a) => a !== service)) expect(selects(selector, podLabels(deployment(other)))).toBe(false);
      expect(svc.spec!.ports![0].targetPort).toBe('http');
    }
  });

  it('lets only the other services, the ingress controller and Prometheus reach the registry (/internal/v1)', () => {
    const policies = objects().filter((o) => o.kind === 'NetworkPolicy');
    const registryPods = podLabels(deployment('registry'));
    const governing = policies.filter((p) => selects(p.spec!.podSelector, registryPods));
    expect(governing.length).toBeGreaterThan(0);
    const peers = governing.flatMap((p) => (p.spec!.ingress ?? []).flatMap((rule) => rule.from ?? [{}]));
    // A rule without `from` would admit everyone.
    expect(peers.every((peer) => peer.podSelector || peer.namespaceSelector)).toBe(true);
    const podPeers = peers.filter((peer) => peer.podSelector);
    for (const app of ['verdict', 'ledger', 'worker'] as const) {
      expect(podPeers.some((peer) => selects(peer.podSelector, podLabels(deployment(app))))).toBe(true);
    }
    const stranger = { 'app.kubernetes.io/name': 'something-else' };
    expect(podPeers.some((peer) => selects(peer.podSelector, stranger))).toBe(false);
    const namespaces = peers
      .filter((p) => p.namespaceSelector)
      .map((p) => p.namespaceSelector!.matchLabels!['kubernetes.io/metadata.name']);
    expect(namespaces.sort()).toEqual(['ingress-nginx', 'monitoring']);
  });

  it('lets Prometheus scrape every deployable: annotations naming a declared port, which the NetworkPolicies open to it', () => {
    const policies = objects().filter((o) => o.kind === 'NetworkPolicy');
    for (const app of APPS) {
      const d = deployment(app);
      const annotations = d.spec!.template!.metadata!.annotations ?? {};
      expect({ app, scrape: annotations['prometheus.io/scrape'], path: annotations['prometheus.io/path'] }).toEqual({
        app,
        scrape: 'true',
        path: '/metrics',
      });
      const port = containerOf(d).ports!.find((p) => p.containerPort === Number(annotations['prometheus.io/port']));
      expect({ app, port: port?.name }).toEqual({ app, port: app === 'worker' ? 'metrics' : 'http' });
      const monitoringMayConnect = policies
        .filter((p) => selects(p.spec!.podSelector, podLabels(d)))
        .some((p) =>
          (p.spec!.ingress ?? []).some(
            (rule) =>
              (rule.from ?? []).some((peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring') &&
              (rule.ports ?? []).some((rp) => rp.port === port!.name || rp.port === port!.containerPort),
          ),
        );
      expect({ app, monitoringMayConnect }).toEqual({ app, monitoringMayConnect: true });
    }
  });

  it('denies all other ingress to Arbiter pods by default', () => {
    const deny = find(objects(), 'NetworkPolicy', 'arbiter-default-deny-ingress')!;
    expect(deny.spec!.ingress ?? []).toEqual([]);
    for (const app of APPS) expect(selects(deny.spec!.podSelector, podLabels(deployment(app)))).toBe(true);
  });
});

withKubectl('k8s overlay small: database access', () => {
  it('lets the three services but not the worker reach PostgreSQL, and every process reach Redis', () => {
    const objects = renderOverlay('small');
    const labels = (name: string) => find(objects, 'Deployment', name)!.spec!.template!.metadata!.labels!;
    const admitted = (policy: string, pod: Record<string, string>) =>
      (find(objects, 'NetworkPolicy', policy)!.spec!.ingress ?? []).some((rule) =>
        (rule.from ?? []).some((peer) => selects(peer.podSelector, pod)),
      );
    for (const service of SERVICES) expect(admitted('arbiter-postgres-ingress', labels(service))).toBe(true);
    expect(admitted('arbiter-postgres-ingress', labels('worker'))).toBe(false);
    for (const app of APPS) expect(admitted('arbiter-redis-ingress', labels(app))).toBe(true);
  });
});

/** The alert names of docs/operations.md "Alerts" (its table's first column). */
function documentedAlerts(): string[] {
  const doc = readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
  const start = doc.indexOf('\n### Alerts\n');
  expect(start).toBeGreaterThan(0);
  const section = doc.slice(start + 1, doc.indexOf('\n#', start + 2));
  return [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
}

/** The source of every non-test TypeScript file of the apps and libs. */
function sources(): string {
  return ['apps', 'libs']
    .flatMap((top) => readdirSync(path.join(ROOT, top), { recursive: true, encoding: 'utf8' }).map((f) => path.join(ROOT, top, f)))
    .filter(
      (f) =>
        f.includes(`${path.sep}src${path.sep}`) &&
        f.endsWith('.ts') &&
        !f.endsWith('.spec.ts') &&
        !f.includes(`${path.sep}generated${path.sep}`),
    )
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

/** Series names prom-client's default metrics serve (every process turns them on, libs/http ServiceMetrics). */
async function defaultSeries(): Promise<Set<string>> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const names = (await registry.getMetricsAsJSON()).map((m) => m.name);
  registry.clear();
  return new Set(names);
}

withKubectl('k8s overlay production: zones and the Prometheus Operator', () => {
  const objects = () => renderOverlay('production');
  const podLabels = (o: K8sObject) => o.spec!.template!.metadata!.labels!;

  it('spreads every Deployment over zones as well as nodes', () => {
    for (const app of APPS) {
      const keys = find(objects(), 'Deployment', app)!.spec!.template!.spec.topologySpreadConstraints!.map((c) => c.topologyKey);
      expect({ app, keys: keys.sort() }).toEqual({ app, keys: ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'] });
    }
  });

  it('scrapes all four deployables with one PodMonitor, on /metrics at a port each declares', () => {
    const monitor = find(objects(), 'PodMonitor', 'arbiter')!;
    const endpoints = monitor.spec!.podMetricsEndpoints!;
    expect(endpoints.every((e) => e.path === '/metrics')).toBe(true);
    for (const app of APPS) {
      const d = find(objects(), 'Deployment', app)!;
      expect({ app, selected: selects(monitor.spec!.selector as LabelSelector, podLabels(d)) }).toEqual({ app, selected: true });
      const declared = d.spec!.template!.spec.containers[0].ports!.map((p) => p.name);
      expect({ app, scraped: endpoints.some((e) => declared.includes(e.port)) }).toEqual({ app, scraped: true });
    }
  });

  it('alerts exactly as docs/operations.md "Alerts" lists, only on series that exist', async () => {
    const rules = find(objects(), 'PrometheusRule', 'arbiter')!.spec!.groups!.flatMap((g) => g.rules);
    expect(rules.map((r) => r.alert).sort()).toEqual(documentedAlerts().sort());
    const code = sources();
    const defaults = await defaultSeries();
    const doc = readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
    for (const rule of rules) {
      const names = [...rule.expr.matchAll(/\b((?:arbiter|nodejs|process|kube)_[a-z0-9_]+)\b/g)].map((m) => m[1]);
      expect({ alert: rule.alert, names: names.length > 0 }).toEqual({ alert: rule.alert, names: true });
      for (const name of names) {
        let known: boolean;
        if (name.startsWith('arbiter_')) {
          // Defined as metrics.counter|gauge|histogram('<name without arbiter_>', …); a histogram serves _bucket, _sum, _count.
          const base = name.slice('arbiter_'.length);
          known =
            [base, base.replace(/_(bucket|sum|count)$/, '')].some((b) => code.includes(`('${b}'`)) &&
            doc.includes(name.replace(/_(bucket|sum|count)$/, ''));
        } else if (name.startsWith('kube_')) {
          known = name === 'kube_deployment_status_replicas_unavailable'; // kube-state-metrics, named in the docs
        } else {
          known = defaults.has(name);
        }
        expect({ alert: rule.alert, series: name, known }).toEqual({ alert: rule.alert, series: name, known: true });
      }
      expect(['warning', 'critical']).toContain(rule.labels?.severity);
    }
  });
});

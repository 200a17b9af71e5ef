import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  baseObjects,
  containerEnv,
  DEPLOYMENT_REQUIRED,
  IMAGE_ENV,
  find,
  hasKubectl,
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
import { APPS, CLOSE_HOOKS_MS, envVarsOf, SERVICES, type App } from './sources';

/**
 * The Kubernetes manifests (k8s/) as kustomize renders them: what every service needs is provided, secrets
 * only by reference, probes and resources everywhere, nothing sized for one replica.
 */

const ROOT_VERSION = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;

const kubectl = hasKubectl();
if (!kubectl) {
  console.warn('tools/deploy/k8s.spec.ts: kubectl is not on the PATH; the overlay checks are skipped (install kubectl >= 1.27 to run them).');
}
const withKubectl = kubectl ? describe : describe.skip;

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

  it('runs the migrations of every database in a Job of the base', () => {
    for (const service of SERVICES) {
      const job = find(baseObjects(), 'Job', `${service}-migrate`);
      expect(job?.spec?.template?.spec.containers[0].command).toEqual(['node', 'migrate.js']);
    }
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
    const secretNames = new Set(APPS.flatMap((a) => envVarsOf(a).filter((v) => v.secret).map((v) => v.name)));
    for (const map of objects().filter((o) => o.kind === 'ConfigMap')) {
      expect(Object.keys(map.data ?? {}).filter((k) => secretNames.has(k))).toEqual([]);
    }
    expect(objects().filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  it('gives every container of every Deployment and Job CPU and memory requests and limits', () => {
    const workloads = objects().filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
    for (const w of workloads) {
      for (const c of w.spec!.template!.spec.containers) {
        expect({ workload: w.metadata.name, resources: c.resources }).toEqual({
          workload: w.metadata.name,
          resources: { requests: { cpu: expect.any(String), memory: expect.any(String) }, limits: { cpu: expect.any(String), memory: expect.any(String) } },
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
    for (const w of objects().filter((o) => o.kind === 'Deployment' || o.kind === 'Job')) {
      expect(w.spec!.template!.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: expect.any(Number) });
      expect(w.spec!.template!.spec.securityContext!.runAsUser).not.toBe(0);
    }
  });

  it(`references only images built from this repository, tagged ${ROOT_VERSION}`, () => {
    for (const w of objects().filter((o) => o.kind === 'Deployment' || o.kind === 'Job')) {
      const app = w.metadata.labels!['app.kubernetes.io/name'];
      for (const c of w.spec!.template!.spec.containers) expect(c.image).toBe(`arbiter/${app}:${ROOT_VERSION}`);
    }
  });

  it.each(SERVICES)('runs a migration Job for the %s database with only its database URL', (service) => {
    const job = find(objects(), 'Job', `${service}-migrate`)!;
    const c = containerOf(job);
    expect(c.command).toEqual(['node', 'migrate.js']);
    const env = containerEnv(c, objects());
    expect([...env]).toEqual([[`DATABASE_URL_${service.toUpperCase()}`, 'secret']]);
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

  it('routes each Service to its own pods only, never to migration Jobs', () => {
    for (const service of SERVICES) {
      const svc = find(objects(), 'Service', service)!;
      const selector = { matchLabels: svc.spec!.selector as Record<string, string> };
      expect(selects(selector, podLabels(deployment(service)))).toBe(true);
      expect(selects(selector, podLabels(find(objects(), 'Job', `${service}-migrate`)!))).toBe(false);
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
    expect(podPeers.some((peer) => selects(peer.podSelector, podLabels(find(objects(), 'Job', 'registry-migrate')!)))).toBe(false);
    const namespaces = peers.filter((p) => p.namespaceSelector).map((p) => p.namespaceSelector!.matchLabels!['kubernetes.io/metadata.name']);
    expect(namespaces.sort()).toEqual(['ingress-nginx', 'monitoring']);
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
      (find(objects, 'NetworkPolicy', policy)!.spec!.ingress ?? []).some((rule) => (rule.from ?? []).some((peer) => selects(peer.podSelector, pod)));
    for (const service of SERVICES) expect(admitted('arbiter-postgres-ingress', labels(service))).toBe(true);
    expect(admitted('arbiter-postgres-ingress', labels('worker'))).toBe(false);
    for (const app of APPS) expect(admitted('arbiter-redis-ingress', labels(app))).toBe(true);
  });
});

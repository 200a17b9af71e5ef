import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** Reading the deployment files the way the tools that consume them do (kustomize, compose, BuildKit). */

export const ROOT = path.resolve(__dirname, '../..');
export const OVERLAYS = ['small', 'production'] as const;

/**
 * Variables a deployment must set although an app's schema has a default for them (keys: the App names of
 * tools/deploy/sources.ts). HOST: the default 127.0.0.1 cannot be reached from outside the container.
 */
export const DEPLOYMENT_REQUIRED: Record<'registry' | 'verdict' | 'ledger' | 'worker', string[]> = {
  registry: ['HOST'],
  verdict: ['HOST'],
  ledger: ['HOST'],
  worker: [],
};

/** Set by the image (docker/Dockerfile) or the runtime, not read through the app schemas. */
export const IMAGE_ENV = ['NODE_ENV', 'ARBITER_SERVICE', 'NODE_OPTIONS'];

export interface Probe {
  httpGet?: { path: string; port: string | number };
  exec?: { command: string[] };
  periodSeconds?: number;
  failureThreshold?: number;
}

export interface EnvEntry {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string };
  };
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: EnvEntry[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  topologySpreadConstraints?: Array<{ topologyKey: string }>;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: LabelSelector | Record<string, string>;
    template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
    ports?: Array<{ name?: string; port: number; targetPort?: string | number }>;
    scaleTargetRef?: { kind: string; name: string };
    minReplicas?: number;
    maxReplicas?: number;
    podSelector?: LabelSelector;
    policyTypes?: string[];
    ingress?: Array<{
      from?: Array<{ podSelector?: LabelSelector; namespaceSelector?: LabelSelector }>;
      ports?: Array<{ port: string | number }>;
    }>;
    /** PodMonitor (Prometheus Operator). */
    podMetricsEndpoints?: Array<{ port?: string; path?: string }>;
    /** PrometheusRule (Prometheus Operator). */
    groups?: Array<{
      name: string;
      rules: Array<{ alert?: string; record?: string; expr: string; for?: string; labels?: Record<string, string> }>;
    }>;
    maxUnavailable?: number | string;
    minAvailable?: number | string;
  };
}

/** Every document of a YAML file; a syntax error fails loudly with the file's name. */
export function yamlDocuments<T = unknown>(file: string): T[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) {
    if (d.errors.length) throw new Error(`${path.relative(ROOT, file)}: ${d.errors[0].message}`);
  }
  return list.map((d) => d.toJS() as T).filter((d) => d !== null && d !== undefined);
}

/** Every *.yaml file under a folder, recursively. */
export function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return yamlFiles(full);
    return /\.ya?ml$/.test(e.name) ? [full] : [];
  });
}

/** kubectl as tools/deploy/fetch-kubectl.mjs leaves it (.cache/kubectl/kubectl), or KUBECTL, or the one on the PATH. */
const KUBECTL_CANDIDATES = [process.env.KUBECTL, path.join(ROOT, '.cache', 'kubectl', 'kubectl'), 'kubectl'].filter(
  (c): c is string => !!c,
);

let kubectl: string | null | undefined;
/** The first kubectl that runs here (kubectl ships kustomize v5), or null. */
export function kubectlPath(): string | null {
  if (kubectl === undefined) {
    kubectl = KUBECTL_CANDIDATES.find((c) => spawnSync(c, ['version', '--client'], { stdio: 'ignore' }).status === 0) ?? null;
  }
  return kubectl;
}

/** Whether `kubectl kustomize` can run here. */
export function hasKubectl(): boolean {
  return kubectlPath() !== null;
}

/** The parts of each overlay, each a kustomization applied on its own (k8s/README.md "Deploy one service"). */
export const OVERLAY_PARTS = ['shared', 'registry', 'verdict', 'ledger', 'worker'] as const;

const rendered = new Map<string, K8sObject[]>();
/** `kubectl kustomize k8s/overlays/<name>` (`small`, or one part: `small/ledger`), parsed, rendered once per test file. */
export function renderOverlay(name: string): K8sObject[] {
  let docs = rendered.get(name);
  if (!docs) {
    const binary = kubectlPath();
    if (!binary)
      throw new Error('kubectl is not installed: run `node tools/deploy/fetch-kubectl.mjs` (or put kubectl >= 1.27 on the PATH)');
    const out = execFileSync(binary, ['kustomize', path.join(ROOT, 'k8s', 'overlays', name)], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    docs = parseAllDocuments(out).map((d) => d.toJS() as K8sObject);
    rendered.set(name, docs);
  }
  return docs;
}

/** The base's own resources, without kustomize (enough to read probes and commands). */
export function baseObjects(): K8sObject[] {
  return yamlFiles(path.join(ROOT, 'k8s', 'base'))
    .filter((f) => path.basename(f) !== 'kustomization.yaml')
    .flatMap((f) => yamlDocuments<K8sObject>(f));
}

/** The base's generated ConfigMaps (configMapGenerator literals of every kustomization.yaml under k8s/base), by name. */
export function baseConfigMaps(): Map<string, Record<string, string>> {
  const kustomizations = yamlFiles(path.join(ROOT, 'k8s', 'base')).filter((f) => path.basename(f) === 'kustomization.yaml');
  return new Map(
    kustomizations.flatMap((file) =>
      (yamlDocuments<{ configMapGenerator?: Array<{ name: string; literals?: string[] }> }>(file)[0].configMapGenerator ?? []).map(
        (g) =>
          [g.name, Object.fromEntries((g.literals ?? []).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))] as const,
      ),
    ),
  );
}

/**
 * The environment the base Deployment of `app` gives its container: ConfigMap values as written, secrets from
 * `secrets` (by variable name; a missing one throws), then `overrides` (addresses that differ in a test).
 */
export function baseDeploymentEnv(
  app: string,
  secrets: Record<string, string>,
  overrides: Record<string, string> = {},
): Record<string, string> {
  const container = find(baseObjects(), 'Deployment', app)!.spec!.template!.spec.containers[0];
  const maps = baseConfigMaps();
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) Object.assign(env, maps.get(from.configMapRef!.name));
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.secretKeyRef) {
      const value = secrets[e.name];
      if (value === undefined && !e.valueFrom.secretKeyRef.optional) throw new Error(`${app}: no test value for secret ${e.name}`);
      if (value !== undefined) env[e.name] = value;
    }
  }
  return { ...env, ...overrides };
}

export function find(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

/** Whether a label selector selects the given labels (matchLabels and the In/NotIn/Exists operators). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  const okLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const okExpressions = (selector.matchExpressions ?? []).every((e) => {
    switch (e.operator) {
      case 'In':
        return e.values!.includes(labels[e.key]);
      case 'NotIn':
        return !e.values!.includes(labels[e.key]);
      case 'Exists':
        return e.key in labels;
      case 'DoesNotExist':
        return !(e.key in labels);
      default:
        throw new Error(`unknown selector operator ${e.operator}`);
    }
  });
  return okLabels && okExpressions;
}

/** Names of the environment variables a container gets, and how each one arrives. */
export function containerEnv(container: Container, objects: K8sObject[]): Map<string, 'secret' | 'configmap' | 'literal'> {
  const env = new Map<string, 'secret' | 'configmap' | 'literal'>();
  for (const from of container.envFrom ?? []) {
    if (from.secretRef) throw new Error(`${container.name}: envFrom secretRef hides which variables it sets; use secretKeyRef`);
    const name = from.configMapRef!.name;
    const map = find(objects, 'ConfigMap', name);
    if (!map) throw new Error(`${container.name}: ConfigMap ${name} is not rendered`);
    for (const key of Object.keys(map.data ?? {})) env.set(key, 'configmap');
  }
  for (const e of container.env ?? []) {
    if (e.valueFrom?.secretKeyRef) env.set(e.name, 'secret');
    else if (e.valueFrom?.configMapKeyRef) env.set(e.name, 'configmap');
    else env.set(e.name, 'literal');
  }
  return env;
}

// ---- docker compose ----

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string | number | boolean>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  stop_grace_period?: string;
  healthcheck?: { test?: string[]; disable?: boolean };
  read_only?: boolean;
  user?: string;
}

export interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export const COMPOSE_FILE = path.join(ROOT, 'docker', 'compose.yaml');

/** compose.yaml with its YAML merge keys (`<<: *anchor`) resolved, as Compose resolves them. */
export function readCompose(): ComposeFile {
  return parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as ComposeFile;
}

/** `${NAME}`, `${NAME:-default}`, `${NAME:?message}` references in a compose value. */
export function interpolations(value: string): Array<{ name: string; hasDefault: boolean }> {
  return [...value.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?+][^}]*)?\}/g)].map((m) => ({
    name: m[1],
    hasDefault: m[2]?.replace(/^:/, '').startsWith('-') ?? false,
  }));
}

/** Durations as compose writes them: 20s, 1m30s, 500ms. */
export function seconds(duration: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 1e-6 };
  let total = 0;
  for (const [, n, unit] of duration.matchAll(/(\d+(?:\.\d+)?)(ms|us|h|m|s)/g)) total += Number(n) * units[unit];
  return total;
}

// ---- Dockerfile ----

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** Stages of a Dockerfile: continuation lines joined, comments dropped. */
export function dockerfileStages(text: string): { globalArgs: string[]; stages: Stage[] } {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const globalArgs: string[] = [];
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, args] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!keyword) continue;
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [, from, name] = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(args)!;
      stages.push({ name: name ?? String(stages.length), from, instructions: [] });
    } else if (!stages.length) {
      if (upper === 'ARG') globalArgs.push(args.split('=')[0]);
    } else {
      stages[stages.length - 1].instructions.push({ keyword: upper, args });
    }
  }
  return { globalArgs, stages };
}

/** The JSON-array form of CMD/HEALTHCHECK CMD/RUN. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  return JSON.parse(json) as string[];
}

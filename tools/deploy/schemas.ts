import type { K8sObject } from './manifests';

/**
 * Validation of rendered Kubernetes objects against the API schemas: the Kubernetes OpenAPI definitions compiled
 * by kubernetes-models, and the Prometheus Operator CRDs by @kubernetes-models/prometheus-operator. What they catch:
 * unknown kinds and API versions, missing required fields, wrong types (a string where an integer goes), values
 * outside an enum or pattern (a `for: 10x` duration). Unknown fields pass, as in the API server's default mode.
 */

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: object) => Validatable;

/** apiVersion → the module of its models. */
function modulePath(apiVersion: string): string {
  if (apiVersion === 'v1') return 'kubernetes-models/v1';
  if (apiVersion.startsWith('monitoring.coreos.com/')) return `@kubernetes-models/prometheus-operator/${apiVersion}`;
  return `kubernetes-models/${apiVersion}`;
}

function modelOf(apiVersion: string, kind: string): ModelClass | undefined {
  let module: Record<string, unknown>;
  try {
    module = require(modulePath(apiVersion)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const model = module[kind];
  return typeof model === 'function' ? (model as ModelClass) : undefined;
}

/** The schema violations of each object, as `<Kind>/<name>: <message>` lines; empty when every object is valid. */
export function schemaErrors(objects: K8sObject[]): string[] {
  return objects.flatMap((o) => {
    const name = `${o.kind}/${o.metadata?.name}`;
    const Model = modelOf(o.apiVersion, o.kind);
    if (!Model) return [`${name}: no schema for ${o.apiVersion} ${o.kind}`];
    try {
      new Model(o).validate();
      return [];
    } catch (err) {
      return [`${name}: ${(err as Error).message}`];
    }
  });
}

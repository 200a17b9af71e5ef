import type { Express } from 'express';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): unknown;
}

/**
 * The methods the app's routes answer on `path` (with HEAD wherever GET is), sorted: what a 405 names
 * in `Allow` when a request uses another method on a known path (RFC 9110 section 15.5.6). Empty when
 * no route matches the path at all (then the answer is 404).
 */
export function allowedMethods(app: Express, path: string): string[] {
  const methods = new Set<string>();
  const stack = (app as unknown as { router: { stack: RouteLayer[] } }).router.stack;
  for (const layer of stack) {
    if (!layer.route || !layer.match(path)) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

import type { Request } from 'express';
import type { RegistryConfig } from '../config';

/**
 * The base URL browsers reach the registry at: REGISTRY_PUBLIC_URL, else http on the loopback address and the port
 * the request came in on (the embedded default). Never the request's Host header, which the caller chooses.
 */
export function publicBaseOf(req: Request, config: Pick<RegistryConfig, 'REGISTRY_PUBLIC_URL'>): string {
  if (config.REGISTRY_PUBLIC_URL) return config.REGISTRY_PUBLIC_URL.replace(/\/+$/, '');
  return `http://127.0.0.1:${req.socket.localPort}`;
}

import type { Request } from 'express';
import type { Identity } from '@arbiter/auth';

export type AuthedRequest = Request & { user: Identity };

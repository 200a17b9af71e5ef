import { runMain } from '@arbiter/http';
import { loadRegistryConfig } from './config';
import { startRegistry } from './server';

runMain('registry', () => loadRegistryConfig(), startRegistry);

import { ConfigError } from '@arbiter/config';
import { closeOnSignals, createLogger } from '@arbiter/http';
import { loadRegistryConfig } from './config';
import { startRegistry } from './server';

async function main() {
  let config;
  try {
    config = loadRegistryConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`registry: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger('registry', config.LOG_LEVEL);
  const running = await startRegistry(config, logger);
  logger.info({ url: running.url }, 'listening');
  closeOnSignals(running.close, logger);
}

main().catch((err) => {
  process.stderr.write(`registry: failed to start: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});

/**
 * `npm start`: run the service with configuration from the environment. SIGTERM and SIGINT
 * stop it gracefully: no new connections, in-flight requests finish, the database closes.
 */
// First: V8 settings that must hold before anything else allocates (see heap-tuning.ts).
import './heap-tuning.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { flushLogsNow } from './http/log-destination.js';
import { productionProblems, productionWarnings, weakSecretKeyWarning } from './production.js';
import { readyBanner } from './ready-banner.js';
import { startServer } from './server.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  if (config.production) {
    const problems = productionProblems(config);
    if (problems.length > 0) {
      for (const problem of problems) process.stderr.write(`configuration error: ${problem}\n`);
      process.stderr.write('NODE_ENV=production refuses to start until these are fixed\n');
      process.exit(2);
    }
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = server.app.log;
  const weakKey = weakSecretKeyWarning(config);
  if (weakKey) log.warn(weakKey);
  if (config.production) for (const warning of productionWarnings(config)) log.warn(warning);
  log.info({ url: server.url, database: server.store.kind, dataDir: config.dataDir }, 'service ready');
  // a person at a terminal gets where to go next; a log collector gets the JSON line above
  if (process.stderr.isTTY) process.stderr.write(readyBanner(server.url, server.store.kind, server.localDns));
  if (config.dkimProviderHost === 'localhost') {
    log.warn(
      'DKIM_PROVIDER_HOST is unset: CNAME targets use "localhost", fine for trying the service, not for real domains',
    );
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    server.close().then(
      () => {
        // the log lines before it first: they are written in batches (log-destination.ts)
        flushLogsNow(log);
        if (process.stderr.isTTY) process.stderr.write('stopped\n');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

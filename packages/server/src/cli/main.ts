/**
 * The server-side CLI: `npm run --silent cli -- <command>`. It reads the same
 * `DATABASE_URL` / `DATA_DIR` as the server.
 *
 *   keys create --name N [--account ID|KEY] [--scope templates,images|sending] [--domains D,…] [--json]
 *   keys list [--json]
 *   keys revoke <id|prefix>
 *   dkim sign --domain D [--account ID] < message.eml
 *   dkim status --domain D [--account ID] [--json]
 *   dkim revoke <selector token>
 *   openapi                  (prints the OpenAPI document; needs no database)
 *   domain-connect template  (prints our Domain Connect template; needs no database)
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { identityOf } from '../domain-connect/identity.js';
import { serviceTemplate, templateFileName } from '../domain-connect/template.js';
import { openStore } from '../store/open.js';
import { dkimCommand } from './dkim.js';
import { CliError, type CliIo, processIo } from './io.js';
import { keysCommand } from './keys.js';

const USAGE = `usage: cli <command>
  keys create --name <name> [--account <account id or one of its keys>] [--scope templates,images|sending] [--json]
              [--domains <domain>,…]  (with --account: a key that sends only from these of its domains)
  keys list [--json]
  keys revoke <key id | key prefix>
  dkim sign --domain <domain> [--account <account id>] < message.eml
  dkim status --domain <domain> [--account <account id>] [--json]
  dkim revoke <selector token>
  openapi                       print the OpenAPI 3.1 document
  domain-connect template       print the Domain Connect service template, as the public templates repository takes it`;

const OPTIONS = {
  name: { type: 'string' },
  account: { type: 'string' },
  scope: { type: 'string' },
  domains: { type: 'string' },
  json: { type: 'boolean' },
  domain: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Run one CLI invocation; returns the exit code. */
export async function runCli(argv: string[], io: CliIo = processIo, env = process.env): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>
  >;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: OPTIONS,
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === undefined) {
    io.err(USAGE);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  try {
    const config = loadConfig(env);
    if (command === 'openapi') {
      // Loaded only here: the document pulls in every route's schema, 1.2 s of start-up that
      // `keys` and `dkim` (0.5 s without it) have no use for.
      const { buildOpenApiDocument } = await import('../http/openapi-document.js');
      io.out(JSON.stringify(await buildOpenApiDocument(config), null, 2));
      return 0;
    }
    if (command === 'domain-connect') {
      if (rest[0] !== 'template' || rest.length !== 1)
        throw new CliError(`domain-connect takes one subcommand: template\n${USAGE}`);
      const identity = identityOf(config);
      io.err(`save as ${templateFileName(identity)} and submit it to github.com/Domain-Connect/Templates`);
      io.out(JSON.stringify(serviceTemplate(identity), null, 2));
      return 0;
    }
    const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: 2 });
    try {
      if (command === 'keys') await keysCommand(store, rest, parsed.values, io);
      else if (command === 'dkim') await dkimCommand(store, config, rest, parsed.values, io);
      else throw new CliError(`unknown command "${command}"\n${USAGE}`);
    } finally {
      await store.close();
    }
    return 0;
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError) {
      io.err(`error: ${error.message}`);
      return 2;
    }
    io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

// Run as a program, not imported (tests import runCli). Node resolves symlinks for the module's
// URL but not in argv[1]: compared as given, a checkout reached through a symlink ran nothing
// and exited 0 without a word (found by the README walk, issue 40).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

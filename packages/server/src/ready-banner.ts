/**
 * What `npm start` shows a person at a terminal once the service answers: its pages, and the
 * command that makes the API key they need next. Logs stay JSON; this goes to stderr.
 */
export function readyBanner(url: string, database: 'sqlite' | 'postgres'): string {
  const base = url.replace(/\/+$/, '');
  return [
    '',
    `  Sending-domain service ready (${database === 'postgres' ? 'PostgreSQL' : 'SQLite'})`,
    '',
    `  Playground      ${base}/`,
    `  Domains         ${base}/domains`,
    `  API reference   ${base}/docs`,
    '  An API key      npm run --silent cli -- keys create --name me',
    '',
    '  Ctrl-C stops it.',
    '',
    '',
  ].join('\n');
}

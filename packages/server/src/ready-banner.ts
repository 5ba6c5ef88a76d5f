/**
 * What `npm start` shows a person at a terminal once the service answers: its pages, the
 * command that makes the API key they need next, and in development where the local DNS
 * answers. Logs stay JSON; this goes to stderr.
 */
export function readyBanner(url: string, database: 'sqlite' | 'postgres', localDns?: string): string {
  const base = url.replace(/\/+$/, '');
  return [
    '',
    `  Sending-domain service ready (${database === 'postgres' ? 'PostgreSQL' : 'SQLite'})`,
    '',
    `  Playground      ${base}/`,
    `  Domains         ${base}/domains`,
    `  API reference   ${base}/docs`,
    '  An API key      npm run --silent cli -- keys create --name me',
    // development only (issue 40): where `.test` domains published in the local DNS are answered
    ...(localDns
      ? [`  Local DNS       ${localDns} (for .test domains: POST /api/public/domain/local-dns)`]
      : []),
    '',
    '  Ctrl-C stops it.',
    '',
    '',
  ].join('\n');
}

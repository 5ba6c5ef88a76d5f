/**
 * The playground's connection to this server: a key of scope `templates,images`, kept for the
 * tab only, through which the editor uploads images (`/api/public/images`) and keeps "My
 * Templates" (`/api/public/templates`). A full key is refused: browser code never holds one.
 */

const STORAGE = 'service.playground.key';

/** The command that makes a key the playground accepts. */
export const SCOPED_KEY_COMMAND =
  'npm run --silent cli -- keys create --name playground --scope templates,images';

/** What checking a key found: usable, or why not (a sentence for the page). */
export type KeyCheck = { ok: true } | { ok: false; message: string };

async function statusOf(origin: string, key: string, method: string, path: string): Promise<number> {
  const response = await fetch(`${origin}${path}`, { method, headers: { authorization: key } });
  await response.body?.cancel();
  return response.status;
}

/**
 * Checks `key` against this server before the page keeps it: it must reach the templates and
 * images routes, and must not reach the domain API (a full key, refused with the command that
 * makes a scoped one).
 */
export async function checkScopedKey(origin: string, key: string): Promise<KeyCheck> {
  if (!/^\S+$/.test(key)) return { ok: false, message: 'A key is one word with no spaces, like sk_…' };
  try {
    const templates = await statusOf(origin, key, 'GET', '/api/public/templates?limit=1');
    if (templates === 401) return { ok: false, message: 'That key was refused: it is unknown or revoked.' };
    if (templates === 403)
      return { ok: false, message: 'That key has no templates scope. Create one with both scopes:' };
    if (templates !== 200) return { ok: false, message: `The server answered ${templates}; try again.` };
    if ((await statusOf(origin, key, 'GET', '/api/public/domain?limit=1')) !== 403)
      return {
        ok: false,
        message:
          'That is a full API key: it can manage your domains, and a web page must never hold one. Create a scoped key instead:',
      };
    // An empty upload: refused for its missing file (400/415) once the key passed the scope check.
    if ((await statusOf(origin, key, 'POST', '/api/public/images')) === 403)
      return { ok: false, message: 'That key has no images scope. Create one with both scopes:' };
    return { ok: true };
  } catch {
    return { ok: false, message: 'The server could not be reached; is it still running?' };
  }
}

/** The key this tab connected with, if any. */
export function savedKey(): string | null {
  return sessionStorage.getItem(STORAGE);
}

export function saveKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(STORAGE);
  else sessionStorage.setItem(STORAGE, key);
}

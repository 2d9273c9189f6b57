/**
 * Callback URLs: HTTPS, no query string, no fragment. http://localhost and http://127.0.0.1 are
 * accepted as the local-development exception (DESIGN.md). @see spec §5 (experience) rule 5
 */
export type CallbackCheck = { ok: true; url: string; localDevelopment: boolean } | { ok: false; reason: string };

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

export function checkCallbackUrl(text: string): CallbackCheck {
  const trimmed = text.trim();
  if (trimmed.length > 2048) return { ok: false, reason: 'is longer than 2048 characters' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, reason: 'is not an absolute URL such as https://agency.example/callback' };
  }
  const localDevelopment = url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !localDevelopment) return { ok: false, reason: 'must use https (plain http is accepted only for localhost and 127.0.0.1)' };
  // `new URL` drops an empty "?" or "#", so the raw text is checked too.
  if (url.search || trimmed.includes('?')) return { ok: false, reason: 'must not have a query string: the service adds service_request, service_code and state' };
  if (url.hash || trimmed.includes('#')) return { ok: false, reason: 'must not have a fragment' };
  if (url.username || url.password) return { ok: false, reason: 'must not contain a user name or password' };
  return { ok: true, url: url.href, localDevelopment };
}

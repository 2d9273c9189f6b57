/**
 * A browser without a renderer: a cookie jar and manual redirects over fetch, recording every
 * response it sees. Emulator and agency both run on 127.0.0.1, and a browser shares cookies across
 * ports of one host, so this jar is one per host too.
 */
export interface Hop {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

export interface Cookie {
  value: string;
  attributes: string[];
}

const MAX_REDIRECTS = 10;

export class TestBrowser {
  readonly hops: Hop[] = [];
  private readonly jar = new Map<string, Cookie>();

  /** One request, redirects not followed. */
  async request(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<Hop> {
    const headers: Record<string, string> = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' };
    const cookies = [...this.jar].map(([name, cookie]) => `${name}=${cookie.value}`).join('; ');
    if (cookies) headers.cookie = cookies;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method, headers, body: form && new URLSearchParams(form).toString(), redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.store(line);
    const hop = { method, url, status: response.status, headers: response.headers, text: await response.text() };
    this.hops.push(hop);
    return hop;
  }

  /** Follows 3xx Location headers from this hop on. */
  async follow(hop: Hop): Promise<Hop> {
    let current = hop;
    for (let count = 0; current.status >= 300 && current.status < 400; count += 1) {
      if (count === MAX_REDIRECTS) throw new Error(`too many redirects from ${hop.url}`);
      current = await this.request('GET', new URL(current.headers.get('location')!, current.url).href);
    }
    return current;
  }

  async open(url: string): Promise<Hop> {
    return this.follow(await this.request('GET', url));
  }

  /** Posts the page's form whose action is `action`, with its hidden fields and `fields`, and follows. */
  async submit(page: Hop, action: string, fields: Record<string, string> = {}): Promise<Hop> {
    const form = formOf(page.text, action);
    return this.follow(await this.request('POST', new URL(action, page.url).href, { ...form, ...fields }));
  }

  cookie(name: string): Cookie | undefined {
    return this.jar.get(name);
  }

  cookies(): Map<string, Cookie> {
    return this.jar;
  }

  private store(line: string): void {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const at = pair!.indexOf('=');
    const name = pair!.slice(0, at);
    const expires = attributes.find((attribute) => /^expires=/i.test(attribute));
    if (expires && Date.parse(expires.slice(8)) < Date.now()) this.jar.delete(name);
    else this.jar.set(name, { value: pair!.slice(at + 1), attributes });
  }
}

/** The hidden fields of the form posting to `action`. */
export function formOf(html: string, action: string): Record<string, string> {
  const form = new RegExp(`<form[^>]*action="${action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>([\\s\\S]*?)</form>`).exec(html);
  if (!form) throw new Error(`no form posting to ${action}`);
  const fields: Record<string, string> = {};
  for (const input of form[1]!.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    if (name) fields[name] = decode(/value="([^"]*)"/.exec(input[0])?.[1] ?? '');
  }
  return fields;
}

/** A `data-*` marker on the page's `<main>`, e.g. `marker(page, 'entry-state')`. */
export function marker(page: Hop | string, name: string): string | undefined {
  const main = /<main[^>]*>/.exec(typeof page === 'string' ? page : page.text)?.[0] ?? '';
  const value = new RegExp(` data-${name}="([^"]*)"`).exec(main)?.[1];
  return value === undefined ? undefined : decode(value);
}

function decode(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

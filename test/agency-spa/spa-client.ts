/**
 * A browser without a renderer for the single-page agency: a cookie jar shared by every port of
 * 127.0.0.1 (as a browser shares it), navigations with redirects, form posts for the service's own
 * pages, and the app's JSON calls with the CSRF header the page script sends. Every response is kept.
 */
import type { Hop } from '../agency/test-browser.js';

export interface Call {
  status: number;
  headers: Headers;
  /** The parsed JSON answer ({} when none). */
  data: Record<string, any>;
}

const MAX_REDIRECTS = 10;

export class SpaClient {
  readonly hops: Hop[] = [];
  /** Every Set-Cookie line received, as sent. */
  readonly setCookies: string[] = [];
  private readonly jar = new Map<string, string>();
  /** The CSRF token the app's last JSON answer carried, as the page script keeps it. */
  csrf = '';

  async request(method: 'GET' | 'POST', url: string, options: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}): Promise<Hop> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.jar.size) headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    let body: string | undefined;
    if (options.form) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(options.form).toString()];
    if (options.json !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(options.json)];
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) this.keep(line);
    const hop = { method, url, status: response.status, headers: response.headers, text: await response.text() };
    this.hops.push(hop);
    return hop;
  }

  /** A navigation: GET, then every redirect. */
  async open(url: string): Promise<Hop> {
    let hop = await this.request('GET', url);
    for (let count = 0; hop.status >= 300 && hop.status < 400; count += 1) {
      if (count === MAX_REDIRECTS) throw new Error(`too many redirects from ${url}`);
      hop = await this.request('GET', new URL(hop.headers.get('location')!, hop.url).href);
    }
    return hop;
  }

  /** What the page script does: JSON in and out, POSTs with the CSRF token in X-CSRF-Token. */
  async api(method: 'GET' | 'POST', url: string, json?: unknown, headers: Record<string, string> = {}): Promise<Call> {
    const csrf: Record<string, string> = method === 'POST' ? { 'x-csrf-token': this.csrf } : {};
    const hop = await this.request(method, url, { json: method === 'POST' ? (json ?? {}) : undefined, headers: { accept: 'application/json', ...csrf, ...headers } });
    const data = hop.headers.get('content-type')?.includes('json') ? (JSON.parse(hop.text) as Record<string, any>) : {};
    if (typeof data.csrf === 'string') this.csrf = data.csrf;
    return { status: hop.status, headers: hop.headers, data };
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  /** Everything this browser saw, as one searchable text: URLs, headers (cookies included) and bodies. */
  everything(): string {
    return this.hops.map((hop) => [hop.url, ...[...hop.headers].map(([name, value]) => `${name}: ${value}`), hop.text].join('\n')).join('\n');
  }

  private keep(line: string): void {
    this.setCookies.push(line);
    const pair = line.split(';')[0]!;
    const at = pair.indexOf('=');
    if (/;\s*expires=thu, 01 jan 1970/i.test(line) || /;\s*max-age=0/i.test(line)) this.jar.delete(pair.slice(0, at));
    else this.jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** `data-*` markers on `<body>` of a page the server rendered (only a refused callback carries more than `data-ansicht`). */
export function bodyMarkers(page: Hop): Record<string, string> {
  const tag = /<body([^>]*)>/.exec(page.text)?.[1] ?? '';
  return Object.fromEntries([...tag.matchAll(/data-([a-z-]+)="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]));
}

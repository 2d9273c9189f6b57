/**
 * The requests Playwright's request events leave out, recorded beside them: a page's WebSockets
 * (their own workers' included) and each frame sent or received on one, every request of a shared
 * worker, which runs outside any page, and a service worker's WebSockets (its other requests are
 * Playwright's context events). A page that asks its server over one of them is seen asking. A
 * worker's script is held on its way in until the worker is watched, so what it does the instant
 * it starts is heard too (a shared worker made from a blob: or data: URL loads no script and is
 * heard from a moment after it starts).
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { RequestSeen } from './seen.js';
import { within } from './within.js';

/** What a channel heard, before the session adds whose it is. */
export type Heard = Pick<RequestSeen, 'method' | 'url' | 'resourceType' | 'from' | 'body'>;

/** Characters of a frame the page sent that are kept, for the secrets search. */
const FRAME_CHARS = 2000;
/** How long a worker's script is held while the worker is being watched: the page waits no longer, watched or not. */
const HOLD_MS = 5000;

/** Every WebSocket the page (or one of its dedicated workers) opens, and every frame on it: a page that keeps one open to hear the news is still asking. */
export function recordSockets(page: Page, heard: (seen: Heard) => void): void {
  page.on('websocket', (socket) => {
    const from = page.url();
    heard({ method: 'GET', url: socket.url(), resourceType: 'websocket', from });
    socket.on('framesent', ({ payload }) => heard({ method: 'SEND', url: socket.url(), resourceType: 'websocket-frame', from, body: String(payload).slice(0, FRAME_CHARS) }));
    socket.on('framereceived', () => heard({ method: 'RECEIVE', url: socket.url(), resourceType: 'websocket-frame', from }));
  });
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  browserContextId?: string;
}

/** The workers watched here: those that run outside any page Playwright shows. */
const WATCHED = new Set(['shared_worker', 'service_worker']);

/** One watch of the browser's shared and service workers, shared by its contexts; each context hears its own. */
class OutsideWorkers {
  private readonly contexts = new Map<string, (seen: Heard) => void>();
  private readonly workers = new Map<string, { url: string; service: boolean; heard: (seen: Heard) => void }>();
  /** The workers' WebSockets by request id: the frames name only that. */
  private readonly sockets = new Map<string, string>();
  /** Workers whose watch is being set up, by target id: their script's request waits for it (release). */
  private readonly watching = new Map<string, Promise<void>>();
  /** Answers awaited from the workers, by message id. */
  private readonly replies = new Map<number, () => void>();
  private next = 0;

  constructor(private readonly cdp: CDPSession) {
    cdp.on('Target.targetCreated', ({ targetInfo }: { targetInfo: TargetInfo }) => {
      if (!WATCHED.has(targetInfo.type)) return;
      // Set before the script's request is heard: Chromium announces the worker first.
      const watched = this.attach(targetInfo).finally(() => this.watching.delete(targetInfo.targetId));
      this.watching.set(targetInfo.targetId, watched);
    });
    cdp.on('Fetch.requestPaused', (paused: { requestId: string; networkId?: string }) => void this.release(paused));
    cdp.on('Target.receivedMessageFromTarget', ({ sessionId, message }: { sessionId: string; message: string }) => this.onMessage(sessionId, message));
    cdp.on('Target.detachedFromTarget', ({ sessionId }: { sessionId: string }) => this.workers.delete(sessionId));
  }

  listen(contextId: string, heard: (seen: Heard) => void): () => void {
    this.contexts.set(contextId, heard);
    return () => this.contexts.delete(contextId);
  }

  private async attach(target: TargetInfo): Promise<void> {
    const heard = target.browserContextId && this.contexts.get(target.browserContextId);
    if (!heard) return;
    try {
      // The browser's own session is Playwright's, in flat mode; a worker's messages come to this one wrapped.
      const { sessionId } = (await this.cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
      this.workers.set(sessionId, { url: target.url, service: target.type === 'service_worker', heard });
      const id = (this.next += 1);
      const enabled = new Promise<void>((resolve) => this.replies.set(id, resolve));
      await this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method: 'Network.enable' }) });
      await within(enabled, HOLD_MS, undefined).finally(() => this.replies.delete(id));
    } catch {
      // The worker ended before it could be watched.
    }
  }

  /** Lets a request held on its way in go on: a worker's script once the worker is watched (at most HOLD_MS), any other at once. */
  private async release({ requestId, networkId }: { requestId: string; networkId?: string }): Promise<void> {
    const watched = networkId === undefined ? undefined : this.watching.get(networkId);
    if (watched) await within(watched, HOLD_MS, undefined);
    await this.cdp.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
  }

  private onMessage(sessionId: string, message: string): void {
    const worker = this.workers.get(sessionId);
    if (!worker) return;
    const reply = /^\{"id":(\d+),/.exec(message);
    if (reply) this.replies.get(Number(reply[1]))?.();
    if (!message.includes('"Network.')) return;
    const { method, params } = JSON.parse(message) as { method?: string; params?: { type?: string; request?: { method: string; url: string; postData?: string }; url?: string; response?: { payloadData?: string }; requestId?: string } };
    if (method === 'Network.requestWillBeSent' && params?.request && !worker.service) {
      worker.heard({ method: params.request.method, url: params.request.url, resourceType: (params.type ?? 'other').toLowerCase(), from: worker.url, body: params.request.postData?.slice(0, FRAME_CHARS) });
    } else if (method === 'Network.webSocketCreated' && params?.url) {
      worker.heard({ method: 'GET', url: params.url, resourceType: 'websocket', from: worker.url });
      this.sockets.set(params.requestId ?? '', params.url);
    } else if (method === 'Network.webSocketFrameSent' || method === 'Network.webSocketFrameReceived') {
      const sent = method === 'Network.webSocketFrameSent';
      worker.heard({ method: sent ? 'SEND' : 'RECEIVE', url: this.sockets.get(params?.requestId ?? '') ?? worker.url, resourceType: 'websocket-frame', from: worker.url, ...(sent ? { body: params?.response?.payloadData?.slice(0, FRAME_CHARS) } : {}) });
    }
  }
}

const watches = new WeakMap<Browser, Promise<OutsideWorkers | undefined>>();

/**
 * Hears every request of the shared workers the context's pages start, and their service workers'
 * WebSockets (stop it when the context closes). A browser that cannot be watched so (not Chromium)
 * leaves them unheard.
 */
export async function recordOutsideWorkers(browser: Browser, page: Page, heard: (seen: Heard) => void): Promise<() => void> {
  let watch = watches.get(browser);
  if (!watch) {
    watch = (async () => {
      const cdp = await browser.newBrowserCDPSession();
      const workers = new OutsideWorkers(cdp);
      await cdp.send('Target.setDiscoverTargets', { discover: true });
      // A worker's script is an 'Other' request whose network id is the worker's target id.
      await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Other', requestStage: 'Request' }] });
      return workers;
    })().catch(() => undefined);
    watches.set(browser, watch);
  }
  const workers = await watch;
  const cdp = await page.context().newCDPSession(page);
  try {
    const { targetInfo } = (await cdp.send('Target.getTargetInfo')) as { targetInfo: TargetInfo };
    return workers && targetInfo.browserContextId ? workers.listen(targetInfo.browserContextId, heard) : () => undefined;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

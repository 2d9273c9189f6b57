/**
 * The requests Playwright's request events leave out, recorded beside them: a page's WebSockets
 * (their own workers' included) and each frame sent or received on one, and every request of a
 * shared worker, which runs outside any page. A page that asks its server over one of them is seen
 * asking. A shared worker is heard from a moment after Chromium announces it (holding it until then
 * needs the browser's flat session, which is Playwright's): a WebSocket it opens at once goes unheard.
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { RequestSeen } from './seen.js';

/** What a channel heard, before the session adds whose it is. */
export type Heard = Pick<RequestSeen, 'method' | 'url' | 'resourceType' | 'from' | 'body'>;

/** Characters of a frame the page sent that are kept, for the secrets search. */
const FRAME_CHARS = 2000;

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

/** One watch of the browser's shared workers, shared by its contexts; each context hears its own. */
class SharedWorkers {
  private readonly contexts = new Map<string, (seen: Heard) => void>();
  private readonly workers = new Map<string, { url: string; heard: (seen: Heard) => void }>();
  /** The workers' WebSockets by request id: the frames name only that. */
  private readonly sockets = new Map<string, string>();
  private next = 0;

  constructor(private readonly cdp: CDPSession) {
    cdp.on('Target.targetCreated', ({ targetInfo }: { targetInfo: TargetInfo }) => void this.attach(targetInfo));
    cdp.on('Target.receivedMessageFromTarget', ({ sessionId, message }: { sessionId: string; message: string }) => this.onMessage(sessionId, message));
    cdp.on('Target.detachedFromTarget', ({ sessionId }: { sessionId: string }) => this.workers.delete(sessionId));
  }

  listen(contextId: string, heard: (seen: Heard) => void): () => void {
    this.contexts.set(contextId, heard);
    return () => this.contexts.delete(contextId);
  }

  private async attach(target: TargetInfo): Promise<void> {
    const heard = target.browserContextId && this.contexts.get(target.browserContextId);
    if (target.type !== 'shared_worker' || !heard) return;
    try {
      // The browser's own session is Playwright's, in flat mode; a worker's messages come to this one wrapped.
      const { sessionId } = (await this.cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
      this.workers.set(sessionId, { url: target.url, heard });
      await this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: (this.next += 1), method: 'Network.enable' }) });
    } catch {
      // The worker ended before it could be watched.
    }
  }

  private onMessage(sessionId: string, message: string): void {
    const worker = this.workers.get(sessionId);
    if (!worker || !message.includes('"Network.')) return;
    const { method, params } = JSON.parse(message) as { method?: string; params?: { type?: string; request?: { method: string; url: string; postData?: string }; url?: string; response?: { payloadData?: string }; requestId?: string } };
    if (method === 'Network.requestWillBeSent' && params?.request) {
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

const watches = new WeakMap<Browser, Promise<SharedWorkers | undefined>>();

/**
 * Hears every request of the shared workers the context's pages start (stop it when the context
 * closes). A browser that cannot be watched so (not Chromium) leaves them unheard.
 */
export async function recordSharedWorkers(browser: Browser, page: Page, heard: (seen: Heard) => void): Promise<() => void> {
  let watch = watches.get(browser);
  if (!watch) {
    watch = (async () => {
      const cdp = await browser.newBrowserCDPSession();
      const workers = new SharedWorkers(cdp);
      await cdp.send('Target.setDiscoverTargets', { discover: true });
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

/**
 * The harness reads and records a page from a JavaScript world of its own: an isolated world of the
 * page's main frame (as a browser extension has), which shares the page's DOM but none of its
 * globals. A page script sees nothing of the harness there (no global, no attribute it set, no
 * function it called), and cannot answer the harness through a function it replaced. Playwright's
 * `page.evaluate` runs in the page's own world, so the functions of in-page.ts run through here.
 */
import { randomBytes } from 'node:crypto';
import type { CDPSession, Page } from 'playwright-core';
import { elementPath } from './in-page.js';

/** The world's name: never seen by the page, new each run all the same. */
const WORLD = `w${randomBytes(6).toString('hex')}`;

/** One DevTools session per page: a world is known by its name to the session that made it. */
const sessions = new WeakMap<Page, Promise<CDPSession>>();

function cdpOf(page: Page): Promise<CDPSession> {
  let cdp = sessions.get(page);
  if (!cdp) {
    cdp = page.context().newCDPSession(page).then(async (session) => {
      await session.send('Page.enable');
      return session;
    });
    sessions.set(page, cdp);
  }
  return cdp;
}

/** The call of `fn` on `arg` as a script, with the helpers in-page.ts functions share in scope. */
function scriptOf<A>(fn: (arg: A) => unknown, arg: A): string {
  return `(() => { const elementPath = ${elementPath.toString()}; return (${fn.toString()})(${JSON.stringify(arg ?? null)}); })()`;
}

/** Runs `fn(arg)` in the harness's world of every document the page loads from now on, before the page's own scripts. */
export async function onEveryDocument<A>(page: Page, fn: (arg: A) => void, arg: A): Promise<void> {
  await (await cdpOf(page)).send('Page.addScriptToEvaluateOnNewDocument', { source: scriptOf(fn, arg), worldName: WORLD });
}

/**
 * `fn(arg)` run in the harness's world of the page's current document, its value as JSON. A
 * document that went away meanwhile throws "Execution context was destroyed", as Playwright does.
 */
export async function outside<R, A = undefined>(page: Page, fn: (arg: A) => R, arg?: A): Promise<Awaited<R>> {
  const cdp = await cdpOf(page);
  try {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD });
    const answer = await cdp.send('Runtime.evaluate', { expression: scriptOf(fn, arg as A), contextId: executionContextId, returnByValue: true, awaitPromise: true });
    if (answer.exceptionDetails) throw new Error(`in the page: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
    return answer.result.value as Awaited<R>;
  } catch (error) {
    if (/Cannot find context|context with specified id|Inspected target navigated|No frame/i.test((error as Error).message)) throw new Error('Execution context was destroyed: the page navigated');
    throw error;
  }
}

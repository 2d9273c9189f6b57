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

/**
 * One DevTools session per page (a world is known by its name to the session that made it), and
 * the id of the world's context in the current document, kept until the main frame navigates: a
 * reading is then one round trip to the page, not three (frame, world, evaluation).
 */
interface Harness {
  cdp: CDPSession;
  world?: Promise<number>;
}
const sessions = new WeakMap<Page, Promise<Harness>>();

function harnessOf(page: Page): Promise<Harness> {
  let harness = sessions.get(page);
  if (!harness) {
    harness = page.context().newCDPSession(page).then(async (cdp) => {
      const made: Harness = { cdp };
      cdp.on('Page.frameNavigated', ({ frame }) => {
        if (!frame.parentId) made.world = undefined;
      });
      await cdp.send('Page.enable');
      return made;
    });
    sessions.set(page, harness);
  }
  return harness;
}

/** The context of the harness's world in the page's current document. */
function worldOf(harness: Harness): Promise<number> {
  if (!harness.world) {
    const world = (async () => {
      const { frameTree } = await harness.cdp.send('Page.getFrameTree');
      return (await harness.cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD })).executionContextId;
    })();
    harness.world = world;
    world.catch(() => {
      if (harness.world === world) harness.world = undefined;
    });
  }
  return harness.world;
}

/** The context asked for is not there (the evaluation never ran); and the document went away while it ran. */
const NOT_FOUND = /Cannot find context|context with specified id|Inspected target navigated|No frame/i;
const DESTROYED = /Execution context was destroyed/i;

/** The call of `fn` on `arg` as a script, with the helpers in-page.ts functions share in scope. */
function scriptOf<A>(fn: (arg: A) => unknown, arg: A): string {
  return `(() => { const elementPath = ${elementPath.toString()}; return (${fn.toString()})(${JSON.stringify(arg ?? null)}); })()`;
}

/** Runs `fn(arg)` in the harness's world of every document the page loads from now on, before the page's own scripts. */
export async function onEveryDocument<A>(page: Page, fn: (arg: A) => void, arg: A): Promise<void> {
  await (await harnessOf(page)).cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: scriptOf(fn, arg), worldName: WORLD });
}

/**
 * `fn(arg)` run in the harness's world of the page's current document, its value as JSON. A
 * document that went away meanwhile throws "Execution context was destroyed", as Playwright does.
 * A context kept from before that is gone (a navigation the harness has not heard of yet) is made
 * again once, as a reading made then would have been.
 */
export async function outside<R, A = undefined>(page: Page, fn: (arg: A) => R, arg?: A): Promise<Awaited<R>> {
  const harness = await harnessOf(page);
  const expression = scriptOf(fn, arg as A);
  for (let kept = Boolean(harness.world); ; kept = false) {
    const world = worldOf(harness);
    let answer: Awaited<ReturnType<typeof evaluate>>;
    try {
      answer = await evaluate(harness.cdp, expression, await world);
    } catch (error) {
      const message = (error as Error).message;
      const missing = NOT_FOUND.test(message);
      if (missing || DESTROYED.test(message)) harness.world = harness.world === world ? undefined : harness.world;
      if (missing && kept) continue;
      throw missing ? new Error('Execution context was destroyed: the page navigated') : error;
    }
    if (answer.exceptionDetails) throw new Error(`in the page: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
    return answer.result.value as Awaited<R>;
  }
}

function evaluate(cdp: CDPSession, expression: string, contextId: number) {
  return cdp.send('Runtime.evaluate', { expression, contextId, returnByValue: true, awaitPromise: true });
}

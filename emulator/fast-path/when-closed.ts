/** One `close` listener per app instead of one per response (README.md). */
import type { Response } from 'express';

/**
 * Has `closed(res)` called once each watched response is closed: its answer sent, or its
 * connection lost before it. Every response gets the same listener function, made here once, rather
 * than a closure of its own; what a call needs is found on the response (`res.locals`).
 */
export function whenClosed(closed: (res: Response) => void): (res: Response) => void {
  function listener(this: Response): void {
    closed(this);
  }
  return (res) => void res.on('close', listener);
}

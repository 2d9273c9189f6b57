/** The HTTP server, its requests and responses born with the app's prototypes (README.md). */
import { IncomingMessage, type Server, type ServerOptions, ServerResponse, createServer } from 'node:http';
import type { Express } from 'express';

/**
 * An HTTP server whose requests and responses are born with the app's prototypes. Express gives
 * each of them its own with Object.setPrototypeOf, which then costs more than all the rest of
 * Express: V8 moves the objects to new shapes, and property accesses on them (Node's own included)
 * stop being fast. Born with those prototypes, that call changes nothing: about 80 µs less per
 * request. Node's IncomingMessage and ServerResponse are plain constructor functions, which these
 * call on the new object; were they ever classes, the server would be the usual one. Kept for
 * the bench's guards (decisions/013).
 */
export function serveBornWithPrototypes(app: Express, options: ServerOptions): Server {
  const constructors = [IncomingMessage, ServerResponse] as unknown as Array<(this: object, ...args: unknown[]) => void>;
  if (constructors.some((constructor) => Function.prototype.toString.call(constructor).startsWith('class'))) return createServer(options, app);
  const [incoming, outgoing] = constructors as [(this: object, ...args: unknown[]) => void, (this: object, ...args: unknown[]) => void];
  function Request(this: object, ...args: unknown[]): void {
    incoming.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(this: object, ...args: unknown[]): void {
    outgoing.apply(this, args);
  }
  Response.prototype = app.response;
  return createServer({ ...options, IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse }, app);
}

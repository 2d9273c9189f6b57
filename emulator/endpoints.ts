/**
 * Every HTTP area of the emulator is a table of endpoints built here, each row the same six
 * things: method, path, caller, input, use case and serializer (decisions/019). A request walks
 * its row once: the caller is identified, then the body is read (for a caller that passed), then
 * the input is validated, the use case run, and its result serialized, or its refusal worded as
 * an error; the area's writer sends either. No area registers a route any other way
 * (test/endpoints.test.ts).
 */
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { HttpError } from './errors.js';
import { type Answer, writeAnswer } from './fast-path/json.js';
import type { Html } from './pages/html.js';
import { type Cookie, sendPage, setCookies } from './pages/http.js';
import { type Refused, isRefused } from './wire-contract.js';

/** A request as a row reads it: its path's parameters are text. */
export type RowRequest = Request<Record<string, string>>;

/** A page as an answer: its status and its HTML (pages/http.ts `sendPage` adds the headers). */
export interface PageAnswer {
  readonly status: number;
  readonly page: Html;
  /** Cookies it sets or clears, such as the form id its forms need (pages/csrf.ts `FormId`). */
  readonly cookies?: readonly Cookie[];
}

/** A redirect as an answer: the way on after a form, or to sign in first. */
export interface RedirectAnswer {
  readonly status: 302 | 303;
  readonly location: string;
  /** Headers of its own, such as `Cache-Control: no-store` on the way back from a form. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Cookies it sets or clears, such as a sign-in's session. */
  readonly cookies?: readonly Cookie[];
}

/** An answer the endpoint writes itself, as it goes (a file download, a progress stream). */
export class Streamed {
  constructor(readonly write: (res: Response) => void | Promise<void>) {}
}

/** Text under headers of its own: a static script or stylesheet, or a page under a CSP of its own. */
export class TextAnswer {
  constructor(
    readonly headers: Readonly<Record<string, string>>,
    readonly text: string,
  ) {}
}

/** A script the emulator serves from its own origin (the pages' CSP allows 'self' only), never cached. */
export function scriptAnswer(script: string): TextAnswer {
  return new TextAnswer({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }, script);
}

/** What a row's serializer makes of its use case's result. */
export type Made = Answer | PageAnswer | RedirectAnswer | Streamed | TextAnswer;

export interface Endpoint<Ctx, Out extends Made, Caller, Input, Result extends object, Reason> {
  method: 'get' | 'post';
  path: string;
  /** Who may call it: identified from the request, or thrown out with the area's error. */
  caller: (req: RowRequest, res: Response) => Caller;
  /** The request's input, validated (`noInput` for an endpoint that reads none). */
  input: (req: RowRequest, caller: Caller) => Input;
  run: (ctx: Ctx, caller: Caller, input: Input) => Result | Refused<Reason>;
  /** Words a refusal as the area's error, or, in a page area, as the page or redirect it answers with; a row whose use case never refuses has none. */
  refusal?: (reason: Reason, caller: Caller, input: Input) => HttpError | Out;
  answer: (result: Result, caller: Caller, input: Input) => Out;
}

/** Sends what `make` returns: a made answer, or an error for the area's error writer. */
export type Writer<Out extends Made> = (res: Response, next: NextFunction, make: () => Out | HttpError) => void;

export interface Area<Ctx, Out extends Made> {
  ctx: Ctx;
  /** Reads the body once the caller passed; an area that reads it before its table has none. */
  body?: RequestHandler;
  /** How answers leave; `writeNow` unless the area says otherwise. */
  write?: Writer<Out>;
}

/** Anyone may call it: the area's guard, if any, stands before the table. */
export const anyone = (): undefined => undefined;

/** What an endpoint without input reads: nothing. */
export const noInput = (): undefined => undefined;

/** Writes a made answer at once; an error goes to the area's error writer. */
export const writeNow: Writer<Made> = (res, next, make) => {
  const made = make();
  if (made instanceof HttpError) return next(made);
  send(res, made, next);
};

/** Writes a made answer on `res`: JSON by `writeAnswer`, a page by `sendPage`, a redirect (each with its cookies), a text under its headers, a stream by itself. */
export function send(res: Response, made: Made, next: NextFunction): void {
  if (made instanceof Streamed) return void Promise.resolve(made.write(res)).catch(next);
  if (made instanceof TextAnswer) return void res.set(made.headers).send(made.text);
  if ('page' in made) return sendPage(setCookies(res, made.cookies), made.status, made.page);
  if ('location' in made) return setCookies(res, made.cookies).set(made.headers ?? {}).redirect(made.status, made.location);
  writeAnswer(res, made);
}

/** Adds a row to an area's table; an area's modules of rows take one (control/plane.ts). */
export type EndpointTable<Ctx, Out extends Made = Made> = <Caller, Input, Result extends object, Reason = never>(row: Endpoint<Ctx, Out, Caller, Input, Result, Reason>) => void;

/** The table of one area on `router`: `endpoint(row)` adds a row. */
export function endpointTable<Ctx, Out extends Made = Made>(router: Router, area: Area<Ctx, Out>): EndpointTable<Ctx, Out> {
  const write: Writer<Out> = area.write ?? writeNow;
  return function endpoint<Caller, Input, Result extends object, Reason = never>(row: Endpoint<Ctx, Out, Caller, Input, Result, Reason>): void {
    const made = (caller: Caller, input: Input): Out | HttpError => {
      const outcome = row.run(area.ctx, caller, input);
      if (!isRefused(outcome)) return row.answer(outcome, caller, input);
      if (!row.refusal) throw new Error(`${row.method.toUpperCase()} ${row.path} refused with no refusal to answer it`);
      return row.refusal(outcome.refused, caller, input);
    };
    const handle = (req: RowRequest, res: Response, next: NextFunction, caller: Caller) => {
      try {
        const input = row.input(req, caller);
        write(res, next, () => made(caller, input));
      } catch (thrown) {
        next(thrown);
      }
    };
    router[row.method](row.path, (request, res, next) => {
      // A row's path names its parameters `:name`, never a wildcard (whose value is a list): each is text.
      const req = request as RowRequest;
      const caller = row.caller(req, res);
      if (!area.body) return handle(req, res, next, caller);
      area.body(req, res, (error?: unknown) => (error ? next(error) : handle(req, res, next, caller)));
    });
  };
}

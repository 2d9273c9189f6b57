/**
 * A request the fuzz sends and the answer it reads: what fuzz.ts sends and check.ts judges, so
 * both import it and neither imports the other for it.
 */
import type http from 'node:http';
import type { HeaderMap, Payload } from './hostile.js';

export interface FuzzRequest {
  method: string;
  /** Path and query, already percent-encoded where needed. */
  path: string;
  headers?: HeaderMap;
  body?: Payload;
}

export interface FuzzAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** The four experience API calls the bench measures, and the baselines each is compared with. */
import type { LoadRequest } from './load.js';
import type { ServerKind } from './servers.js';

const API = '/api/experience/v1';

export type BaselineKind = Exclude<ServerKind, 'emulator'>;

/** The four calls of CASES, and the sustained mix of all four (mixed.ts). */
export type CaseId = 'campaign' | 'sandbox-session' | 'sandbox-entry' | 'production-entry' | 'mixed';

export interface BenchCase {
  id: CaseId;
  title: string;
  request(keys: { sandboxKey: string; productionKey: string }): LoadRequest;
  /** Requests that each need a session of their own take it from a pool of this kind. */
  pool?: 'sandboxSessions' | 'productionSessions';
  baselines: BaselineKind[];
}

const json = { 'content-type': 'application/json' };

export const CASES: BenchCase[] = [
  {
    id: 'campaign',
    title: 'GET /campaign',
    request: (keys) => ({ method: 'GET', path: `${API}/campaign`, headers: { authorization: `Bearer ${keys.sandboxKey}` } }),
    baselines: ['node-http', 'express'],
  },
  {
    id: 'sandbox-session',
    title: 'sandbox POST /sessions {"scenario":"won"}',
    request: (keys) => ({ method: 'POST', path: `${API}/sessions`, headers: { authorization: `Bearer ${keys.sandboxKey}`, ...json }, body: '{"scenario":"won"}' }),
    baselines: ['node-http', 'express'],
  },
  {
    id: 'sandbox-entry',
    title: 'sandbox POST /session/entry {}',
    request: (keys) => ({ method: 'POST', path: `${API}/session/entry`, headers: { authorization: `Bearer ${keys.sandboxKey}`, ...json }, body: '{}' }),
    pool: 'sandboxSessions',
    baselines: ['node-http', 'express', 'express-sqlite'],
  },
  {
    id: 'production-entry',
    title: 'production POST /session/entry {consent}',
    request: (keys) => ({ method: 'POST', path: `${API}/session/entry`, headers: { authorization: `Bearer ${keys.productionKey}`, ...json } }),
    pool: 'productionSessions',
    baselines: ['node-http', 'express', 'express-sqlite'],
  },
];

/** Builders for reporting tests: the test world plus calls to `/api/v1` with the company's token. */
import { createBrand, createCompany } from '../../emulator/store/companies.js';
import { type TestWorld, testWorld } from '../world.js';

export const API = '/api/v1';
export const BRAND = 'alpenmilch';
export const OTHER_BRAND = 'nordkakao';
export const RIVAL_TOKEN = `pkd_${'ab'.repeat(32)}`;

export function reportingWorld(options: Parameters<typeof testWorld>[0] = {}) {
  const t = testWorld(options);
  const get = (path: string, token: string | null = t.env.reporting_token) => {
    const call = t.api.get(`${API}${path}`);
    return token === null ? call : call.set('Authorization', `Bearer ${token}`);
  };
  const post = (path: string, body: unknown, token: string | null = t.env.reporting_token) => {
    const call = t.api.post(`${API}${path}`);
    return (token === null ? call : call.set('Authorization', `Bearer ${token}`)).send(body as object);
  };
  return { ...t, get, post };
}

export type ReportingWorld = ReturnType<typeof reportingWorld>;

/** Another company with its own token and brand, to prove one company never reaches another's data. */
export function addRivalCompany(t: TestWorld): { slug: string } {
  const company = createCompany(t.world.db, 'Rival Sweets', RIVAL_TOKEN);
  createBrand(t.world.db, company, { slug: 'rival', name: 'Rival', prefix: 'RV' });
  return { slug: 'rival' };
}

/** Companies and their brands, as the reporting API's token sees them. @see spec §5 (reporting) */
import { hashSecret } from '../domain/secrets.js';
import type { Db } from './db.js';
import type { Brand } from './promotions.js';

/** The company whose token this is; tokens are stored only as their SHA-256. */
export function findCompanyByToken(db: Db, token: string): { id: number } | undefined {
  return db.prepare('SELECT id FROM companies WHERE token_hash = ?').get(hashSecret(token)) as { id: number } | undefined;
}

export function listCompanyBrands(db: Db, companyId: number): Brand[] {
  return db.prepare('SELECT id, slug, name, prefix FROM brands WHERE company_id = ? ORDER BY id').all(companyId) as Brand[];
}

/** Undefined for an unknown slug and for another company's brand alike. */
export function findCompanyBrand(db: Db, companyId: number, slug: string): Brand | undefined {
  return db.prepare('SELECT id, slug, name, prefix FROM brands WHERE company_id = ? AND slug = ?').get(companyId, slug) as Brand | undefined;
}

export function listCompanies(db: Db): Array<{ id: number; name: string }> {
  return db.prepare('SELECT id, name FROM companies ORDER BY id').all() as Array<{ id: number; name: string }>;
}

/** A company with its reporting token, stored only as its SHA-256. */
export function createCompany(db: Db, name: string, token: string): number {
  return db.prepare('INSERT INTO companies (name, token_hash) VALUES (?, ?) RETURNING id').pluck().get(name, hashSecret(token)) as number;
}

/** A brand of a company, with no SKU yet. */
export function createBrand(db: Db, companyId: number, brand: Omit<Brand, 'id'>): number {
  return db.prepare('INSERT INTO brands (company_id, slug, name, prefix) VALUES (?, ?, ?, ?) RETURNING id').pluck().get(companyId, brand.slug, brand.name, brand.prefix) as number;
}

/**
 * Batches of unit codes and their asynchronous generation state. @see spec §2.9, §3 (batches), §4.4
 *
 * A code is `<SKU prefix>-<YYMMDD>-<lot><random>`: the lot (two characters) numbers each run of
 * LOT_SIZE codes of the batch, and the random part (ten characters of a 31-character alphabet,
 * about 8 × 10^14 values) comes from an AES-CTR keystream keyed by an HMAC of the seed and the
 * batch. So codes derive from the seed, and none can be guessed from another: knowing a code
 * gives its lot, and a lot's 2,000 codes are spread over 8 × 10^14 values. Lots keep each chunk's
 * inserts together in the unique code index; random codes spread over it made a million-code
 * batch five times slower. The one writer of both tables (units.ts reads them).
 */
import { createCipheriv } from 'node:crypto';
import { deriveBytes } from '../domain/secrets.js';
import type { Db } from './db.js';
import { CODE_ALPHABET, codeSuffix } from './code-text.js';

export type BatchState = 'generating' | 'generated' | 'export_ready';

export interface Batch {
  id: number;
  sku_id: number;
  quantity: number;
  purpose: string;
  state: BatchState;
  generated: number;
  created_at: number;
}

/** Codes per lot, and per chunk of generation: one lot is one transaction. */
const LOT_SIZE = 2000;
const RANDOM_LENGTH = 10;
const BLOCK = 16;

export function createBatch(db: Db, input: { skuId: number; quantity: number; purpose: string; state: BatchState; now: number }): Batch {
  return db
    .prepare('INSERT INTO batches (sku_id, quantity, purpose, state, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *')
    .get(input.skuId, input.quantity, input.purpose, input.state, input.now) as Batch;
}

export function getBatch(db: Db, batchId: number): Batch {
  return db.prepare('SELECT * FROM batches WHERE id = ?').get(batchId) as Batch;
}

export function findBatch(db: Db, skuId: number, batchId: number): Batch | undefined {
  return db.prepare('SELECT * FROM batches WHERE id = ? AND sku_id = ?').get(batchId, skuId) as Batch | undefined;
}

export function batchesOfSku(db: Db, skuId: number): Batch[] {
  return db.prepare('SELECT * FROM batches WHERE sku_id = ? ORDER BY id').all(skuId) as Batch[];
}

export function batchesInState(db: Db, state: BatchState): Batch[] {
  return db.prepare('SELECT * FROM batches WHERE state = ? ORDER BY id').all(state) as Batch[];
}

/** Moves a batch on only from the state it is expected to be in; false if it moved or vanished meanwhile. */
export function advanceBatch(db: Db, batchId: number, from: BatchState, to: BatchState): boolean {
  return db.prepare('UPDATE batches SET state = ? WHERE id = ? AND state = ?').run(to, batchId, from).changes === 1;
}

/** A fixture's pack, in a batch seeded whole: its code made by the seed (world.ts), recalled or not. */
export function seedUnit(db: Db, unit: { batchId: number; skuId: number; code: string; kind: string; recalled: boolean }): void {
  db.prepare('INSERT INTO units (batch_id, sku_id, code, kind, recalled) VALUES (?, ?, ?, ?, ?)').run(unit.batchId, unit.skuId, unit.code, unit.kind, unit.recalled ? 1 : 0);
}

/** `YYMMDD` of a time, the production day inside a unit code. */
function productionDay(at: number): string {
  return new Date(at).toISOString().slice(2, 10).replaceAll('-', '');
}

/**
 * Generates the batch's next lot of codes and records the progress, in one transaction; returns
 * how many codes are still to generate, or undefined when the batch is gone or not generating.
 */
export function generateLot(db: Db, seed: string, batchId: number): number | undefined {
  return db.transaction(() => {
    const batch = db
      .prepare(`SELECT b.*, s.prefix AS sku_prefix FROM batches b JOIN skus s ON s.id = b.sku_id WHERE b.id = ? AND b.state = 'generating'`)
      .get(batchId) as (Batch & { sku_prefix: string }) | undefined;
    if (!batch) return undefined;
    const end = Math.min(batch.quantity, batch.generated + LOT_SIZE);
    const insert = db.prepare(`INSERT INTO units (batch_id, sku_id, code, kind) VALUES (?, ?, ?, 'production') ON CONFLICT (code) DO NOTHING`);
    const lot = `${batch.sku_prefix}-${productionDay(batch.created_at)}-${lotName(batch.generated / LOT_SIZE)}`;
    const stream = keystream(seed, batchId, batch.generated, end - batch.generated);
    for (let index = batch.generated; index < end; index++) {
      const offset = (index - batch.generated) * BLOCK;
      let code = `${lot}${alphabetOf(stream.subarray(offset, offset + RANDOM_LENGTH))}`;
      // A clash with an existing code (vanishingly rare, kept correct all the same) takes the next candidate.
      for (let attempt = 1; insert.run(batchId, batch.sku_id, code).changes === 0; attempt++) {
        code = `${lot}${codeSuffix(seed, `batch:${batchId}:${index}:${attempt}`, RANDOM_LENGTH)}`;
      }
    }
    db.prepare('UPDATE batches SET generated = ? WHERE id = ?').run(end, batchId);
    return batch.quantity - end;
  }).immediate();
}

/** Block `index` of the batch's keystream is the random part of code `index`. */
function keystream(seed: string, batchId: number, first: number, count: number): Buffer {
  const counter = Buffer.alloc(BLOCK);
  counter.writeUIntBE(first, BLOCK - 6, 6);
  return createCipheriv('aes-256-ctr', deriveBytes(seed, `batch-codes:${batchId}`), counter).update(Buffer.alloc(count * BLOCK));
}

function lotName(lot: number): string {
  return CODE_ALPHABET[lot % CODE_ALPHABET.length]! + CODE_ALPHABET[Math.floor(lot / CODE_ALPHABET.length) % CODE_ALPHABET.length]!;
}

function alphabetOf(bytes: Buffer): string {
  let text = '';
  for (const byte of bytes) text += CODE_ALPHABET[byte % CODE_ALPHABET.length];
  return text;
}

/** One page of a batch's codes after `afterId`, in id order; the CSV download walks these pages. */
export function batchCodePage(db: Db): (batchId: number, afterId: number, limit: number) => IterableIterator<{ id: number; code: string }> {
  const page = db.prepare('SELECT id, code FROM units WHERE batch_id = ? AND id > ? ORDER BY id LIMIT ?');
  return (batchId, afterId, limit) => page.iterate(batchId, afterId, limit) as IterableIterator<{ id: number; code: string }>;
}

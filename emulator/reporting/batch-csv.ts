/**
 * The batch download: CSV streamed page by page with constant memory, however large the batch.
 * Each page is read whole and the statement finished before writing: an iterator left open
 * across `await` would keep the one SQLite connection busy for every other request.
 * Columns: `unit_id` (as in `scan.unit.id`), `code`, `url` (what the pack's QR code opens); codes
 * hold only letters, digits and hyphens, so no field needs quoting.
 */
import type { Response } from 'express';
import type { batchCodePage } from '../store/batches.js';

const PAGE = 1000;

export async function streamBatchCsv(page: ReturnType<typeof batchCodePage>, batchId: number, baseUrl: string, res: Response, filename: string): Promise<void> {
  res.status(200).set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
  });
  res.write('unit_id,code,url\n');
  for (let afterId = 0; ; ) {
    let text = '';
    for (const unit of page(batchId, afterId, PAGE)) {
      text += `${unit.id},${unit.code},${baseUrl}/q/${unit.code}\n`;
      afterId = unit.id;
    }
    if (text === '') break;
    if (!res.write(text)) await drained(res);
    if (res.destroyed) return;
  }
  res.end();
}

/** Resolves when the client has taken what was written, or went away. */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

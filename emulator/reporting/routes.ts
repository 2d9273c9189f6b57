/**
 * The reporting API route table, `/api/v1`. A company's bearer token reaches every brand of that
 * company and nothing else; routes stay thin: authenticate, scope, validate, read or write.
 * @see spec §4.4, §5 (reporting)
 */
import { type Request, type Response, Router } from 'express';
import type { Context } from '../context.js';
import { OPENAPI_PATH } from '../api-docs.js';
import { RECENT_SCANS } from '../domain/limits.js';
import { bearerOf, jsonBody } from '../http.js';
import { findAudienceMember, listAudience } from '../store/audience.js';
import { batchCodePage, createBatch, findBatch } from '../store/batches.js';
import { findCompanyBrand, findCompanyByToken, listCompanyBrands } from '../store/companies.js';
import type { Brand } from '../store/promotions.js';
import { listRedemptions } from '../store/redemptions.js';
import { findProductionScan, listProductionScans, recentScansOfCollector } from '../store/scan-reads.js';
import { type Sku, findSku, listSkus } from '../store/skus.js';
import { isRefused } from '../use-cases/refused.js';
import { createBrandSku } from '../use-cases/reporting/sku-create.js';
import { streamBatchCsv } from './batch-csv.js';
import { runBatchJob } from './batch-job.js';
import { ReportingError, skuRefusal } from './errors.js';
import { brandActivations, scanOutcome, scanOutcomes } from './scan-outcome.js';
import { BatchBody, CollectorListQuery, RedemptionListQuery, ScanListQuery, SkuBody, parse, pathId } from './schemas.js';
import { batchJson, collectorDetailJson, collectorJson, redemptionJson, skuJson } from './serialize.js';


interface CompanyLocals {
  companyId: number;
}

/** `openApi` serves the API's own document (openapi/reporting.ts): app.ts hands it in, as openapi/ stands above the API it describes. */
export function reportingRouter(ctx: Context, openApi: () => object): Router {
  const router = Router();
  const { db } = ctx;

  // Public, so before the token check: the document holds no secrets, and tools fetch it without credentials.
  router.get(OPENAPI_PATH, (_req, res) => {
    res.json(openApi());
  });

  router.use((req, res, next) => {
    const token = bearerOf(req.get('authorization'));
    const company = token ? findCompanyByToken(db, token) : undefined;
    if (!company) throw new ReportingError('unauthorized', { headers: { 'WWW-Authenticate': 'Bearer' } });
    (res.locals as CompanyLocals).companyId = company.id;
    next();
  });
  router.use(jsonBody);

  const brandOf = (req: Request, res: Response): Brand => {
    const brand = findCompanyBrand(db, (res.locals as CompanyLocals).companyId, String(req.params.slug));
    if (!brand) throw new ReportingError('not_found');
    return brand;
  };
  const skuOf = (brand: Brand, id: string | undefined): Sku => {
    const sku = findSku(db, brand.id, pathId(id));
    if (!sku) throw new ReportingError('not_found');
    return sku;
  };

  router.get('/brands', (_req, res) => {
    res.json({ data: listCompanyBrands(db, (res.locals as CompanyLocals).companyId) });
  });

  router.get('/brands/:slug/scans', (req, res) => {
    const brand = brandOf(req, res);
    const query = parse(ScanListQuery, req.query);
    res.json({ data: scanOutcomes(db, brand.id, listProductionScans(db, brand.id, query)) });
  });

  router.get('/brands/:slug/scans/:id', (req, res) => {
    const scan = findProductionScan(db, brandOf(req, res).id, pathId(req.params.id));
    if (!scan) throw new ReportingError('not_found');
    res.json(scanOutcome(db, scan));
  });

  router.get('/brands/:slug/collectors', (req, res) => {
    const brand = brandOf(req, res);
    res.json({ data: listAudience(db, brand.id, parse(CollectorListQuery, req.query)).map(collectorJson) });
  });

  router.get('/brands/:slug/collectors/:id', (req, res) => {
    const brand = brandOf(req, res);
    const member = findAudienceMember(db, brand.id, pathId(req.params.id));
    if (!member) throw new ReportingError('not_found');
    res.json(collectorDetailJson(member, scanOutcomes(db, brand.id, recentScansOfCollector(db, brand.id, member.id, RECENT_SCANS))));
  });

  router.get('/brands/:slug/redemptions', (req, res) => {
    const brand = brandOf(req, res);
    const query = parse(RedemptionListQuery, req.query);
    const activations = new Map(brandActivations(db, brand.id).map((activation) => [activation.promotion.id, activation]));
    const rows = listRedemptions(db, brand.id, query, ctx.clock.now());
    res.json({ data: rows.map((row) => redemptionJson(row, activations.get(row.promotion_id)!)) });
  });

  router.get('/brands/:slug/skus', (req, res) => {
    res.json({ data: listSkus(db, brandOf(req, res).id).map(skuJson) });
  });

  router.post('/brands/:slug/skus', (req, res) => {
    const brand = brandOf(req, res);
    const sku = createBrandSku(ctx, brand, parse(SkuBody, req.body));
    if (isRefused(sku)) throw skuRefusal(sku.refused, brand);
    res.status(201).json(skuJson(sku));
  });

  router.post('/brands/:slug/skus/:id/batches', (req, res) => {
    const brand = brandOf(req, res);
    const sku = skuOf(brand, req.params.id);
    const body = parse(BatchBody, req.body);
    const batch = createBatch(db, { skuId: sku.id, quantity: body.quantity, purpose: body.purpose, state: 'generating', now: ctx.clock.now() });
    void runBatchJob(ctx, batch.id);
    res.status(202).json(batchJson(batch, sku, brand, ctx.config.baseUrl));
  });

  router.get('/brands/:slug/skus/:sku_id/batches/:id/download', (req, res) => {
    const brand = brandOf(req, res);
    const sku = skuOf(brand, req.params.sku_id);
    const batch = findBatch(db, sku.id, pathId(req.params.id));
    if (!batch) throw new ReportingError('not_found');
    if (batch.state !== 'export_ready') {
      const progress = batch.state === 'generating' ? `generating: ${batch.generated} of ${batch.quantity} codes` : 'codes generated; the file is being prepared';
      throw new ReportingError('batch_not_ready', { details: { state: [progress] }, headers: { 'Retry-After': '1' } });
    }
    return streamBatchCsv(batchCodePage(db), batch.id, ctx.config.baseUrl, res, `${sku.prefix}-batch-${batch.id}.csv`);
  });

  return router;
}

/**
 * The reporting API, `/api/v1`, one table (endpoints.ts). A company's bearer token reaches every
 * brand of that company and nothing else: the caller of a brand's endpoint is the brand, found
 * among the company's, or 404. The token is checked and the body read for every path before the
 * table, as an unknown path answers 401 to a caller without one. @see spec §4.4, §5 (reporting)
 */
import { type Response, Router } from 'express';
import type { Context } from '../context.js';
import { OPENAPI_PATH } from '../api-docs.js';
import { type RowRequest, Streamed, anyone, endpointTable, noInput } from '../endpoints.js';
import { bearerOf, jsonBody } from '../http.js';
import { batchCodePage } from '../store/batches.js';
import { findCompanyBrand, findCompanyByToken, listCompanyBrands } from '../store/companies.js';
import type { Brand } from '../store/promotions.js';
import { type Sku, findSku, listSkus } from '../store/skus.js';
import { downloadableBatch, orderBatch } from '../use-cases/reporting/batches.js';
import { listBrandRedemptions, listCollectors, listScans, readCollector, readScan } from '../use-cases/reporting/reads.js';
import { createBrandSku } from '../use-cases/reporting/sku-create.js';
import { streamBatchCsv } from './batch-csv.js';
import { ReportingError, notReady, skuRefusal } from './errors.js';
import { BatchBody, CollectorListQuery, RedemptionListQuery, ScanListQuery, SkuBody, parse, pathId } from './schemas.js';
import { batchJson, collectorDetailJson, collectorJson, redemptionJson, skuJson } from './serialize.js';

interface CompanyLocals {
  companyId: number;
}

const notFound = () => new ReportingError('not_found');

/** `openApi` serves the API's own document (openapi/reporting.ts): app.ts hands it in, as openapi/ stands above the API it describes. */
export function reportingRouter(ctx: Context, openApi: () => object): Router {
  const router = Router();
  const { db } = ctx;
  const endpoint = endpointTable(router, { ctx });

  // Public, so before the token check: the document holds no secrets, and tools fetch it without credentials.
  endpoint({
    method: 'get', path: OPENAPI_PATH, caller: anyone,
    input: noInput,
    run: () => openApi(),
    answer: (document) => ({ status: 200, body: document }),
  });

  router.use((req, res, next) => {
    const token = bearerOf(req.get('authorization'));
    const company = token ? findCompanyByToken(db, token) : undefined;
    if (!company) throw new ReportingError('unauthorized', { headers: { 'WWW-Authenticate': 'Bearer' } });
    (res.locals as CompanyLocals).companyId = company.id;
    next();
  });
  router.use(jsonBody);

  const company = (_req: RowRequest, res: Response): number => (res.locals as CompanyLocals).companyId;
  const brand = (req: RowRequest, res: Response): Brand => {
    const found = findCompanyBrand(db, company(req, res), String(req.params.slug));
    if (!found) throw notFound();
    return found;
  };
  /** A SKU of the brand, named by the path's `sku_id` (or `id`). */
  const brandSku = (req: RowRequest, res: Response): { brand: Brand; sku: Sku } => {
    const owner = brand(req, res);
    const sku = findSku(db, owner.id, pathId(req.params.sku_id ?? req.params.id));
    if (!sku) throw notFound();
    return { brand: owner, sku };
  };
  const data = <Row, Json>(serialize: (row: Row) => Json) => (rows: Row[]) => ({ status: 200, body: { data: rows.map(serialize) } });

  endpoint({
    method: 'get', path: '/brands', caller: company,
    input: noInput,
    run: (on, companyId) => listCompanyBrands(on.db, companyId),
    answer: data((row) => row),
  });
  endpoint({
    method: 'get', path: '/brands/:slug/scans', caller: brand,
    input: (req) => parse(ScanListQuery, req.query),
    run: listScans,
    answer: data((scan) => scan),
  });
  endpoint({
    method: 'get', path: '/brands/:slug/scans/:id', caller: brand,
    input: (req) => pathId(req.params.id),
    run: readScan,
    refusal: notFound,
    answer: (scan) => ({ status: 200, body: scan }),
  });
  endpoint({
    method: 'get', path: '/brands/:slug/collectors', caller: brand,
    input: (req) => parse(CollectorListQuery, req.query),
    run: listCollectors,
    answer: data(collectorJson),
  });
  endpoint({
    method: 'get', path: '/brands/:slug/collectors/:id', caller: brand,
    input: (req) => pathId(req.params.id),
    run: readCollector,
    refusal: notFound,
    answer: ({ member, scans }) => ({ status: 200, body: collectorDetailJson(member, scans) }),
  });
  endpoint({
    method: 'get', path: '/brands/:slug/redemptions', caller: brand,
    input: (req) => parse(RedemptionListQuery, req.query),
    run: listBrandRedemptions,
    answer: data(({ row, activation }) => redemptionJson(row, activation)),
  });
  endpoint({
    method: 'get', path: '/brands/:slug/skus', caller: brand,
    input: noInput,
    run: (on, owner) => listSkus(on.db, owner.id),
    answer: data(skuJson),
  });
  endpoint({
    method: 'post', path: '/brands/:slug/skus', caller: brand,
    input: (req) => parse(SkuBody, req.body),
    run: createBrandSku,
    refusal: skuRefusal,
    answer: (sku) => ({ status: 201, body: skuJson(sku) }),
  });
  endpoint({
    method: 'post', path: '/brands/:slug/skus/:id/batches', caller: brandSku,
    input: (req) => parse(BatchBody, req.body),
    run: (on, { sku }, body) => orderBatch(on, sku, body),
    answer: (batch, { brand: owner, sku }) => ({ status: 202, body: batchJson(batch, sku, owner, ctx.config.baseUrl) }),
  });
  endpoint({
    method: 'get', path: '/brands/:slug/skus/:sku_id/batches/:id/download', caller: brandSku,
    input: (req) => pathId(req.params.id),
    run: (on, { sku }, id) => downloadableBatch(on, sku, id),
    refusal: (reason) => (reason === 'not_found' ? notFound() : notReady(reason.notReady)),
    answer: (batch, { sku }) => new Streamed((res) => streamBatchCsv(batchCodePage(db), batch.id, ctx.config.baseUrl, res, `${sku.prefix}-batch-${batch.id}.csv`)),
  });

  return router;
}

/** The reporting API's route table and webhook events for its OpenAPI document. @see spec §4.4, §5 (reporting), §6, §7 */
import { z } from 'zod';
import { HTTP_ERRORS } from '../errors.js';
import { REPORTING_ERRORS, type ReportingCode } from '../reporting/errors.js';
import {
  BatchCsvSchema, BatchSchema, BrandListSchema, CollectorDetailSchema, CollectorListSchema, RedemptionListSchema, ScanListSchema, ScanOutcomeSchema, SkuListSchema, SkuSchema,
} from '../reporting/responses.js';
import { BatchBody, BrandSlug, CollectorListQuery, PathId, RedemptionListQuery, ScanListQuery, SkuBody } from '../reporting/schemas.js';
import { type ApiDoc, type ErrorCase, ErrorDetails, RETRY_AFTER, errorResponses, servedDocument } from './document.js';
import { REPORTING_EXAMPLES as EXAMPLES } from './reporting-examples.js';
import { WEBHOOKS } from './webhooks.js';

const reportingError = (code: ReportingCode, description: string, headers?: ErrorCase['headers']): ErrorCase => ({
  code, status: REPORTING_ERRORS[code].status, description, ...(headers ? { headers } : {}),
});

const UNAUTHORIZED = reportingError('unauthorized', "No bearer token, or not a company's.", {
  'WWW-Authenticate': { description: 'The scheme to authenticate with.', schema: z.literal('Bearer') },
});
const NO_BRAND = "The brand is not one of the company's.";
const INVALID = (what: string) => reportingError('validation_failed', `${what}; \`details\` names each field and what is wrong with it.`);
/** The shared HTTP plumbing answers these with the reporting shape. */
const BODY_ERRORS = (['invalid_request', 'payload_too_large', 'unsupported_media_type'] as const).map(
  (code): ErrorCase => ({ code, status: HTTP_ERRORS[code].status, description: code === 'invalid_request' ? 'The body is not valid JSON.' : HTTP_ERRORS[code].message }),
);

/** The codes whose bodies may carry `details`, with an example of them. */
const DETAILS_EXAMPLES: Record<string, Record<string, string[]>> = {
  invalid_request: { '(body)': ['must be valid JSON'] },
  validation_failed: { limit: ['must be at most 1000'] },
  batch_not_ready: { state: ['generating'] },
};

const errors = (...cases: ErrorCase[]) =>
  errorResponses(
    [UNAUTHORIZED, ...cases],
    (codes) => z.strictObject({ error: z.enum(codes), ...(codes.some((code) => code in DETAILS_EXAMPLES) ? { details: ErrorDetails.optional() } : {}) }),
    ({ code }) => ({ error: code, ...(DETAILS_EXAMPLES[code] ? { details: DETAILS_EXAMPLES[code] } : {}) }),
  );

const brand = { slug: BrandSlug };

export const REPORTING_API: ApiDoc = {
  title: 'Reporting and operations API',
  description:
    "A company's brands: production scans, collectors (opaque ids, no personal data), redemptions, SKUs and code batches. " +
    'Errors are `{"error": "<code>"}`, with `details` (field → messages) where a field is invalid. ' +
    'Events reach the endpoints registered with `emulator webhooks add` as signed POSTs: see Webhooks.',
  root: '/api/v1',
  securitySchemes: {
    apiToken: { type: 'http', scheme: 'bearer', description: "The company's API token (`Authorization: Bearer <API_TOKEN>`): every brand of that company, nothing else." },
  },
  routes: {
    '/brands': {
      get: {
        operationId: 'listBrands', summary: "List the company's brands", security: ['apiToken'],
        responses: { 200: { description: 'The brands.', body: BrandListSchema, examples: EXAMPLES.brands }, ...errors() },
      },
    },
    '/brands/:slug/scans': {
      get: {
        operationId: 'listScans', summary: 'List recent production scans, newest first', security: ['apiToken'], path: brand, query: ScanListQuery,
        responses: { 200: { description: 'The scans, each with its outcome.', body: ScanListSchema, examples: EXAMPLES.scans }, ...errors(reportingError('not_found', NO_BRAND), INVALID('A query parameter is invalid')) },
      },
    },
    '/brands/:slug/scans/:id': {
      get: {
        operationId: 'readScan', summary: 'Read one scan with its full outcome', security: ['apiToken'], path: { ...brand, id: PathId },
        responses: { 200: { description: 'The scan outcome.', body: ScanOutcomeSchema, examples: EXAMPLES.scan }, ...errors(reportingError('not_found', `${NO_BRAND} Or no production scan of this brand has this id.`)) },
      },
    },
    '/brands/:slug/collectors': {
      get: {
        operationId: 'listCollectors', summary: 'List the audience that scanned this brand', security: ['apiToken'], path: brand, query: CollectorListQuery,
        responses: { 200: { description: 'The collectors.', body: CollectorListSchema, examples: EXAMPLES.collectors }, ...errors(reportingError('not_found', NO_BRAND), INVALID('A query parameter is invalid')) },
      },
    },
    '/brands/:slug/collectors/:id': {
      get: {
        operationId: 'readCollector', summary: 'Read one collector with their recent scans of this brand', security: ['apiToken'], path: { ...brand, id: PathId },
        responses: { 200: { description: 'The collector.', body: CollectorDetailSchema, examples: EXAMPLES.collector }, ...errors(reportingError('not_found', `${NO_BRAND} Or the collector never scanned this brand.`)) },
      },
    },
    '/brands/:slug/redemptions': {
      get: {
        operationId: 'listRedemptions', summary: 'List rewards claimed and redeemed, newest claim first', security: ['apiToken'], path: brand, query: RedemptionListQuery,
        responses: { 200: { description: 'The redemptions.', body: RedemptionListSchema, examples: EXAMPLES.redemptions }, ...errors(reportingError('not_found', NO_BRAND), INVALID('A query parameter is invalid')) },
      },
    },
    '/brands/:slug/skus': {
      get: {
        operationId: 'listSkus', summary: "List the brand's SKUs", security: ['apiToken'], path: brand,
        responses: { 200: { description: 'The SKUs.', body: SkuListSchema, examples: EXAMPLES.skus }, ...errors(reportingError('not_found', NO_BRAND)) },
      },
      post: {
        operationId: 'createSku', summary: 'Create a SKU', security: ['apiToken'], path: brand, body: SkuBody, bodyExamples: EXAMPLES.skuBody,
        responses: {
          201: { description: 'The new SKU.', body: SkuSchema, examples: EXAMPLES.sku },
          ...errors(...BODY_ERRORS, reportingError('not_found', NO_BRAND), INVALID("A field is invalid, the prefix does not start with the brand's, or it is taken")),
        },
      },
    },
    '/brands/:slug/skus/:id/batches': {
      post: {
        operationId: 'createBatch', summary: 'Generate a batch of unit codes for a SKU (asynchronous)', security: ['apiToken'], path: { ...brand, id: PathId }, body: BatchBody, bodyExamples: EXAMPLES.batchBody,
        description: 'Answers at once with the batch `generating`; `batch.generated` and then `batch.export_ready` follow as webhooks.',
        responses: {
          202: { description: 'The batch, being generated.', body: BatchSchema, examples: EXAMPLES.batch },
          ...errors(...BODY_ERRORS, reportingError('not_found', `${NO_BRAND} Or the SKU is not the brand's.`), INVALID('A field is invalid')),
        },
      },
    },
    '/brands/:slug/skus/:sku_id/batches/:id/download': {
      get: {
        operationId: 'downloadBatch', summary: 'Download a batch as CSV', security: ['apiToken'], path: { ...brand, sku_id: PathId, id: PathId },
        description: 'Columns: `unit_id`, `code` and `url` (what the pack\'s QR code opens).',
        responses: {
          200: {
            description: 'The CSV, streamed.', body: BatchCsvSchema, mediaType: 'text/csv', examples: EXAMPLES.csv,
            headers: { 'Content-Disposition': { description: 'attachment; filename="<prefix>-batch-<id>.csv"', schema: z.string().regex(/^attachment; filename="[A-Z0-9-]+-batch-\d+\.csv"$/) } },
          },
          ...errors(
            reportingError('not_found', `${NO_BRAND} Or the SKU is not the brand's, or the batch not the SKU's.`),
            reportingError('batch_not_ready', 'The CSV is not ready yet; `details.state` says how far it is. Retry after `Retry-After` or wait for `batch.export_ready`.', RETRY_AFTER),
          ),
        },
      },
    },
  },
  webhooks: WEBHOOKS,
};

export const reportingOpenApi = servedDocument(REPORTING_API);

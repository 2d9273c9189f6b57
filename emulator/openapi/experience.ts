/** The experience API's route table for its OpenAPI document. @see spec §4.1, §4.2, §5 */
import { z } from 'zod';
import { KEY_LIFETIME_MS, SESSION_LIFETIME_MS, inWords } from '../domain/limits.js';
import { statusesOf } from '../errors.js';
import { EXPERIENCE_ERRORS, type ErrorCode } from '../experience/errors.js';
import { CampaignReadSchema, SessionCreatedSchema, SessionReadSchema } from '../experience/responses.js';
import { EntryBody, ProductionSessionBody, SandboxSessionBody } from '../experience/schemas.js';
import { type ApiDoc, type ErrorCase, ErrorDetails, RETRY_AFTER, errorResponses, servedDocument } from './document.js';
import {
  CAMPAIGN_EXAMPLES, ENTRY_BODY_EXAMPLES, SESSION_BODY_EXAMPLES, SESSION_CREATED_EXAMPLES, SESSION_EXAMPLES,
} from './experience-examples.js';

const KEY_ERRORS = ['invalid_key', 'key_expired', 'key_revoked'] as const;
const BODY_ERRORS = ['invalid_request', 'payload_too_large', 'unsupported_media_type'] as const;

function errors(...codes: ErrorCode[]) {
  const cases = codes.flatMap((code): ErrorCase[] =>
    statusesOf(EXPERIENCE_ERRORS[code]).map((status) => ({
      code, status, description: EXPERIENCE_ERRORS[code].message, ...(code === 'rate_limited' ? { headers: RETRY_AFTER } : {}),
    })),
  );
  return errorResponses(
    cases,
    (group) => z.strictObject({ error: z.enum(group), message: z.string(), ...(group.includes('invalid_request') ? { details: ErrorDetails.optional() } : {}) }),
    (error) => ({ error: error.code, message: error.description, ...(error.code === 'invalid_request' ? { details: { '(body)': ['must be valid JSON'] } } : {}) }),
  );
}

export const EXPERIENCE_API: ApiDoc = {
  title: 'Agency experience API',
  description:
    'Called from the agency backend only (no CORS). Every call carries the agency key; session calls also carry the session token. ' +
    'Errors are `{"error": "<code>", "message": "<text>"}` with the status of spec §4.2.',
  root: '/api/experience/v1',
  securitySchemes: {
    agencyKey: {
      type: 'http', scheme: 'bearer',
      description: `The agency key (\`Authorization: Bearer <AGENCY_KEY>\`): one promotion, sandbox or production, ${inWords(KEY_LIFETIME_MS)}. Kept on the agency backend.`,
    },
    serviceSession: {
      type: 'apiKey', in: 'header', name: 'X-Service-Session',
      description: `The \`session_token\` of POST /sessions: ${inWords(SESSION_LIFETIME_MS)}, and only with the key that exchanged it.`,
    },
  },
  routes: {
    '/campaign': {
      get: {
        operationId: 'readCampaign',
        summary: 'Read the campaign, the environment, the authorize URL and the sandbox scenarios',
        security: ['agencyKey'],
        responses: { 200: { description: 'The campaign.', body: CampaignReadSchema, examples: CAMPAIGN_EXAMPLES }, ...errors(...KEY_ERRORS, 'rate_limited') },
      },
    },
    '/sessions': {
      post: {
        operationId: 'createSession',
        summary: 'Create a consumer session',
        description: 'Sandbox key: `{scenario}`, a synthetic session. Production key: `{authorization_code, code_verifier}`, the PKCE code exchange; a failed exchange is not retried, the journey restarts from the pack scan.',
        security: ['agencyKey'],
        body: z.union([SandboxSessionBody, ProductionSessionBody]),
        bodyExamples: SESSION_BODY_EXAMPLES,
        responses: { 201: { description: 'The new session with its token.', body: SessionCreatedSchema, examples: SESSION_CREATED_EXAMPLES }, ...errors(...BODY_ERRORS, 'invalid_grant', ...KEY_ERRORS, 'rate_limited') },
      },
    },
    '/session/entry': {
      post: {
        operationId: 'submitEntry',
        summary: "Enter the session's pack",
        description: 'The service alone decides the outcome. 200 with `entry.state` won, lost, pending or failed; a retry returns the existing entry.',
        security: ['agencyKey', 'serviceSession'],
        body: EntryBody,
        bodyExamples: ENTRY_BODY_EXAMPLES,
        responses: {
          200: { description: 'The session with its entry.', body: SessionReadSchema, examples: SESSION_EXAMPLES },
          ...errors(...BODY_ERRORS, ...KEY_ERRORS, 'invalid_session', 'ineligible', 'already_entered', 'unavailable', 'consent_required', 'rate_limited'),
        },
      },
    },
    '/session': {
      get: {
        operationId: 'readSession',
        summary: 'Read the session: refreshed terms, the latest entry and the delivery state',
        description: 'Poll a pending entry at 2, 5, 10, then 30 seconds; stop on `delivered` or `failed`, an expired session or an unavailable integration.',
        security: ['agencyKey', 'serviceSession'],
        responses: { 200: { description: 'The session.', body: SessionReadSchema, examples: SESSION_EXAMPLES }, ...errors(...KEY_ERRORS, 'invalid_session', 'rate_limited') },
      },
    },
  },
};

export const experienceOpenApi = servedDocument(EXPERIENCE_API);

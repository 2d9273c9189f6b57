/**
 * The browsable API reference, `/_emulator/api-docs/experience` and `/_emulator/api-docs/reporting`:
 * Swagger UI (the swagger-ui-dist package, served from the emulator itself, never a CDN) showing
 * the OpenAPI document each API serves. "Try it out" is off: the experience API is called from an
 * agency's server with a key no browser should hold, and these pages are a reference.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { Router } from 'express';
import { type RowRequest, TextAnswer, anyone, endpointTable, noInput, scriptAnswer } from '../endpoints.js';
import { noEndpoint } from '../http.js';
import { type Html, html, toString, trusted } from '../pages/html.js';
import { assetText, inSea } from '../sea.js';
import { OPENAPI_PATH } from '../api-docs.js';
import { EXPERIENCE_API } from './experience.js';
import { REPORTING_API } from './reporting.js';

const APIS = { experience: EXPERIENCE_API, reporting: REPORTING_API } as const;
type ApiName = keyof typeof APIS;

/** Files of swagger-ui-dist the page loads; the single executable carries them as assets (scripts/build-sea.mjs). */
export const SWAGGER_UI_FILES = { 'swagger-ui-bundle.js': 'text/javascript', 'swagger-ui.css': 'text/css' } as const;
type SwaggerFile = keyof typeof SWAGGER_UI_FILES;

const START_SCRIPT = `(() => {
  const root = document.getElementById('reference');
  window.SwaggerUIBundle({ domNode: root, url: root.dataset.document, deepLinking: true, supportedSubmitMethods: [], defaultModelsExpandDepth: 0 });
})();
`;

const STYLE = `body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.bar{background:#1b2a49;color:#fff;padding:12px 16px;display:flex;flex-wrap:wrap;gap:8px 24px;align-items:center}
.bar a{color:#fff}.bar a[aria-current]{font-weight:700}.bar ul{list-style:none;display:flex;flex-wrap:wrap;gap:16px;margin:0;padding:0}`;

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  // Swagger UI's stylesheet draws its icons as data: images.
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page's headers: those of every page (pages/http.ts), under a CSP of its own. */
const PAGE_HEADERS = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Content-Security-Policy': CONTENT_SECURITY_POLICY };

/** A name the path holds, one of `names`' own keys; any other answers as no endpoint does. */
function named<Name extends string>(names: Record<Name, unknown>, req: RowRequest, name: string | undefined): Name {
  if (name === undefined || !Object.hasOwn(names, name)) throw noEndpoint(req);
  return name as Name;
}

export function apiReferenceRouter(): Router {
  const router = Router();
  const endpoint = endpointTable(router, { ctx: undefined });
  const files = new Map<SwaggerFile, string>();
  const file = (name: SwaggerFile) => {
    if (!files.has(name)) files.set(name, inSea ? assetText(name) : readFileSync(join(swaggerUiFolder(), name), 'utf8'));
    return files.get(name)!;
  };

  endpoint({
    method: 'get', path: '/', caller: anyone,
    input: (req) => req.baseUrl,
    run: (_ctx, _caller, base) => ({ location: `${base}/experience` }),
    answer: ({ location }) => ({ status: 302, location }),
  });
  endpoint({
    method: 'get', path: '/:api', caller: anyone,
    input: (req) => ({ name: named(APIS, req, req.params.api), base: req.baseUrl }),
    run: (_ctx, _caller, { name, base }) => ({ page: page(name, base) }),
    answer: ({ page }) => new TextAnswer(PAGE_HEADERS, toString(page)),
  });
  endpoint({
    method: 'get', path: '/assets/start.js', caller: anyone,
    input: noInput,
    run: () => ({ script: START_SCRIPT }),
    answer: ({ script }) => scriptAnswer(script),
  });
  endpoint({
    method: 'get', path: '/assets/:file', caller: anyone,
    input: (req) => named(SWAGGER_UI_FILES, req, req.params.file),
    run: (_ctx, _caller, name) => ({ name, text: file(name) }),
    answer: ({ name, text }) => new TextAnswer({ 'Content-Type': `${SWAGGER_UI_FILES[name]}; charset=utf-8`, 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' }, text),
  });

  return router;
}

function page(name: ApiName, base: string): Html {
  const api = APIS[name];
  const links = (Object.keys(APIS) as ApiName[]).map(
    (other) => html`<li><a href="${base}/${other}"${other === name ? trusted(' aria-current="page"') : ''}>${APIS[other].title}</a></li>`,
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${api.title} · API reference · Promo emulator</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/assets/swagger-ui.css">
<style>${trusted(STYLE)}</style>
</head>
<body>
<header class="bar">
<strong>API reference</strong>
<nav aria-label="APIs"><ul>${links}<li><a href="/">Dashboard</a></li></ul></nav>
<span>The document itself: <a href="${api.root}${OPENAPI_PATH}">${api.root}${OPENAPI_PATH}</a></span>
</header>
<main id="reference" data-document="${api.root}${OPENAPI_PATH}"></main>
<script src="${base}/assets/swagger-ui-bundle.js"></script>
<script src="${base}/assets/start.js"></script>
</body>
</html>
`;
}

function swaggerUiFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

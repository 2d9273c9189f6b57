/** What the probe of the agency's own entry endpoint found (harness/run/endpoint-probe.ts gathers it, checks/endpoint.ts judges it). */
/** How a probe sent the entry from another site: as the page sends it, its token left out or made up; or as a plain form post, no token and none of the page's headers. */
type CsrfVariant = 'missing' | 'forged' | 'missing, as a plain form post';

/** The agency's own entry endpoint, found by catching the request its consent form sends. */
export interface EndpointProbe {
  scenario: string;
  journey: string;
  pack: string;
  /** The request caught (its token-bearing parts named, never their values), or why none was. */
  caught?: { method: string; path: string; tokenParts: string[] };
  missed?: string;
  /** The request again as a cross-site page could send it, its token missing or forged; `after`: the last observed call before it was sent. */
  csrf: Array<{ variant: CsrfVariant; after: number; status: number; readableBy?: string | undefined }>;
  /** Then the request as it was, in a row, until the agency answers 429 (statuses), sent after observed call `burstAfter`. */
  burst: number[];
  burstAfter?: number;
  /** The request of a page asking to confirm the consent form once sent (its entry sent from there): forged, then sent once as it was. */
  confirms?: boolean;
}

/**
 * The control plane's wire types that tools read: `GET /_emulator/observed`'s calls. The emulator
 * answers with them and the harness reads them; this file is the one both import.
 */

/**
 * The code_verifier an exchange presented, judged when it arrives so that no verifier is kept: its
 * length, whether every character is unreserved, and its S256 (what the code_challenge must be).
 * @see spec §4.3 step 4, §5 rule 4, §8
 */
export interface VerifierVerdict {
  length: number;
  unreserved: boolean;
  s256: string;
}

/** What the harness needs of an answer; never the session token. */
export interface CallAnswer {
  error?: string;
  session_created?: boolean;
  entry_state?: string | null;
  codes?: string[];
  redemption_url?: string | null;
  delivery_state?: string | null;
  terms_version?: string | null;
  eligibility?: string | null;
  prize?: string | null;
}

/** One experience call as the harness reads it. */
export interface ObservedCall {
  seq: number;
  /** Wall-clock milliseconds when the call arrived. */
  at: number;
  method: string;
  /** Relative to /api/experience/v1, e.g. "/session/entry". */
  path: string;
  environment: 'sandbox' | 'production' | null;
  key_id: number | null;
  session_id: number | null;
  pack: string | null;
  scenario: string | null;
  status: number;
  fault?: number;
  dropped?: true;
  body: unknown;
  code_sha256?: string;
  verifier?: VerifierVerdict;
  answer?: CallAnswer;
}

/**
 * Consent checks of a production entry. @see spec §2.4, §2.6, §4.2 (422 consent_required)
 */
export interface TermsRule {
  required: boolean;
  minimum_age?: number;
  version: string;
}

export interface ConsentInput {
  accepted: boolean;
  age_confirmed?: boolean;
  terms_version: string;
}

/** Why the consent does not satisfy the session's terms, or undefined when it does. */
export function consentProblem(terms: TermsRule, consent: ConsentInput | undefined): string | undefined {
  const needed = terms.required || terms.minimum_age !== undefined;
  if (!consent) return needed ? 'The entry carries no consent object.' : undefined;
  if (consent.terms_version !== terms.version) return 'terms_version does not match the terms returned for this session; refresh the session.';
  if (terms.required && consent.accepted !== true) return 'The terms were not accepted.';
  if (terms.minimum_age !== undefined && consent.age_confirmed !== true) return `The minimum age of ${terms.minimum_age} was not confirmed.`;
  return undefined;
}

/** Which terms a session shows: its journey country's, else the campaign's default. @see spec §2.3 terms, §2.4 */
import type { Terms } from '../fixture.js';

export interface TermsOwner {
  content: { terms: { default: Terms; by_country: Record<string, Terms> } };
}

export function termsFor({ content }: TermsOwner, country: string | null): Terms {
  return (country && content.terms.by_country[country]) || content.terms.default;
}

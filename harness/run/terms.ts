/** The terms a journey reads, and the edits a scenario makes to them mid-run (`edit_terms`). */
import type { ConsentView } from '../browser/seen.js';
import type { Terms } from '../emulator-client/client.js';

/** The promotion's terms per country ("" for the default), as the run found them. */
export interface TermsByCountry {
  countries: string[];
  default: Terms;
  by_country: Record<string, Terms>;
}

export interface TermsEdit {
  scenario: string;
  journey: string;
  at: number;
  country: string | null;
  set: { text?: string; url?: string; links?: Array<{ label: string; url: string }>; version?: string };
}

/** The terms a journey's country reads: its own, else the promotion's default. */
export function termsOf(facts: { terms: TermsByCountry | undefined }, country: string): Terms | undefined {
  return facts.terms?.by_country[country] ?? facts.terms?.default;
}

/** Whether a consent form shows the terms an edit set: its version, or its text. */
export function showsTerms(view: Pick<ConsentView, 'termsVersion' | 'termsText'>, set: TermsEdit['set']): boolean {
  return (set.version !== undefined && view.termsVersion === set.version) || (set.text !== undefined && view.termsText.includes(set.text));
}

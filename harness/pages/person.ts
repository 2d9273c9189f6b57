/**
 * The person who fills in the agency's forms, and how: a name of the journey's country, an e-mail
 * address made of it, a mobile number of the country and a birth date of an adult. Drawn from the
 * run's id, so each run is someone else (nothing the harness types is a constant an agency could
 * know it by) while every journey of one country in a run is the same person. The addresses are at
 * the domains reserved for examples (RFC 2606), so no mail can reach anyone.
 */
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { type FieldKind, fieldsToFill } from '../browser/fields.js';
import { outside } from '../browser/outside.js';
import { type Vocabulary, patternOf } from '../vocabulary.js';

export interface Person {
  given: string;
  family: string;
  email: string;
  /** A mobile number in international form. */
  tel: string;
  /** YYYY-MM-DD, of someone between 25 and 55 years old. */
  birth: string;
}

const NAMES: Record<string, { given: string[]; family: string[]; mobile: string }> = {
  DE: { given: ['Lena', 'Jonas', 'Mia', 'Lukas', 'Hannah', 'Felix'], family: ['Müller', 'Schmidt', 'Wagner', 'Becker', 'Hoffmann', 'Schulz'], mobile: '+49 15' },
  AT: { given: ['Anna', 'Tobias', 'Laura', 'Florian', 'Katharina', 'Stefan'], family: ['Gruber', 'Huber', 'Bauer', 'Pichler', 'Moser', 'Steiner'], mobile: '+43 66' },
  CH: { given: ['Lea', 'Noah', 'Sara', 'Luca', 'Nina', 'Jan'], family: ['Meier', 'Keller', 'Brunner', 'Baumann', 'Frei', 'Graf'], mobile: '+41 7' },
  NL: { given: ['Emma', 'Daan', 'Sanne', 'Bram', 'Lotte', 'Sem'], family: ['de Jong', 'Jansen', 'Visser', 'Bakker', 'Smit', 'Mulder'], mobile: '+31 6' },
  BE: { given: ['Louise', 'Arthur', 'Elise', 'Vincent', 'Marie', 'Lars'], family: ['Peeters', 'Janssens', 'Maes', 'Claes', 'Dubois', 'Wouters'], mobile: '+32 47' },
  PL: { given: ['Zofia', 'Jakub', 'Maja', 'Kacper', 'Julia', 'Antoni'], family: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kamiński', 'Lewandowski'], mobile: '+48 5' },
  FR: { given: ['Camille', 'Louis', 'Chloé', 'Hugo', 'Manon', 'Jules'], family: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Petit'], mobile: '+33 6' },
  ES: { given: ['Lucía', 'Hugo', 'Martina', 'Pablo', 'Carmen', 'Javier'], family: ['García', 'López', 'Martínez', 'Sánchez', 'Romero', 'Navarro'], mobile: '+34 6' },
  IT: { given: ['Giulia', 'Marco', 'Chiara', 'Matteo', 'Sofia', 'Luca'], family: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano'], mobile: '+39 3' },
  GB: { given: ['Olivia', 'Jack', 'Amelia', 'Harry', 'Isla', 'George'], family: ['Smith', 'Jones', 'Taylor', 'Brown', 'Evans', 'Walker'], mobile: '+44 7' },
};
/** Elsewhere: names heard across Europe, and a number of the journey's own country when it is one above. */
const ELSEWHERE = { given: ['Anna', 'David', 'Sara', 'Daniel', 'Eva', 'Adam'], family: ['Novak', 'Berg', 'Nielsen', 'Horvat', 'Costa', 'Lindqvist'], mobile: '+45 2' };

const DOMAINS = ['example.com', 'example.net', 'example.org'];

/** The run's person for a country (ISO 3166-1 alpha-2). */
export function personOf(runId: string, country: string): Person {
  const bytes = createHash('sha256').update(`${runId}\n${country}`).digest();
  let at = 0;
  const pick = <T>(items: T[]): T => items[bytes[at++]! % items.length]!;
  const digits = (count: number) => Array.from({ length: count }, () => String(bytes[at++]! % 10)).join('');
  const names = NAMES[country.toUpperCase()] ?? ELSEWHERE;
  const [given, family] = [pick(names.given), pick(names.family)];
  const plain = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').replace(/ł/g, 'l').replace(/[^a-z]/gi, '').toLowerCase();
  const email = `${plain(given)}.${plain(family)}${digits(2)}@${pick(DOMAINS)}`;
  const tel = `${names.mobile}${digits(10 - names.mobile.length + 4)}`;
  const year = new Date().getUTCFullYear() - 25 - (bytes[at++]! % 30);
  const birth = `${year}-${String(1 + (bytes[at++]! % 12)).padStart(2, '0')}-${String(1 + (bytes[at++]! % 28)).padStart(2, '0')}`;
  return { given, family, email, tel, birth };
}

/**
 * Fills every field of the form at `root` (elementPath) a person would fill, besides its boxes, as
 * `person` would: what each asks for by its type or its label, in any language of the vocabulary
 * (browser/in-page.ts fieldsToFill). Returns how many it filled.
 */
export async function fillAsPerson(page: Page, root: string, person: Person, vocabulary: Vocabulary): Promise<number> {
  const values: Record<Exclude<FieldKind, 'select'>, string> = {
    email: person.email, tel: person.tel, date: person.birth, datetime: `${person.birth}T18:30`, month: person.birth.slice(0, 7), number: '2', url: `https://www.${person.email.split('@')[1]}/`,
    name: `${person.given} ${person.family}`, given: person.given, family: person.family, text: `${person.given} ${person.family}`,
  };
  const source = (words: string[]) => patternOf(words).source;
  const { email, phone, given_name: given, family_name: family, name } = vocabulary;
  const fields = await outside(page, fieldsToFill, { root, words: { email: source(email), phone: source(phone), given: source(given), family: source(family), name: source(name) } });
  for (const { path, kind, option } of fields) {
    const field = page.locator(path);
    await (kind === 'select' ? field.selectOption(option!) : field.fill(values[kind])).catch(() => undefined);
  }
  return fields.length;
}

/**
 * The words the harness reads an agency's pages by, where structure and behaviour leave a question
 * open (harness/README.md, "An agency that has never seen our markers"): one place, in the
 * languages of the service's markets; `vocabulary` in harness.config.json adds more. Each built-in
 * entry is a regular expression matched case-insensitively at the start of a word, so "accept" also
 * matches "accepted"; `(?!\p{L})` ends a whole word. The config's words are literal words, matched
 * the same way: an agency's config is no regular expression the harness runs, so matching a page's
 * text stays linear in its length, whatever the config says.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'sv', 'da', 'cs'] as const;

export const CATEGORIES = ['terms', 'accept', 'age', 'marketing', 'try_again', 'submit', 'email', 'phone', 'given_name', 'family_name', 'name'] as const;
export type Category = (typeof CATEGORIES)[number];

export type Vocabulary = Record<Category, string[]>;

type Words = Record<(typeof LANGUAGES)[number], string[]>;

/**
 * - terms: what names the terms themselves (a box that names them accepts them);
 * - accept: the verb of acceptance, a weaker sign: it also begins a marketing opt-in («J'accepte de recevoir…»);
 * - age: a minimum age to confirm, beside the number the terms set;
 * - marketing: what an optional marketing opt-in offers; a terms box that also names these bundles the two;
 * - try_again: the way back to the entry after a 429; submit: the button that sends the consent form;
 * - email, phone, given_name, family_name, name: what a field of the consent form asks for, by its label.
 */
const WORDS: Record<Category, Words> = {
  terms: {
    en: ['terms', 'conditions', 'rules(?!\\p{L})', 'T&Cs?'],
    de: ['bedingungen', 'teilnahmebedingungen', 'nutzungsbedingungen', 'agb(?!\\p{L})'],
    fr: ['conditions', 'règlement', 'cgu(?!\\p{L})', 'cgv(?!\\p{L})', 'modalités'],
    es: ['condiciones', 'términos', 'bases(?!\\p{L})', 'bases legales'],
    it: ['termini', 'condizioni', 'regolamento'],
    nl: ['voorwaarden', 'actievoorwaarden', 'algemene voorwaarden', 'reglement'],
    pl: ['regulamin', 'warunki'],
    pt: ['termos', 'condições', 'regulamento'],
    sv: ['villkor', 'tävlingsvillkor', 'regler(?!\\p{L})'],
    da: ['betingelser', 'vilkår', 'konkurrencebetingelser', 'regler(?!\\p{L})'],
    cs: ['podmínk', 'pravidl'],
  },
  accept: {
    en: ['accept', 'agree'],
    de: ['akzeptier', 'einverstanden', 'stimme'],
    fr: ['accepte', "j['’]accepte", 'acceptez'],
    es: ['acepto', 'acepta'],
    it: ['accetto', 'accetta'],
    nl: ['ga akkoord', 'akkoord', 'accepteer'],
    pl: ['akceptuj', 'zgadzam się'],
    pt: ['aceito', 'concordo'],
    sv: ['godkänner', 'accepterar'],
    da: ['accepterer', 'godkender'],
    cs: ['souhlasím', 'přijímám'],
  },
  age: {
    en: ['years old', 'years of age', 'age(?!\\p{L})', 'old enough', 'of legal age'],
    de: ['jahre alt', 'jahre(?!\\p{L})', 'volljährig', 'mindestalter'],
    fr: ['ans(?!\\p{L})', 'âge', 'majeur'],
    es: ['años', 'edad', 'mayor de edad'],
    it: ['anni(?!\\p{L})', 'età', 'maggiorenne'],
    nl: ['jaar(?!\\p{L})', 'leeftijd', 'meerderjarig'],
    pl: ['lat(?!\\p{L})', 'wiek', 'pełnoletn'],
    pt: ['anos(?!\\p{L})', 'idade', 'maior de idade'],
    sv: ['år(?!\\p{L})', 'ålder', 'myndig'],
    da: ['år(?!\\p{L})', 'alder', 'myndig'],
    cs: ['let(?!\\p{L})', 'věk', 'plnolet'],
  },
  marketing: {
    en: ['news', 'offers', 'marketing', 'promotional', 'advertis', 'special deals'],
    de: ['newsletter', 'angebot', 'werbung', 'neuigkeit', 'werbliche'],
    fr: ['offre', 'newsletter', 'actualités', 'publicit', 'lettre d[’\']information', 'bons plans', 'prospection'],
    es: ['ofertas', 'boletín', 'novedades', 'publicidad', 'comunicaciones comerciales'],
    it: ['offert', 'newsletter', 'novità', 'pubblicit', 'comunicazioni commerciali'],
    nl: ['aanbieding', 'nieuwsbrief', 'nieuws', 'reclame'],
    pl: ['ofert', 'newsletter', 'nowości', 'reklam', 'informacji handlowych', 'marketing'],
    pt: ['ofertas', 'newsletter', 'novidades', 'publicidade', 'comunicações comerciais'],
    sv: ['erbjudande', 'nyhetsbrev', 'nyheter', 'reklam', 'marknadsföring'],
    da: ['tilbud', 'nyhedsbrev', 'nyheder', 'reklame', 'markedsføring'],
    cs: ['nabídk', 'newsletter', 'novink', 'obchodní sdělení', 'reklam'],
  },
  try_again: {
    en: ['try again', 'retry', 'again', 'back to (?:the |your )?(?:entry|form)', 'send again'],
    de: ['erneut', 'nochmal', 'noch einmal', 'wiederholen', 'zurück zu[rm] (?:teilnahme|formular|eingabe)'],
    fr: ['réessaye', 'recommencer', 'renvoyer', 'retour à (?:la |ma |votre )?(?:participation|formulaire)', 'à nouveau'],
    es: ['reintentar', 'volver a intentar', 'inténtalo de nuevo', 'vuelve a intentarlo', 'de nuevo'],
    it: ['riprova', 'di nuovo', 'torna alla partecipazione'],
    nl: ['opnieuw', 'probeer het nog eens', 'terug naar (?:je |uw )?(?:deelname|formulier)'],
    pl: ['spróbuj ponownie', 'ponów', 'ponownie', 'wróć do (?:zgłoszenia|formularza)'],
    pt: ['tentar novamente', 'tente novamente', 'de novo', 'voltar à participação'],
    sv: ['försök igen', 'igen(?!\\p{L})', 'tillbaka till (?:ditt )?(?:deltagande|formuläret)'],
    da: ['prøv igen', 'igen(?!\\p{L})', 'tilbage til (?:din )?(?:deltagelse|formularen)'],
    cs: ['zkusit znovu', 'zkuste to znovu', 'znovu', 'zpět k (?:účasti|formuláři)'],
  },
  submit: {
    en: ['enter(?!\\p{L})', 'submit', 'send', 'take part', 'participate', 'continue', 'play'],
    de: ['teilnehmen', 'absenden', 'mitmachen', 'senden', 'weiter'],
    fr: ['participer', 'valider', 'envoyer', 'jouer', 'continuer'],
    es: ['participar', 'enviar', 'jugar', 'continuar'],
    it: ['partecipa', 'invia', 'gioca', 'continua'],
    nl: ['meedoen', 'doe mee', 'versturen', 'verzenden', 'verstuur', 'spelen', 'doorgaan'],
    pl: ['weź udział', 'wyślij', 'zagraj', 'dalej'],
    pt: ['participar', 'enviar', 'jogar', 'continuar'],
    sv: ['delta', 'skicka', 'spela', 'fortsätt'],
    da: ['deltag', 'send', 'spil', 'fortsæt'],
    cs: ['zúčastnit', 'odeslat', 'hrát', 'pokračovat'],
  },
  email: {
    en: ['e-?mail', 'email address'], de: ['e-?mail', 'mail-?adresse'], fr: ['courriel', 'e-?mail', 'adresse (?:e-?)?mail'], es: ['correo', 'e-?mail'], it: ['e-?mail', 'posta elettronica'],
    nl: ['e-?mail'], pl: ['e-?mail', 'adres e-?mail', 'poczta'], pt: ['e-?mail', 'correio eletrónico', 'correio eletrônico'], sv: ['e-?post', 'mejl'], da: ['e-?mail', 'e-?post'], cs: ['e-?mail'],
  },
  phone: {
    en: ['phone', 'mobile', 'telephone', 'cell'], de: ['telefon', 'handy', 'mobil'], fr: ['téléphone', 'portable', 'mobile'], es: ['teléfono', 'móvil', 'celular'], it: ['telefono', 'cellulare'],
    nl: ['telefoon', 'mobiel', 'gsm'], pl: ['telefon', 'komórk'], pt: ['telefone', 'telemóvel', 'celular'], sv: ['telefon', 'mobil'], da: ['telefon', 'mobil'], cs: ['telefon', 'mobil'],
  },
  given_name: {
    en: ['first name', 'given name', 'forename'], de: ['vorname'], fr: ['prénom'], es: ['nombre(?!\\s+(?:y|completo))'], it: ['nome(?!\\s+(?:e|completo))'],
    nl: ['voornaam'], pl: ['imię(?!\\s+i)'], pt: ['primeiro nome', 'nome próprio'], sv: ['förnamn'], da: ['fornavn'], cs: ['jméno(?!\\s+a)', 'křestní'],
  },
  family_name: {
    en: ['last name', 'surname', 'family name'], de: ['nachname', 'familienname'], fr: ['nom de famille', 'nom(?!\\p{L})(?!\\s+(?:et|complet))'], es: ['apellido'], it: ['cognome'],
    nl: ['achternaam'], pl: ['nazwisko'], pt: ['apelido', 'sobrenome', 'último nome'], sv: ['efternamn'], da: ['efternavn'], cs: ['příjmení'],
  },
  name: {
    en: ['name', 'full name'], de: ['name'], fr: ['nom'], es: ['nombre'], it: ['nome'], nl: ['naam'], pl: ['imię i nazwisko'], pt: ['nome'], sv: ['namn'], da: ['navn'], cs: ['jméno'],
  },
};

/** Every language's words of each category, with the config's own added. */
export function vocabularyOf(extra: Partial<Vocabulary> = {}): Vocabulary {
  return Object.fromEntries(CATEGORIES.map((category) => [category, [...Object.values(WORDS[category]).flat(), ...(extra[category] ?? []).map(literal)]])) as Vocabulary;
}

/** A config word as the pattern that matches it literally. */
function literal(word: string): string {
  return word.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** One category as a pattern: any of its words at the start of a word. Case-insensitive, Unicode. */
export function patternOf(words: string[]): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})`, 'iu');
}

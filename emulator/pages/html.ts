/**
 * HTML with escaping by construction: every value interpolated into `html` is escaped unless it
 * is itself `Html`. Pages never concatenate strings into markup.
 */
const MARKUP = Symbol('html');

export interface Html {
  readonly [MARKUP]: string;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'object' && MARKUP in value) return (value as Html)[MARKUP];
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return { [MARKUP]: strings.reduce((out, text, i) => out + text + (i < values.length ? render(values[i]) : ''), '') };
}

/** Markup written in this codebase (a stylesheet, a script): never pass data to it. */
export function trusted(markup: string): Html {
  return { [MARKUP]: markup };
}

export function toString(page: Html): string {
  return page[MARKUP];
}

/** Only http(s) URLs become links; anything else (javascript:, data:) is shown as text. @see spec §2.4 */
export function safeLink(url: string, label: string): Html {
  let safe = false;
  try {
    safe = ['https:', 'http:'].includes(new URL(url).protocol);
  } catch {
    safe = false;
  }
  return safe ? html`<a href="${url}">${label}</a>` : html`<span>${label} (${url})</span>`;
}

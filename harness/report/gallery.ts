/**
 * The screenshots of report.html: one mobile and desktop pair per state the agency showed, each
 * labelled for a person ("Won, production, mobile") and opening full size without script: a
 * thumbnail links to its own figure, which CSS `:target` shows over the page at natural size.
 */
import { readFileSync } from 'node:fs';
import type { CheckReport } from '../checks/evaluate.js';
import { PAGES, STATES } from '../journey-states.js';
import { escapeHtml } from './escape.js';

const SIZES = ['mobile', 'desktop'] as const;
type Size = (typeof SIZES)[number];

/** What review.screenshots' evidence carries besides its path (harness/checks/advisory.ts). */
interface Shot {
  state: string;
  size: Size;
  path: string;
}

const words = (name: string) => name.replaceAll('_', ' ');
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A state key as a person reads it: `production:result-won` is "Won, production",
 * `sandbox:consent` "Consent page, sandbox", an unrecognised page its title.
 */
export function stateLabel(key: string): string {
  const colon = key.indexOf(':');
  const environment = key.slice(0, colon);
  const parts = key.slice(colon + 1).split('-');
  const state = parts.find((part) => (STATES as readonly string[]).includes(part));
  const known = parts.every((part) => (PAGES as readonly string[]).includes(part) || (STATES as readonly string[]).includes(part));
  const shown = !known ? parts.join(' ') : state ? words(state) : `${parts[0]} page`;
  return `${capital(shown)}, ${environment}`;
}

export function screenshotsOf(checks: readonly CheckReport[]): Shot[] {
  return (checks.find((check) => check.id === 'review.screenshots')?.evidence ?? []).flatMap((item) => {
    const data = item.data as { state?: string; size?: Size } | undefined;
    return item.path?.endsWith('.png') && data?.state && data.size ? [{ state: data.state, size: data.size, path: item.path }] : [];
  });
}

export function galleryHtml(shots: readonly Shot[]): string {
  if (shots.length === 0) return '<p>No screenshots in this run.</p>';
  const states = [...new Set(shots.map((shot) => shot.state))];
  let index = 0;
  return states
    .map((state) => {
      const label = stateLabel(state);
      const figures = SIZES.flatMap((size) => shots.filter((shot) => shot.state === state && shot.size === size)).map((shot) => {
        const id = `shot-${(index += 1)}`;
        const caption = escapeHtml(`${label}, ${shot.size}`);
        return `<figure id="${id}" class="${shot.size}"><a class="open" href="#${id}" title="Open full size"><img alt="${caption}" src="${dataUrl(shot.path)}"></a><figcaption>${caption}</figcaption><a class="close" href="#screenshots">Close</a></figure>`;
      });
      return `<div class="pair"><h3>${escapeHtml(label)}</h3>${figures.join('')}</div>`;
    })
    .join('');
}

export const GALLERY_CSS = `.gallery{display:flex;flex-wrap:wrap;gap:1.5rem}.pair{border:1px solid #ddd;padding:.6rem;border-radius:6px}.pair h3{margin:0 0 .4rem;font-size:1rem}
.pair figure{display:inline-block;vertical-align:top;margin:0 .6rem 0 0}.pair figure.mobile{width:8rem}.pair figure.desktop{width:18rem}.pair img{width:100%;border:1px solid #ccc}figcaption{font-size:.85rem}
figure .close{display:none}figure:target{position:fixed;inset:0;z-index:10;width:auto!important;margin:0;padding:1rem;overflow:auto;background:rgba(20,20,20,.92);color:#fff}
figure:target img{width:auto;max-width:none}figure:target .close{display:inline-block;position:fixed;top:.5rem;right:1rem;background:#fff;padding:.3rem .8rem;border-radius:4px}`;

function dataUrl(path: string): string {
  try {
    return `data:image/png;base64,${readFileSync(path).toString('base64')}`;
  } catch {
    return '';
  }
}

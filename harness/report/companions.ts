/**
 * The pages report.html links to, written beside it so that a report sent on stands alone and every
 * link in it opens in a browser: `rules.html` (docs/rules.md as a page, each rule an anchor) and
 * `reference/*.html` (the reference agency's file a failure names, "done right in", as readable
 * source). Where this package holds neither (the container image, the single executable) the report
 * names them without a link. The Markdown of docs/rules.md is read by the few rules it uses
 * (headings, paragraphs, lists, tables, code, bold, links, its anchors); a link to anything not in
 * the report folder is shown as its text.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import { escapeHtml as html } from './escape.js';

export const RULES_PAGE = 'rules.html';
export const REFERENCE_FOLDER = 'reference';

const PAGE_CSS = 'body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:80rem;padding:1rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem;vertical-align:top}code{word-break:break-word}pre{background:#f7f7f7;padding:1rem;overflow:auto}:target{background:#fff3c4}';

const pageOf = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(title)}</title><style>${PAGE_CSS}</style></head><body>\n${body}\n<p><a href="${'{{back}}'}">Back to the report</a></p></body></html>\n`;

/** Writes rules.html; the link to a rule, or undefined where the package has no docs/rules.md. */
export function writeRulesPage(outDir: string): ((rule: string) => string) | undefined {
  const file = join(packageRoot(), 'docs', 'rules.md');
  if (!existsSync(file)) return undefined;
  const markdown = readFileSync(file, 'utf8');
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? 'The rules';
  writeFileSync(join(outDir, RULES_PAGE), pageOf(title, markdownToHtml(markdown)).replace('{{back}}', 'report.html'));
  return (rule) => `${RULES_PAGE}#${rule}`;
}

/** Writes the reference agency's file as a page; its link, or undefined where the package does not hold it. */
export function writeReferencePage(outDir: string, path: string): string | undefined {
  const file = join(packageRoot(), path);
  if (!existsSync(file)) return undefined;
  const name = `${path.replace(/^fixtures\/agency-reference\//, '').replaceAll('/', '-')}.html`;
  mkdirSync(join(outDir, REFERENCE_FOLDER), { recursive: true });
  const body = `<h1>${html(path)}</h1><p>The reference agency's code that does this right, copied from the harness's package.</p><pre><code>${html(readFileSync(file, 'utf8'))}</code></pre>`;
  writeFileSync(join(outDir, REFERENCE_FOLDER, name), pageOf(path, body).replace('{{back}}', '../report.html'));
  return `${REFERENCE_FOLDER}/${name}`;
}

/** The Markdown docs/rules.md is written in, as HTML. */
export function markdownToHtml(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; ) {
    const line = lines[index]!;
    const heading = /^(#{1,6}) (.+)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`);
      index += 1;
    } else if (line.startsWith('|')) {
      const rows: string[] = [];
      for (; index < lines.length && lines[index]!.startsWith('|'); index += 1) rows.push(lines[index]!);
      out.push(table(rows));
    } else if (/^- /.test(line)) {
      const items: string[] = [];
      for (; index < lines.length && /^(- | {2}\S)/.test(lines[index]!); index += 1) {
        if (lines[index]!.startsWith('- ')) items.push(lines[index]!.slice(2));
        else items[items.length - 1] += ` ${lines[index]!.trim()}`;
      }
      out.push(`<ul>${items.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`);
    } else if (line.trim() === '') {
      index += 1;
    } else {
      const paragraph: string[] = [];
      for (; index < lines.length && lines[index]!.trim() !== '' && !/^(#|\||- )/.test(lines[index]!); index += 1) paragraph.push(lines[index]!);
      out.push(`<p>${inline(paragraph.join(' '))}</p>`);
    }
  }
  return out.join('\n');
}

function table(rows: string[]): string {
  const cells = (row: string) => row.replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
  const [head, , ...body] = rows;
  return `<table><thead><tr>${cells(head!).map((cell) => `<th>${inline(cell)}</th>`).join('')}</tr></thead><tbody>${body.map((row) => `<tr>${cells(row).map((cell) => `<td>${inline(cell)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

/** Code, bold, links (shown as text: none of docs/rules.md's targets is in the report folder), and a rule's anchor `<a id="…"></a>`. */
function inline(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return `<code>${html(part.slice(1, -1))}</code>`;
      return html(part)
        .replace(/&lt;a id=&quot;([\w-]+)&quot;&gt;&lt;\/a&gt;/g, '<a id="$1"></a>')
        .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
        .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
    })
    .join('');
}

/** The fenced code blocks of a Markdown file, with the `<!-- not run: reason -->` marker that may precede one. */

const SKIP = /^<!--\s*not run:\s*(.+?)\s*-->$/;

export interface Block {
  file: string;
  line: number;
  /** The fence's language: sh, bash, shell, ts, js, ... */
  lang: string;
  text: string;
  /** Why it is not run, from its marker; undefined when it runs. */
  skipped?: string;
}

/** The blocks fenced in one of `languages`, also indented ones (in a list). */
export function codeBlocks(file: string, markdown: string, languages: readonly string[]): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)```(\w+)\s*$/.exec(lines[index]!);
    if (!open || !languages.includes(open[2]!)) continue;
    const indent = open[1]!.length;
    const start = index;
    const body: string[] = [];
    while (++index < lines.length && lines[index]!.trim() !== '```') body.push(lines[index]!.slice(indent));
    let previous = start - 1;
    while (previous >= 0 && lines[previous]!.trim() === '') previous--;
    const skipped = previous >= 0 ? SKIP.exec(lines[previous]!.trim())?.[1] : undefined;
    blocks.push({ file, line: start + 1, lang: open[2]!, text: body.join('\n'), ...(skipped ? { skipped } : {}) });
  }
  return blocks;
}

export const SHELL = ['sh', 'bash', 'shell'] as const;

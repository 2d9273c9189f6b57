/** How `emulator clock` is used: its help's examples, also printed when a value cannot be read. */
import { CLI } from './paths.js';

const FORMS: Array<[command: string, ...what: string[]]> = [
  ['clock', 'show the clock'],
  ['clock advance 31m', 'move it forward (units ms, s, m, h, d; 1h30m works)'],
  ['clock freeze', 'stop it at the current time'],
  ['clock freeze 2026-12-24T18:00:00Z', 'stop it at an ISO time, with Z or an offset (+01:00)'],
  ['clock unfreeze', 'let it run again from where it stands'],
  ['clock reset', 'back to system time (no offset, not frozen); also repairs', 'a stopped data folder whose saved clock is out of range'],
];

const width = Math.max(...FORMS.map(([command]) => `${CLI} ${command}`.length)) + 3;

export const CLOCK_USAGE = FORMS.flatMap(([command, ...what]) => what.map((line, index) => `  ${(index ? '' : `${CLI} ${command}`).padEnd(width)}${line}`)).join('\n');

export const CLOCK_HELP = `
Examples:
${CLOCK_USAGE}

\`${CLI} reset\` seeds the world again but leaves the clock where it stands (offset or frozen);
\`${CLI} clock reset\` is what puts it back on system time.`;

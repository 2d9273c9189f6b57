/**
 * `harness doctor` from outside: dist/harness/cli.js spawned against the reference agency and an
 * emulator running in this process; what preflight refuses before registering anything, and what it
 * lets through with a note. Ports and temporary paths stripped before comparing.
 */
import { createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { harness, normalize } from './cli-support.js';
import { useHarnessWorld } from './world.js';

describe('against the reference agency', () => {
  const started = useHarnessWorld({ approved: true });

  test('doctor checks what a run needs and exits 0; an agency that does not answer, or no --callback once the rest is checked, is exit 2', async () => {
    const world = started();
    const run = await harness(['doctor', '--callback', world.target.callback, '--preview', world.target.preview, '--emulator', world.target.emulator]);
    expect(run.code).toBe(0);
    expect(normalize(run.stdout, world)).toMatch(
      /^\[harness\] ok {2}emulator at <emulator> \(ok\)\n\[harness\] ok {2}the emulator lets the harness inject faults and read its observed calls\n\[harness\] ok {2}promotion 1 spring-instant-win \(instant_win, live, the default\): the one the callback URL is registered on\n\[harness\] ok {2}agency callback <agency>\/callback\n\[harness\] ok {2}agency preview <agency>\/preview\n\[harness\] ok {2}Chromium \/\S+\n\[harness\] note: the callback URL uses plain http on 127\.0\.0\.1: .*\n.*\n\[harness\] ready: `harness verify` can run\n$/,
    );
    const down = await harness(['doctor', '--callback', 'http://127.0.0.1:9/callback', '--emulator', world.target.emulator]);
    expect([down.code, down.stderr]).toEqual([2, "[harness] the agency's callback URL http://127.0.0.1:9/callback is not reachable (bad port): start the agency, or check --callback\n"]);
    // Without --callback (issue 49 item 7) it checks the rest first, then says what is missing: exit 2.
    const noCallback = await harness(['doctor', '--emulator', world.target.emulator]);
    expect([noCallback.code, noCallback.stderr]).toEqual([2, '[harness] no callback URL: pass --callback URL (the production callback URL of the agency); everything else above is ready\n']);
    expect(normalize(noCallback.stdout, world)).toMatch(/^\[harness\] ok {2}emulator at <emulator> \(ok\)\n.*\n\[harness\] ok {2}promotion 1 spring-instant-win \(instant_win, live, the default\): the default: no callback URL to find it by\n\[harness\] ok {2}Chromium \/\S+\n/);
  });

  test('doctor and verify refuse, in one line and before registering anything, a callback or preview that cannot be the agency (issue 26 item 2): the emulator, a 404, no HTTP', async () => {
    const world = started();
    const pages = createServer((req, res) => {
      if (req.url === '/missing') return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Hello</h1>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const other = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    const notHttp = createNetServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    await new Promise<void>((resolve) => notHttp.listen(0, '127.0.0.1', resolve));
    const ssh = `http://127.0.0.1:${(notHttp.address() as AddressInfo).port}/callback`;
    const emulatorCallback = `${world.target.emulator}/callback`;
    const registered = () => world.emulator.world.db.prepare('SELECT production_callback, preview_callback, approved_at FROM promotions WHERE id = 1').get();
    const before = registered();
    try {
      const cases: Array<[string[], string]> = [
        [['--callback', emulatorCallback], `the agency's callback URL ${emulatorCallback} is the emulator itself (${world.target.emulator}), not the agency: check --callback`],
        [['--callback', emulatorCallback.replace('127.0.0.1', 'localhost')], `the agency's callback URL ${emulatorCallback.replace('127.0.0.1', 'localhost')} is the emulator itself (${world.target.emulator}), not the agency: check --callback`],
        [['--callback', `${other}/missing`], `the agency's callback URL ${other}/missing answers 404 (no page there): check --callback`],
        [['--callback', ssh], expect.stringMatching(new RegExp(`^the agency's callback URL ${ssh} does not answer HTTP \\(HPE_\\w+\\): check --callback$`)) as unknown as string],
        // A 404 is refused when nothing else of the agency answers: not the preview either.
        [['--callback', `${other}/missing`, '--preview', `${other}/missing`], `the agency's callback URL ${other}/missing answers 404 (no page there): check --callback`],
      ];
      for (const [args, line] of cases) {
        const doctor = await harness(['doctor', ...args, '--emulator', world.target.emulator]);
        expect([doctor.code, doctor.stdout.includes('ready'), doctor.stderr.replace(/^\[harness\] (.*)\n$/, '$1')]).toEqual([2, false, line]);
      }
      const run = await harness(['verify', '--callback', emulatorCallback, '--preview', emulatorCallback, '--emulator', world.target.emulator, '--out', join(world.folder, 'refused')]);
      expect([run.code, run.stderr]).toEqual([2, `[harness] ${cases[0]![1]}\n`]);
      expect(registered()).toEqual(before);
    } finally {
      pages.closeAllConnections();
      await new Promise((resolve) => pages.close(resolve));
      await new Promise((resolve) => notHttp.close(resolve));
    }
  }, 120_000);

  test('preflight lets through an agency answering, however badly (issue 42 item 4, issue 47 item 5): a callback that answers 400 in plain text, or fails, without its parameters, a 404 at one URL while the other answers, headers past the harness\'s own HTTP client, are noted, and the checks judge them', async () => {
    const world = started();
    const pages = createServer((req, res) => {
      if (req.url === '/plain') return res.writeHead(400, { 'content-type': 'text/plain' }).end('missing service_request');
      if (req.url === '/missing') return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      if (req.url === '/big') return res.writeHead(200, { 'content-type': 'text/html', 'x-padding': 'a'.repeat(200_000) }).end('<h1>campaign</h1>');
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const other = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    try {
      for (const [path, answer] of [['/plain', '400 with text/plain'], ['/broken', '502 with text/html']]) {
        const doctor = await harness(['doctor', '--callback', `${other}${path}`, '--emulator', world.target.emulator]);
        expect([doctor.code, doctor.stderr]).toEqual([0, '']);
        expect(doctor.stdout).toContain(`[harness] note: the callback URL ${other}${path}, opened without parameters, answered ${answer}: the journeys judge it\n`);
      }
      const notes: Array<[string[], string]> = [
        [['--callback', `${other}/missing`, '--preview', `${other}/plain`], `the callback URL ${other}/missing answers 404 (no page there) while the preview URL answers: the journeys judge it`],
        [['--callback', `${other}/plain`, '--preview', `${other}/missing`], `the preview URL ${other}/missing answers 404 (no page there) while the callback URL answers: the journeys judge it`],
        [['--callback', `${other}/big`], `the callback URL ${other}/big answered with headers larger than the harness's own HTTP client reads (UND_ERR_HEADERS_OVERFLOW): the journeys, in the browser, judge it`],
      ];
      for (const [args, note] of notes) {
        const doctor = await harness(['doctor', ...args, '--emulator', world.target.emulator]);
        expect([doctor.code, doctor.stderr]).toEqual([0, '']);
        expect(doctor.stdout).toContain(`[harness] note: ${note}\n`);
      }
    } finally {
      await new Promise((resolve) => pages.close(resolve));
    }
  }, 60_000);
});

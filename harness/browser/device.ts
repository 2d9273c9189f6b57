/**
 * The browser every page sees: one ordinary phone, whatever Chromium runs it. A Pixel 7 (its
 * screen, pixel ratio, eight cores and 8 GB) with Chrome of the engine's own version, in the
 * language and time zone of the journey's country; its user agent reduced as Chrome's is, its
 * client hints naming Google Chrome, `window.chrome` present, a phone's GPU, and notifications not
 * yet asked for, as the permissions API says. What a headless Chromium still shows of itself (the
 * machine's fonts, its software renderer's drawing, `Function.prototype.toString` of what is set
 * here) is listed in harness/README.md.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';

/** The phone's screen and window, in CSS pixels. */
export const MOBILE = { viewport: { width: 412, height: 839 }, screen: { width: 412, height: 915 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true };
export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };

/** Language and time zone by country (ISO 3166 alpha-2); another country reads as English in Central Europe. */
const PLACES: Record<string, [locale: string, timezone: string]> = {
  DE: ['de-DE', 'Europe/Berlin'], AT: ['de-AT', 'Europe/Vienna'], CH: ['de-CH', 'Europe/Zurich'], LI: ['de-LI', 'Europe/Vaduz'], LU: ['fr-LU', 'Europe/Luxembourg'],
  NL: ['nl-NL', 'Europe/Amsterdam'], BE: ['nl-BE', 'Europe/Brussels'], FR: ['fr-FR', 'Europe/Paris'], ES: ['es-ES', 'Europe/Madrid'], PT: ['pt-PT', 'Europe/Lisbon'],
  IT: ['it-IT', 'Europe/Rome'], PL: ['pl-PL', 'Europe/Warsaw'], CZ: ['cs-CZ', 'Europe/Prague'], SK: ['sk-SK', 'Europe/Bratislava'], HU: ['hu-HU', 'Europe/Budapest'],
  SI: ['sl-SI', 'Europe/Ljubljana'], HR: ['hr-HR', 'Europe/Zagreb'], RO: ['ro-RO', 'Europe/Bucharest'], BG: ['bg-BG', 'Europe/Sofia'], GR: ['el-GR', 'Europe/Athens'],
  DK: ['da-DK', 'Europe/Copenhagen'], SE: ['sv-SE', 'Europe/Stockholm'], NO: ['nb-NO', 'Europe/Oslo'], FI: ['fi-FI', 'Europe/Helsinki'], IE: ['en-IE', 'Europe/Dublin'],
  GB: ['en-GB', 'Europe/London'], EE: ['et-EE', 'Europe/Tallinn'], LV: ['lv-LV', 'Europe/Riga'], LT: ['lt-LT', 'Europe/Vilnius'],
};
const ELSEWHERE: [string, string] = ['en-GB', 'Europe/Berlin'];

/** The journey's place: its locale, the languages the phone asks for (its own first, then English), and its time zone. */
export function placeOf(country: string | undefined): { locale: string; languages: string; timezone: string } {
  const [locale, timezone] = PLACES[(country ?? '').toUpperCase()] ?? ELSEWHERE;
  const language = locale.split('-')[0]!;
  // Chromium adds the weights (`;q=0.9`...) to the header itself.
  const languages = language === 'en' ? `${locale},en` : `${locale},${language},en-GB,en`;
  return { locale, languages, timezone };
}

/** The context's options for the phone in the journey's country. */
export function phoneContext(version: string, country: string | undefined): BrowserContextOptions {
  const { locale, timezone } = placeOf(country);
  return { ...MOBILE, userAgent: phoneOf(version, country).userAgent, locale, timezoneId: timezone };
}

/** Chrome of the engine's version on the phone: its reduced user agent, and the client hints (`Sec-CH-UA`, `navigator.userAgentData`) that tell the rest. */
export function phoneOf(version: string, country?: string) {
  const major = version.split('.')[0] ?? '0';
  const userAgent = `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`;
  const brands = [{ brand: 'Google Chrome', version: major }, { brand: 'Chromium', version: major }, { brand: 'Not_A Brand', version: '24' }];
  return {
    userAgent,
    override: {
      userAgent, platform: 'Linux armv8l', acceptLanguage: placeOf(country).languages,
      userAgentMetadata: {
        brands, fullVersionList: brands.map((brand) => ({ ...brand, version: brand.brand === 'Not_A Brand' ? '24.0.0.0' : version })), fullVersion: version,
        platform: 'Android', platformVersion: '14.0.0', architecture: '', model: 'Pixel 7', mobile: true, bitness: '', wow64: false, formFactors: ['Mobile'],
      },
    },
  };
}

/**
 * What a page reads of the device beside the user agent, set before its scripts run: the memory,
 * `window.chrome`, the GPU WebGL names (a software renderer's otherwise), notifications not yet
 * asked for. Runs in the page; kept to what a phone's Chrome shows.
 */
export function ordinaryDevice(): void {
  const define = (target: object, name: string, value: unknown) => Object.defineProperty(target, name, { get: () => value, configurable: true, enumerable: true });
  const scope = globalThis as unknown as Record<string, unknown>;
  const navigatorProto = (scope.Navigator as { prototype: object } | undefined)?.prototype;
  if (navigatorProto) define(navigatorProto, 'deviceMemory', 8);
  if (!('chrome' in scope) && 'document' in scope) {
    scope.chrome = { app: { isInstalled: false, InstallState: { DISABLED: 'disabled', INSTALLED: 'installed', NOT_INSTALLED: 'not_installed' }, RunningState: { CANNOT_RUN: 'cannot_run', READY_TO_RUN: 'ready_to_run', RUNNING: 'running' } } };
  }
  for (const name of ['WebGLRenderingContext', 'WebGL2RenderingContext']) {
    const proto = (scope[name] as { prototype: { getParameter: (parameter: number) => unknown } } | undefined)?.prototype;
    if (!proto) continue;
    const original = proto.getParameter;
    const named: Record<number, string> = { 0x9245: 'ARM', 0x9246: 'Mali-G710 MC10' };
    proto.getParameter = new Proxy(original, { apply: (target, self, args: [number]) => named[args[0]] ?? Reflect.apply(target, self, args) });
  }
  const notification = scope.Notification as object | undefined;
  if (notification) define(notification, 'permission', 'default');
}

const presented = new WeakMap<Page, Promise<void>>();

/** Every page of the context, popups included, presents the phone (phoneOf) and its cores, once. */
export function presentAsPhone(page: Page, phone: ReturnType<typeof phoneOf>): Promise<void> {
  let done = presented.get(page);
  if (!done) {
    done = page.context().newCDPSession(page).then(async (cdp) => {
      await cdp.send('Emulation.setUserAgentOverride', phone.override as Parameters<typeof cdp.send<'Emulation.setUserAgentOverride'>>[1]);
      // The session stays open: what it overrides ends with it.
      await cdp.send('Emulation.setHardwareConcurrencyOverride', { hardwareConcurrency: 8 }).catch(() => undefined);
    });
    presented.set(page, done);
  }
  return done;
}

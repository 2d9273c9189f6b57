/**
 * `--public-url` (or EMULATOR_PUBLIC_URL): the origin that agencies and browsers reach the emulator
 * at, when it is not the bind address: Docker publishing another host port, a devcontainer, a
 * tunnel to an agency's deployed preview. Only an origin: the emulator's routes sit at its root.
 */
import { InvalidArgumentError } from 'commander';

export function parsePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new InvalidArgumentError('A public URL is an absolute http or https URL, such as https://promo.example.test or http://localhost:8080.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('A public URL uses http or https.');
  if (url.pathname !== '/' || url.search || url.hash || text.includes('?') || text.includes('#') || url.username || url.password) {
    throw new InvalidArgumentError(`A public URL is an origin only (${url.origin}): no path, query, fragment or user name.`);
  }
  return url.origin;
}

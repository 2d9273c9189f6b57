/**
 * A QR code as inline SVG, drawn by qrcode-generator (no dependencies of its own, nothing fetched by
 * the page). The SVG holds only paths: the encoded text is not in it as text.
 */
import qrcode from 'qrcode-generator';
import { type Html, html, trusted } from './html.js';

export function qrSvg(text: string, label: string): Html {
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  const svg = code.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
  return html`<span class="qr" role="img" aria-label="${label}">${trusted(svg)}</span>`;
}

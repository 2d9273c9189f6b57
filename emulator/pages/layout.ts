/** The page shell every server-rendered page shares: landmarks, skip link, header navigation. */
import { type Html, html, trusted } from './html.js';
import { STYLESHEET } from './styles.js';

/** Links in the header's navigation, in order. */
type Nav = Array<{ href: string; label: string }>;

export interface Shell {
  title: string;
  body: Html;
  nav: Nav;
  /** Something at the header's far end, e.g. the signed-in collector and a sign-out form. */
  aside?: Html;
  wide?: boolean;
  script?: string;
}

export function layout(shell: Shell): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${shell.title} · Promo emulator</title>
<style>${trusted(STYLESHEET)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<span class="brand">Promo service (emulator)</span>
<nav aria-label="Main"><ul>${shell.nav.map((link) => html`<li><a href="${link.href}">${link.label}</a></li>`)}</ul></nav>
${shell.aside}
</header>
<main id="main"${shell.wide ? trusted(' class="wide"') : ''}>
<h1>${shell.title}</h1>
${shell.body}
</main>
${shell.script ? html`<script src="${shell.script}"></script>` : ''}
</body>
</html>
`;
}

/** A page in an area's frame (its `nav`) that only says what went wrong: what its refusals and `pageErrors` answer with. */
export function warningPage(nav: Nav): (title: string, message: Html) => Html {
  return (title, message) => layout({ title, body: html`<section class="warning">${message}</section>`, nav });
}

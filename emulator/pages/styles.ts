/** The one stylesheet, inline in every page (no third-party resources); CSP allows it by hash. */
import { createHash } from 'node:crypto';

export const STYLESHEET = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1f;background:#f6f6f8}
a{color:#0b4fa8}
a:focus,button:focus,input:focus,select:focus,summary:focus{outline:3px solid #f5a000;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:1}
header{background:#1b2a49;color:#fff;padding:12px 16px;display:flex;flex-wrap:wrap;gap:8px 24px;align-items:center}
header a{color:#fff}header nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:16px;margin:0;padding:0}
header form{margin:0 0 0 auto}
.brand{font-weight:700}
main{max-width:52rem;margin:0 auto;padding:16px}
main.wide{max-width:72rem}
section,article{background:#fff;border:1px solid #d6d6de;border-radius:8px;padding:16px;margin:16px 0}
h1{font-size:1.6rem;margin:8px 0 16px}h2{font-size:1.25rem;margin:0 0 12px}h3{font-size:1.05rem}
label{display:block;font-weight:600;margin:12px 0 4px}
.check{display:flex;gap:8px;align-items:flex-start;font-weight:400}
.check input{margin-top:5px;width:auto}
input,select{font:inherit;padding:8px;border:1px solid #767680;border-radius:4px;width:100%;max-width:32rem}
button{font:inherit;padding:8px 16px;border:0;border-radius:4px;background:#0b4fa8;color:#fff;cursor:pointer;margin-top:12px}
button.secondary{background:#4a4a55}button.danger{background:#a4161a}
header button{margin:0;background:#fff;color:#1b2a49}
.notice{border-left:6px solid #0b4fa8;background:#eef4fd}
.warning{border-left:6px solid #a4161a;background:#fdf0f0}
.success{border-left:6px solid #1d6b35;background:#eef8f0}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:#fff8d6;padding:8px;border:1px dashed #8a6d00}
code{font-family:ui-monospace,monospace;word-break:break-all}
/* A pack code is read and typed whole: never broken inside. */
.pack-code{white-space:nowrap;word-break:normal}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #d6d6de;vertical-align:top}
.table{overflow-x:auto;max-width:100%}
ul.packs{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:16px}
ul.packs li{display:flex;flex-direction:column;gap:4px;width:10rem}
ul.packs .pack-code{font-size:.75rem}
.pack-groups{display:flex;flex-wrap:wrap;gap:0 32px}.pack-groups h3{margin:12px 0 8px}
.qr svg{display:block;width:8rem;height:8rem}
.inline{display:inline}.inline button{margin:0 4px 0 0;padding:4px 10px}
ul.plain{list-style:none;padding:0}
.muted{color:#55555f}
@media (max-width:40rem){main{padding:8px}section,article{padding:12px}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.stack tr{display:block;border-bottom:1px solid #d6d6de;padding:6px 0}
table.stack td{display:flex;gap:8px;border:0;padding:2px 0;overflow-wrap:anywhere;min-width:0}
table.stack td::before{content:attr(data-label);flex:0 0 8.5rem;font-weight:600;color:#55555f}}
`;

export const STYLESHEET_HASH = `sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}`;

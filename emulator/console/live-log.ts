/**
 * The dashboard's one script, served from the emulator itself: it appends new interaction-log
 * rows as they happen, dropping the oldest so the page keeps its last few. Without it the page still works; its Refresh link reloads.
 */
export const LIVE_LOG_SCRIPT = `(() => {
  const body = document.getElementById('log');
  if (!body) return;
  let after = Number(body.dataset.after || 0);
  // Each cell carries its column's name, which narrow screens show beside it (the table stacks).
  const labels = [...body.closest('table').querySelectorAll('thead th')].map((th) => th.textContent);
  const cell = (text, code) => {
    const td = document.createElement('td');
    const inner = code ? document.createElement('code') : td;
    inner.textContent = text;
    if (code) td.appendChild(inner);
    return td;
  };
  // A body folded under "Body", as the page shows it.
  const bodyCell = (text) => {
    if (!text) return cell('');
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = 'Body';
    details.append(summary, cell(text, true).firstChild);
    const td = document.createElement('td');
    td.appendChild(details);
    return td;
  };
  const shown = Number(body.dataset.shown || 10);
  const poll = async () => {
    try {
      const res = await fetch('/_emulator/console/log?after=' + after, { headers: { accept: 'application/json' } });
      if (res.ok) {
        for (const row of (await res.json()).data) {
          const tr = document.createElement('tr');
          tr.append(cell(row.at), cell(row.key || '', true), cell(row.method + ' ' + row.path), cell(row.error ? row.status + ' ' + row.error : String(row.status)), bodyCell(row.body === null ? '' : JSON.stringify(row.body)));
          [...tr.children].forEach((td, index) => (td.dataset.label = labels[index] || ''));
          body.appendChild(tr);
          while (body.children.length > shown) body.firstElementChild.remove();
          after = row.id;
        }
      }
    } finally {
      setTimeout(poll, 2000);
    }
  };
  setTimeout(poll, 2000);
})();
`;

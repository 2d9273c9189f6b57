/**
 * The dashboard's one script, served from the emulator itself: it appends new interaction-log
 * rows as they happen. Without it the page still works; its Refresh link reloads.
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
  const poll = async () => {
    try {
      const res = await fetch('/_emulator/console/log?after=' + after, { headers: { accept: 'application/json' } });
      if (res.ok) {
        for (const row of (await res.json()).data) {
          const tr = document.createElement('tr');
          tr.append(cell(row.at), cell(row.key || '', true), cell(row.method + ' ' + row.path), cell(row.error ? row.status + ' ' + row.error : String(row.status)), cell(row.body === null ? '' : JSON.stringify(row.body), true));
          [...tr.children].forEach((td, index) => (td.dataset.label = labels[index] || ''));
          body.appendChild(tr);
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

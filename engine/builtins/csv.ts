// RFC 4180 CSV for nika:convert: quoted fields, doubled quotes, CRLF or LF rows.
export function parseCsv(text: string, hasHeader: boolean): unknown[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field); field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); field = '';
      rows.push(row); row = [];
    } else {
      field += c;
    }
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  if (!hasHeader) return rows;
  const [header, ...body] = rows;
  if (!header) return [];
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

export function toCsv(value: unknown, formulaGuard: boolean): string {
  if (!Array.isArray(value)) throw new Error('CSV needs an array of rows');
  const cell = (v: unknown) => {
    let s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    // Spreadsheets execute cells starting with these; a leading quote keeps them as text.
    if (formulaGuard && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  if (value.every((r) => Array.isArray(r))) return value.map((r) => (r as unknown[]).map(cell).join(',')).join('\n') + '\n';
  const cols: string[] = [];
  for (const r of value) {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw new Error('CSV rows must all be objects or all be arrays');
    for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  }
  const lines = [cols.map(cell).join(',')];
  for (const r of value as Record<string, unknown>[]) lines.push(cols.map((c) => cell(r[c])).join(','));
  return lines.join('\n') + '\n';
}

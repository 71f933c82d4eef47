/**
 * docs/*.md as HTML pages for the built app (dist/docs/<name>.html), so the app's "?" links to
 * the page that explains a concept work offline, from the app's own origin, with no renderer in
 * the app. Covers the Markdown the docs use: headings (with GitHub's anchors, so links written
 * for GitHub work here too), paragraphs, lists, fenced code, tables, images, links, `code`,
 * **bold** and *emphasis*. Everything is escaped first; the pages carry no script.
 */

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
}

/** A link between docs pages goes to its HTML page; one out of docs/ (the README, the source) to the repository's path as text. */
function href(target: string): string {
  const m = /^([\w-]+)\.md(#.*)?$/.exec(target);
  if (m) return `${m[1]}.html${m[2] ?? ''}`;
  if (/^(https?:|#)/.test(target) || /^[\w-]+\.png$/.test(target)) return target;
  return '';
}

function inline(text: string): string {
  const codes: string[] = [];
  let s = text.replace(/`([^`]+)`/g, (_, c: string) => `\uE000${codes.push(`<code>${escape(c)}</code>`) - 1}\uE000`);
  s = escape(s);
  s = s.replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_, alt: string, src: string) => (href(src) ? `<img src="${href(src)}" alt="${alt}">` : alt));
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, target: string) => (href(target) ? `<a href="${href(target)}">${label}</a>` : `${label} (${target})`));
  s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/(^|[^*\w])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
  return s.replace(/\uE000(\d+)\uE000/g, (_, i: string) => codes[Number(i)] ?? '');
}

function table(rows: string[]): string {
  const cells = (row: string) => row.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => inline(c.trim().replace(/\\\|/g, '|')));
  const [head, , ...body] = rows;
  return `<table><thead><tr>${cells(head ?? '').map((c) => `<th>${c}</th>`).join('')}</tr></thead><tbody>${body.map((r) => `<tr>${cells(r).map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

/** The body HTML of one Markdown page. */
export function markdownToHtml(md: string): string {
  const lines = md.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  let para: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | null = null;
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(' '))}</p>`);
    para = [];
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join('')}</${list.tag}>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('```')) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !(lines[i] ?? '').startsWith('```')) code.push(lines[i] ?? '');
      out.push(`<pre><code>${escape(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      out.push(`<h${level} id="${slug(heading[2]!)}">${inline(heading[2]!)}</h${level}>`);
      continue;
    }
    if (/^\s*\|/.test(line) && /^\s*\|[\s:|-]+\|\s*$/.test(lines[i + 1] ?? '')) {
      flush();
      const rows: string[] = [];
      while (i < lines.length && /^\s*\|/.test(lines[i] ?? '')) rows.push(lines[i++] ?? '');
      i--;
      out.push(table(rows));
      continue;
    }
    const item = /^\s*([-*]|\d+\.)\s+(.*)$/.exec(line);
    if (item) {
      if (para.length) flush();
      const tag = /\d/.test(item[1]!) ? 'ol' : 'ul';
      if (list && list.tag !== tag) flush();
      list ??= { tag, items: [] };
      list.items.push(item[2]!);
      continue;
    }
    if (line.trim() === '' || line.startsWith('<!--')) {
      flush();
      continue;
    }
    // A wrapped list item's next line joins it; anything else is paragraph text.
    if (list && /^\s+\S/.test(line)) list.items[list.items.length - 1] += ` ${line.trim()}`;
    else {
      if (list) flush();
      para.push(line.trim());
    }
  }
  flush();
  return out.join('\n');
}

const STYLE = 'body{max-width:860px;margin:24px auto;padding:0 20px;font:15px/1.6 system-ui,sans-serif;color:#18181b}'
  + 'code{font:13px ui-monospace,monospace;background:#f4f4f5;padding:1px 4px;border-radius:3px}pre{background:#f4f4f5;padding:10px;overflow:auto;border-radius:6px}pre code{padding:0}'
  + 'img{max-width:100%;border:1px solid #e4e4e7}table{border-collapse:collapse}td,th{border:1px solid #e4e4e7;padding:4px 8px;text-align:left;vertical-align:top}a{color:#4338ca}'
  + 'nav{font-size:13px;margin-bottom:16px}';

/** A whole page: the docs index and Seamscope linked at the top. */
export function docsPage(name: string, md: string): string {
  const title = /^#\s+(.*)$/m.exec(md)?.[1] ?? name;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${escape(title)} · Seamscope</title><style>${STYLE}</style></head><body>`
    + `<nav><a href="../">Seamscope</a> · <a href="README.html">Documentation</a></nav>\n${markdownToHtml(md)}\n</body></html>\n`;
}

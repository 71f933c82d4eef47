import { describe, expect, it } from 'vitest';
import { docsPage, markdownToHtml, slug } from './docs-html.ts';

describe('docs as HTML pages', () => {
  it('gives headings GitHub anchors, so links written for GitHub land on them', () => {
    expect(slug('Sufficiency and the judge')).toBe('sufficiency-and-the-judge');
    expect(slug("A run's status is earned")).toBe('a-runs-status-is-earned');
    expect(markdownToHtml('## Planning a split')).toBe('<h2 id="planning-a-split">Planning a split</h2>');
  });

  it('links docs pages to their HTML pages and keeps pictures beside them', () => {
    const html = markdownToHtml('See [Formats](formats.md#datasets) and ![the table](evaluate-table.png).');
    expect(html).toContain('<a href="formats.html#datasets">Formats</a>');
    expect(html).toContain('<img src="evaluate-table.png" alt="the table">');
  });

  it('escapes text and code, and links nothing outside docs/', () => {
    const html = markdownToHtml('<script>x</script> `a<b` [src](../src/index.ts) [x](javascript:alert(1))\n\n```\n<b>\n```');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<code>a&lt;b</code>');
    expect(html).toContain('src (../src/index.ts)');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('<pre><code>&lt;b&gt;</code></pre>');
  });

  it('reads lists, wrapped items and tables', () => {
    const html = markdownToHtml('- one\n  more\n- two\n\n| a | b |\n|---|---|\n| `x` | y |');
    expect(html).toContain('<ul><li>one more</li><li>two</li></ul>');
    expect(html).toContain('<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td><code>x</code></td><td>y</td></tr></tbody></table>');
  });

  it('a page is titled by its first heading and carries no script', () => {
    const page = docsPage('evaluating', '# Evaluating designs\n\nText.');
    expect(page).toContain('<title>Evaluating designs · Seamscope</title>');
    expect(page).not.toMatch(/<script/i);
  });
});

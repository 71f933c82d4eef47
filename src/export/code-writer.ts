/**
 * A small code writer: lines at an indentation level, blocks that indent their body.
 * Emitters only ever hand it text built from literal helpers and checked identifiers.
 */
export interface CodeWriter {
  line(text?: string): void;
  /** Several lines at the current indentation (a multi-line literal or expression). */
  lines(text: string): void;
  /** `open`, the body indented, then `close` (omitted when null, as for Python). */
  block(open: string, body: () => void, close?: string | null): void;
  indent(body: () => void): void;
  toString(): string;
}

export function createCodeWriter(unit = '  '): CodeWriter {
  const out: string[] = [];
  let level = 0;
  const writer: CodeWriter = {
    line(text = '') {
      out.push(text ? `${unit.repeat(level)}${text}` : '');
    },
    lines(text) {
      for (const line of text.split('\n')) writer.line(line);
    },
    indent(body) {
      level++;
      try {
        body();
      } finally {
        level--;
      }
    },
    block(open, body, close = '}') {
      writer.line(open);
      writer.indent(body);
      if (close !== null) writer.line(close);
    },
    toString() {
      return `${out.join('\n').replace(/\n+$/, '')}\n`;
    },
  };
  return writer;
}

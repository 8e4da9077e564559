// Offsets are UTF-16 code-unit indices into the document text (what JS strings and the `yaml`
// library use), so an LSP character is simply `offset - lineStart`. Lines break at \n, \r\n or \r.

export interface Position { line: number; character: number }
export interface Span { start: number; end: number }

export class LineIndex {
  readonly lineStarts: number[];
  /** `starts`: the line starts when the caller already has them (LF or CRLF breaks only). */
  constructor(readonly text: string, starts?: number[]) {
    if (starts) {
      this.lineStarts = starts;
      return;
    }
    starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10) {
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  get lineCount(): number { return this.lineStarts.length; }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= o) lo = mid; else hi = mid - 1;
    }
    return { line: lo, character: o - this.lineStarts[lo] };
  }

  offsetAt(pos: Position): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[pos.line];
    const end = this.lineEnd(pos.line);
    return Math.min(start + Math.max(0, pos.character), end);
  }

  /** Offset of the end of a line's content, before its line break. */
  lineEnd(line: number): number {
    const next = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] : this.text.length;
    let e = next;
    if (e > this.lineStarts[line] && this.text.charCodeAt(e - 1) === 10) e--;
    if (e > this.lineStarts[line] && this.text.charCodeAt(e - 1) === 13) e--;
    return e;
  }

  lineText(line: number): string {
    return this.text.slice(this.lineStarts[line], this.lineEnd(line));
  }

  rangeOf(span: Span): { start: Position; end: Position } {
    return { start: this.positionAt(span.start), end: this.positionAt(span.end) };
  }
}

// Splits the text of a top-level JSON array into the texts of its elements as the text streams in,
// so a large array is parsed one element at a time. Each character is looked at once, and an element
// longer than the cap stops the split instead of growing without end.

/**
 * @example
 * const splitter = new JsonArraySplitter(1 << 20, () => new Error("element too long"));
 * splitter.push('[{"a":1},{"b"'); // ['{"a":1}']
 * splitter.push(':2}]');          // ['{"b":2}']
 * splitter.end();
 */
export class JsonArraySplitter {
  private started = false;
  private ended = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private current = "";

  constructor(
    private readonly maxElementLength = Number.POSITIVE_INFINITY,
    private readonly tooLong: () => Error = () => new Error("a JSON array element is too long"),
  ) {}

  push(text: string): string[] {
    const elements: string[] = [];
    let segmentStart = 0;
    const flush = (end: number): void => {
      const element = (this.current + text.slice(segmentStart, end)).trim();
      this.current = "";
      if (element !== "") elements.push(element);
    };
    for (let i = 0; i < text.length; i += 1) {
      if (i - segmentStart + this.current.length > this.maxElementLength) throw this.tooLong();
      const c = text[i];
      if (!this.started || this.ended) {
        if (c === " " || c === "\n" || c === "\r" || c === "\t") continue;
        if (this.ended || c !== "[")
          throw new Error(`unexpected ${JSON.stringify(c)} outside the JSON array`);
        this.started = true;
        this.depth = 1;
        segmentStart = i + 1;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === "\\") this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (c === '"') this.inString = true;
      else if (c === "{" || c === "[") this.depth += 1;
      else if (c === "}" || c === "]") {
        this.depth -= 1;
        if (this.depth === 0) {
          flush(i);
          this.ended = true;
          segmentStart = i + 1;
        }
      } else if (c === "," && this.depth === 1) {
        flush(i);
        segmentStart = i + 1;
      }
    }
    if (this.started && !this.ended) this.current += text.slice(segmentStart);
    return elements;
  }

  /** Throws when the array was opened but never closed (a truncated body). */
  end(): void {
    if (this.started && !this.ended) throw new Error("the JSON array ends before its closing bracket");
  }
}

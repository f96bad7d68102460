// Finds the elements of one array inside a JSON response (`data.hits` of a page) as the bytes stream
// in, so each hit can be parsed on its own and a page is never held whole. Everything outside that
// array (the envelope: total, cursor, quota) is kept as bytes and parsed once at the end.
import { Buffer } from "node:buffer";

import { closingQuote, hasEscape, isSpace, QUOTE, SOURCE_KEY } from "./hit-scanner-bytes.js";
import type { ScannedElement } from "./hit-scanner-bytes.js";

/**
 * @example
 * const scanner = new HitScanner(["data", "hits"], (hit) => JSON.parse(hit.bytes.toString("utf8", hit.start, hit.end)));
 * for await (const chunk of body) scanner.push(chunk);
 * const envelope = JSON.parse(scanner.end()); // the response with `"hits":[]`
 */
export class HitScanner {
  private window: Buffer = Buffer.alloc(0);
  private pos = 0;
  /** Start of the envelope bytes not yet saved, or of the element being read. */
  private mark = 0;
  private depth = 0;
  /** Per depth: container is an object, the next string there is a key, the key last read there. */
  private readonly isObject: boolean[] = [false];
  private readonly expectKey: boolean[] = [false];
  private readonly keys: (string | undefined)[] = [undefined];
  /** Depth of the target array once open; 0 before it, -1 after it closed. */
  private arrayDepth = 0;
  private sourceStart = -1;
  private sourceEnd = -1;
  private sourceKeyPending = false;
  /**
   * The element names `_source` twice, or has a key written with escapes (which may spell it): its
   * `_source` bytes are not handed on, and the parsed hit (JSON.parse keeps the last) is what counts.
   */
  private sourceSeen = false;
  private sourceVoid = false;
  private compact = true;
  /** The element being read was offered to `take` whole (see ScannedElement.offered). */
  private offered = false;
  private readonly envelope: Buffer[] = [];
  private envelopeBytes = 0;

  /**
   * `take`, when given, is offered each element where it starts, with the bytes the window holds: it
   * returns where the element ends when it read and handed it on itself, or -1 to leave it to the
   * scan (an element the window does not yet hold whole, or one it declines), so an element a reader
   * takes is read once, not scanned first.
   */
  constructor(
    private readonly path: readonly string[],
    private readonly onElement: (element: ScannedElement) => void,
    private readonly take?: (bytes: Buffer, start: number, limit: number) => number,
  ) {}

  push(chunk: Uint8Array): void {
    // Keep only what is still needed: the element being read, or a string cut by the chunk's end.
    const cut = this.mark;
    const rest = this.window.subarray(cut);
    // Always our own copy: the bytes of a hit's `_source` are handed on as views into this window.
    this.window = Buffer.concat([rest, chunk]);
    // An element offered in the old window was offered only part of its bytes.
    this.offered = false;
    this.pos -= cut;
    this.mark = 0;
    if (this.sourceStart >= 0) this.sourceStart -= cut;
    if (this.sourceEnd >= 0) this.sourceEnd -= cut;
    this.scan();
    if (this.inElement()) return;
    if (this.arrayDepth > 0)
      this.mark = this.pos; // between elements: commas and spaces are dropped
    else this.saveEnvelope(this.pos);
  }

  /** The envelope's text with the array emptied; throws when the body ended early. */
  end(): string {
    if (this.depth !== 0 || this.pos < this.window.length || this.envelopeBytes === 0)
      throw new Error("the response ends before its JSON does");
    return Buffer.concat(this.envelope).toString("utf8");
  }

  private inElement(): boolean {
    return this.arrayDepth > 0 && this.depth > this.arrayDepth;
  }

  private saveEnvelope(to: number): void {
    if (to > this.mark) {
      this.envelope.push(Buffer.from(this.window.subarray(this.mark, to)));
      this.envelopeBytes += to - this.mark;
    }
    this.mark = to;
  }

  private scan(): void {
    const bytes = this.window;
    const length = bytes.length;
    let i = this.pos;
    while (i < length) {
      if (this.arrayDepth > 0 && this.depth >= this.arrayDepth + 2) {
        i = this.skipInside(bytes, i);
        if (this.depth >= this.arrayDepth + 2) break; // the window ends inside it
        continue;
      }
      const c = bytes[i] as number;
      if (c === QUOTE) {
        const j = closingQuote(bytes, i + 1, length);
        if (j >= length) break; // the string continues in the next chunk: read it again then
        if (this.expectKey[this.depth] === true) this.readKey(bytes, i + 1, j);
        i = j + 1;
        continue;
      }
      if (c === 0x7b && this.take !== undefined && this.arrayDepth > 0 && this.depth === this.arrayDepth) {
        const end = this.take(bytes, i, length);
        if (end > i) {
          this.mark = end;
          i = end;
          continue;
        }
        this.offered = true;
      }
      if (c === 0x7b || c === 0x5b) {
        this.open(c === 0x7b, i);
      } else if (c === 0x7d || c === 0x5d) {
        this.close(i);
      } else if (c === 0x3a) {
        this.expectKey[this.depth] = false;
      } else if (c === 0x2c) {
        if (this.isObject[this.depth] === true) this.expectKey[this.depth] = true;
      } else if (isSpace(c) && this.inElement()) {
        this.compact = false;
      }
      i++;
    }
    this.pos = i;
  }

  /**
   * Inside a hit's `_source` (or any value of a hit's own key) no key matters: only brackets, strings
   * and whitespace do, so this tighter loop reads those bytes, most of a hit, until the value closes
   * (handed to `close`, which notes where `_source` ends) or the window ends. Returns where it stopped.
   */
  private skipInside(bytes: Buffer, from: number): number {
    const floor = this.arrayDepth + 2;
    const length = bytes.length;
    let depth = this.depth;
    let compact = this.compact;
    let i = from;
    while (i < length) {
      const c = bytes[i] as number;
      if (c === QUOTE) {
        const j = closingQuote(bytes, i + 1, length);
        if (j >= length) break; // the string continues in the next chunk: read it again then
        i = j + 1;
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        if (depth === floor) {
          this.depth = depth;
          this.compact = compact;
          this.close(i);
          return i + 1;
        }
        depth--;
      } else if (isSpace(c)) {
        compact = false;
      }
      i++;
    }
    this.depth = depth;
    this.compact = compact;
    return i;
  }

  private readKey(bytes: Buffer, from: number, to: number): void {
    const depth = this.depth;
    if (this.arrayDepth > 0 && depth === this.arrayDepth + 1) {
      const isSource = to - from === SOURCE_KEY.length && bytes.compare(SOURCE_KEY, 0, 7, from, to) === 0;
      if ((isSource && this.sourceSeen) || hasEscape(bytes, from, to)) this.sourceVoid = true;
      if (isSource) this.sourceSeen = true;
      this.sourceKeyPending = isSource;
    } else if (this.arrayDepth <= 0 && depth <= this.path.length) {
      this.keys[depth] = bytes.toString("utf8", from, to);
    }
  }

  private open(isObject: boolean, at: number): void {
    const depth = ++this.depth;
    this.isObject[depth] = isObject;
    this.expectKey[depth] = isObject;
    if (this.arrayDepth === 0 && !isObject && depth === this.path.length + 1 && this.onPath()) {
      this.arrayDepth = depth;
      this.saveEnvelope(at + 1);
    } else if (this.arrayDepth > 0 && depth === this.arrayDepth + 1) {
      this.mark = at;
      this.compact = true;
      this.sourceStart = -1;
      this.sourceEnd = -1;
      this.sourceSeen = false;
      this.sourceVoid = false;
    } else if (this.arrayDepth > 0 && depth === this.arrayDepth + 2 && isObject && this.sourceKeyPending) {
      this.sourceStart = at;
    }
    if (this.arrayDepth > 0 && depth === this.arrayDepth + 2) this.sourceKeyPending = false;
  }

  private onPath(): boolean {
    for (let d = 0; d < this.path.length; d++) if (this.keys[d + 1] !== this.path[d]) return false;
    return true;
  }

  private close(at: number): void {
    const depth = this.depth;
    if (depth === 0) throw new Error("a closing bracket without an opening one");
    this.depth = depth - 1;
    if (this.arrayDepth <= 0) return;
    if (depth === this.arrayDepth) {
      this.arrayDepth = -1;
      this.mark = at; // the closing bracket belongs to the envelope
    } else if (depth === this.arrayDepth + 1) {
      const element: ScannedElement = {
        bytes: this.window,
        start: this.mark,
        end: at + 1,
        sourceStart: this.sourceEnd > 0 && !this.sourceVoid ? this.sourceStart : -1,
        sourceEnd: this.sourceEnd,
        compact: this.compact,
        offered: this.offered,
      };
      this.mark = at + 1;
      this.offered = false;
      this.onElement(element);
    } else if (depth === this.arrayDepth + 2 && this.sourceStart >= 0 && this.sourceEnd < 0) {
      this.sourceEnd = at + 1;
    }
  }
}

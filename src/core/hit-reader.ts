// How a slice's hits may be read straight from their bytes (SliceContext.hitReader): the contract the
// paging calls and the readers of api/paging and formats/ implement.
/** A row as core/contracts.ts names it (Row), spelled out so the contracts can import this file. */
type Row = Readonly<Record<string, unknown>>;

/**
 * What a source's paging hands a hit that a reader took: the row the outputs read (`_id` and `_index`
 * at least) and, when the outputs splice rows from the service's bytes, those of its `_source`.
 */
export interface ReadHit {
  row: Row;
  source: Uint8Array | undefined;
  /** Where the hit's bytes end (read as a prefix, wherever it closed). */
  end: number;
}

/**
 * Takes one hit from the bytes of a page as they stream in, checking them whole (JSON grammar and the
 * hit's shape) without building the parsed object. Undefined leaves the hit to the usual path (JSON.parse
 * and the wire schema), which decides and names what is wrong, so a reader only ever declines.
 */
export interface HitBytesReader {
  /**
   * `v3`: the hit has the v3 shape (`sort` required), else the v1/v2 one. With `prefix`, the hit starts
   * at `start` and may close anywhere before `end` (a page still streaming in): then the reader finds
   * where it ends, and the page need not be scanned for it first. The result is valid until the next call.
   */
  read(bytes: Uint8Array, start: number, end: number, v3: boolean, prefix?: boolean): ReadHit | undefined;
}

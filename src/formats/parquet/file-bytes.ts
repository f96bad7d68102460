// The bytes of one Parquet file as it is written: its own (magic, footer) and its row groups.
import { ByteWriter } from "hyparquet-writer";

/**
 * The file's own bytes (magic and footer) go through hyparquet-writer's ByteWriter; row groups, encoded
 * apart (parquet/row-group.ts), are handed on as they come and only counted, so memory holds the row
 * group being encoded, not the file. `offset` keeps counting, which the footer's offsets depend on.
 */
export class FileBytes extends ByteWriter {
  private readonly ready: Uint8Array[] = [];

  /** A row group encoded elsewhere, at this writer's offset. */
  adopt(bytes: Uint8Array): void {
    this.flush();
    this.ready.push(bytes);
    this.offset += bytes.length;
  }

  flush(): void {
    if (this.index === 0) return;
    this.ready.push(new Uint8Array(this.buffer.slice(0, this.index)));
    this.index = 0;
  }

  take(): Uint8Array[] {
    this.flush();
    return this.ready.splice(0, this.ready.length);
  }
}

// Reading request bodies and writing responses, including the body-level faults (reset, truncation).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestFaults } from "./faults.js";

const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

type BodyFaults = Pick<RequestFaults, "reset" | "truncate">;

const NO_BODY_FAULTS: BodyFaults = { reset: false, truncate: false };

/** Sends text; a reset cuts the connection mid-body, a truncation ends a chunked body half-way. */
export function sendText(
  res: ServerResponse,
  status: number,
  text: string | Buffer,
  headers: Record<string, string> = {},
  faults: BodyFaults = NO_BODY_FAULTS,
): void {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  res.statusCode = status;
  res.setHeader("content-type", headers["content-type"] ?? "application/json");
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (faults.reset) {
    res.setHeader("content-length", bytes.length);
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.destroy());
    return;
  }
  if (faults.truncate) {
    res.end(bytes.subarray(0, Math.floor(bytes.length / 2)));
    return;
  }
  res.setHeader("content-length", bytes.length);
  res.end(bytes);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  sendText(res, status, JSON.stringify(body), headers);
}

// A name the service sent (a field, a column), fit for a message, a log line or a terminal table:
// control characters (NUL included) shown as escapes, and a very long name cut, so no mapping can
// forge a line, break a terminal or fill a log.
import { escapeControl } from "../api/redact.js";

const SHOWN_CHARS = 200;

/**
 * The name escaped, without quotes; cut after 200 characters with its length said.
 * @example escapedName("job\u0000state") // "job\\u0000state"
 */
export function escapedName(name: string): string {
  const cut = name.length > SHOWN_CHARS ? name.slice(0, SHOWN_CHARS) : name;
  const shown = escapeControl(cut);
  return cut === name ? shown : `${shown}…(${name.length} characters)`;
}

/** The name quoted and escaped, for a message: `"job.state"`. */
export function showName(name: string): string {
  return `"${escapedName(name)}"`;
}

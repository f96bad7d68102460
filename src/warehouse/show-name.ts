// A name the service sent (a field, a column), fit for a message, a log line or a terminal table:
// control characters (NUL included) shown as escapes, and a very long name cut, so no mapping can
// forge a line, break a terminal or fill a log.
import { escapeControl } from "../api/redact.js";

const SHOWN_CHARS = 200;

// What escapeControl escapes: NUL and the other C0/C1 controls, and the line separators.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether a name holds a character that DDL, a terminal or a log line cannot take as it is. */
export function hasControlCharacter(name: string): boolean {
  return CONTROL.test(name);
}

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

// Control characters in a name the service sent or a pipeline wrote: what DDL, a terminal or a log
// line cannot take as it is (the sink's options refuse them in a column name, the warehouse's
// checks in a field's).

// NUL and the other C0/C1 controls, and the line separators: what the checks refuse and what
// api/redact.ts's escapeControl escapes, one list for both.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether a name holds a character that DDL, a terminal or a log line cannot take as it is. */
export function hasControlCharacter(name: string): boolean {
  return CONTROL.test(name);
}

// "Is this a JSON object?", asked of parsed JSON and YAML, of rows and of settings: one spelling of
// the check, so every reader agrees on what counts as an object (an array and null do not).

/** An object that is neither null nor an array: what JSON and YAML parse `{…}` into. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

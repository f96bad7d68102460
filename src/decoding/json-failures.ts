// Why JSON bytes were refused: each step of json-bytes.ts returns one of these negative positions in
// place of the position after what it read, and a reader that names its refusals words them here.

/** What a step refused, as the negative position it returns; `jsonFailureMessage` words each. */
export const JSON_FAILURE = {
  unexpected: -1,
  endsEarly: -2,
  notClosed: -3,
  badEscape: -4,
  notUtf8: -5,
  control: -6,
  noDigits: -7,
  noFractionDigits: -8,
  unknownWord: -9,
  tooDeep: -10,
  commaOrBracket: -11,
  commaOrBrace: -12,
  keyNotString: -13,
  noColon: -14,
  repeatedKey: -15,
} as const;

const MESSAGES: readonly string[] = [
  "",
  "an unexpected character",
  "the JSON ends early",
  "a string is not closed",
  "a string has an escape JSON does not know",
  "a string is not UTF-8",
  "a control character in a string",
  "a number has no digits",
  "a number has no digits after its point or exponent",
  "an unknown word",
  "the JSON nests too deep",
  "a comma or bracket is missing",
  "a comma or brace is missing",
  "a key is not a string",
  "a colon is missing",
  "a key repeats in its object, or is written with escapes, while keys are checked",
];

/** The words for a failure position of JSON_FAILURE. */
export function jsonFailureMessage(position: number): string {
  return MESSAGES[-position] ?? "the JSON is refused";
}

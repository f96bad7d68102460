// Why JSON bytes were refused: each step of json-bytes.ts returns one of these negative positions in
// place of the position after what it read, and a reader that names its refusals words them here.

/** Each failure's words, in the order of its position: the first is -1, the next -2, and so on. */
const MESSAGES = {
  unexpected: "an unexpected character",
  endsEarly: "the JSON ends early",
  notClosed: "a string is not closed",
  badEscape: "a string has an escape JSON does not know",
  notUtf8: "a string is not UTF-8",
  control: "a control character in a string",
  noDigits: "a number has no digits",
  noFractionDigits: "a number has no digits after its point or exponent",
  unknownWord: "an unknown word",
  tooDeep: "the JSON nests too deep",
  commaOrBracket: "a comma or bracket is missing",
  commaOrBrace: "a comma or brace is missing",
  keyNotString: "a key is not a string",
  noColon: "a colon is missing",
  repeatedKey: "a key repeats in its object, or is written with escapes, while keys are checked",
};

/** What a step refused, as the negative position it returns; `jsonFailureMessage` words each. */
export const JSON_FAILURE = Object.fromEntries(
  Object.keys(MESSAGES).map((name, index) => [name, -(index + 1)]),
) as Readonly<Record<keyof typeof MESSAGES, number>>;

const WORDS: readonly string[] = Object.values(MESSAGES);

/** The words for a failure position of JSON_FAILURE. */
export function jsonFailureMessage(position: number): string {
  return WORDS[-position - 1] ?? "the JSON is refused";
}

// Picks the destination a sink's `to` names, by its scheme; a scheme no destination takes, or one
// written slightly wrong (MEM://, mem:/), is an error that names the fix.
import type { Destination } from "./destination.js";

type DestinationChoice<D extends Destination> = { destination: D } | { problem: string };

/** `name:` at the start of `to`; one letter is a drive (C:\), not a scheme. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):(.*)$/s;

/**
 * @example pickDestination("mem://exports/jobs", Object.values(components.destinations)) // { destination: memDestination }
 * @example pickDestination("MEM://exports/jobs", ...) // { problem: '... did you mean mem://exports/jobs?' }
 */
export function pickDestination<D extends Destination>(
  to: string,
  destinations: readonly D[],
): DestinationChoice<D> {
  const literal = destinations.find(
    (destination) => "literal" in destination.target && destination.target.literal === to,
  );
  if (literal !== undefined) return { destination: literal };
  const match = SCHEME.exec(to);
  const schemes = destinations.flatMap((destination) =>
    "scheme" in destination.target ? [{ destination, scheme: destination.target.scheme }] : [],
  );
  if (match !== null) {
    const [, written = "", rest = ""] = match;
    const known = schemes.find(({ scheme }) => scheme === written.toLowerCase());
    if (known !== undefined && known.scheme === written && rest.startsWith("//"))
      return { destination: known.destination };
    if (known !== undefined) {
      const fix = `${known.scheme}://${rest.replace(/^\/*/, "")}`;
      return { problem: `"${to}" is not a destination: did you mean ${fix}?` };
    }
    // A colon without a slash after it is part of a directory name (out:2026); `name:/` is a URL.
    if (rest.startsWith("/")) {
      return {
        problem: `"${to}" names the scheme ${written}:, which no destination takes; ${allowed(destinations)}`,
      };
    }
  }
  const path = destinations.find((destination) => "path" in destination.target);
  return path === undefined
    ? { problem: `"${to}" is not a destination; ${allowed(destinations)}` }
    : { destination: path };
}

function allowed(destinations: readonly Destination[]): string {
  return `allowed: ${destinations.map((destination) => destination.example).join(", ")}`;
}

// "Did you mean" suggestions for misspelt keys, values and field names in messages.

/** Up to `limit` candidates within a small edit distance of `name`, closest first. */
function closeMatches(name: string, candidates: Iterable<string>, limit = 3): string[] {
  const needle = name.toLowerCase();
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const distance = editDistance(needle, candidate.toLowerCase());
    const allowed = Math.max(2, Math.floor(Math.max(needle.length, candidate.length) / 4));
    const contains = needle.length >= 3 && candidate.toLowerCase().includes(needle);
    if (distance <= allowed || contains) scored.push({ candidate, distance: contains ? 0.5 : distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map((entry) => entry.candidate);
}

/** `; did you mean "a" or "b"?` or the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const matches = closeMatches(name, candidates);
  if (matches.length === 0) return "";
  return `; did you mean ${matches.map((match) => `"${match}"`).join(" or ")}?`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

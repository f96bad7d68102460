// The ledger's URL as it may be shown: no user, password or query (where `sslpassword` and the like
// travel), and any text a driver returns with those secrets masked.

/** `postgres://host:5432/db`: what a message or the quota command may print of the ledger's URL. */
export function describeLedgerUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(a ledger URL that does not parse)";
  }
}

/** The secrets a ledger URL carries: its password (raw and decoded) and every query value. */
function secretsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    const values = [parsed.password, ...parsed.searchParams.values()];
    const decoded = values.map((value) => {
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    });
    return [...new Set([...values, ...decoded])].filter((value) => value.length >= 3);
  } catch {
    return [];
  }
}

/** `text` with the URL's secrets and the URL itself replaced by its description. */
export function redactLedgerText(text: string, url: string): string {
  let clean = text.split(url).join(describeLedgerUrl(url));
  for (const secret of secretsOf(url).sort((a, b) => b.length - a.length))
    clean = clean.split(secret).join("[redacted]");
  return clean;
}

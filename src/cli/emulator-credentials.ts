// Where the emulator's client credentials come from: a flag, a file or the environment, so a shared
// emulator's secret need not sit in argv (visible to every user through `ps`), and whether the bind
// exposes the well-known demo credentials beyond this machine.
import { readFileSync } from "node:fs";
import { DEFAULT_CLIENT_SECRET } from "../emulator/options.js";
import type { EmulatorOptions } from "../emulator/options.js";

const EMULATOR_ID_VARIABLE = "MDQ_EMULATOR_CLIENT_ID";
const EMULATOR_SECRET_VARIABLE = "MDQ_EMULATOR_CLIENT_SECRET";

type EmulatorCredentials = Pick<EmulatorOptions, "clientId" | "clientSecret">;

/** Flag, then file, then environment; none leaves the demo defaults. */
export function emulatorCredentials(
  flags: { id?: string; secret?: string; secretFile?: string },
  env: Readonly<Record<string, string | undefined>>,
): EmulatorCredentials {
  const clientId = flags.id ?? nonEmpty(env[EMULATOR_ID_VARIABLE]);
  if (flags.secret !== undefined) return { clientId, clientSecret: flags.secret };
  if (flags.secretFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(flags.secretFile, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      throw new Error(`--client-secret-file: cannot read ${flags.secretFile} (${code})`);
    }
    // A trailing newline is how editors and `echo` end the file; it is not part of the secret.
    const secret = text.replace(/\r?\n$/, "");
    if (secret === "") throw new Error(`--client-secret-file: ${flags.secretFile} is empty`);
    return { clientId, clientSecret: secret };
  }
  const fromEnv = nonEmpty(env[EMULATOR_SECRET_VARIABLE]);
  if (fromEnv !== undefined) return { clientId, clientSecret: fromEnv };
  return { clientId };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** 127.0.0.0/8, ::1 and localhost only; anything else (0.0.0.0, a LAN address) is reachable by others. */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The warning for a bind beyond loopback that still accepts the published demo secret, or none. */
export function exposureWarning(host: string, clientSecret: string): string | undefined {
  if (isLoopback(host) || clientSecret !== DEFAULT_CLIENT_SECRET) return undefined;
  return `warning: the emulator listens on ${host}, beyond this machine, with the default demo credentials (published in the docs); anyone who reaches it can use it. Set ${EMULATOR_SECRET_VARIABLE} or --client-secret-file, or bind 127.0.0.1`;
}

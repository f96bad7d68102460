// What a user is told when the emulator cannot listen where it was asked to: the cause and the fix.

/** Why the emulator could not listen on `host:port`, and the fix; undefined for any other failure. */
export function listenFailure(error: unknown, host: string, port: number): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host}:${port}`;
  const other = "choose another port with --port N (--port 0 picks a free one)";
  if (code === "EADDRINUSE")
    return `port ${port} on ${host} is already in use (EADDRINUSE): another process listens on ${where}, perhaps an emulator started earlier; stop it (\`ss -ltnp 'sport = :${port}'\` names it) or ${other}`;
  if (code === "EACCES")
    return `this user may not listen on port ${port} (EACCES: ports below 1024 need privileges); ${other}`;
  if (code === "EADDRNOTAVAIL")
    return `${host} is not an address of this machine (EADDRNOTAVAIL); bind 127.0.0.1 (the default) or one of this machine's addresses with --host`;
  return undefined;
}

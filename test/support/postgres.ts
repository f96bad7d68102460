// A throwaway PostgreSQL cluster for the quota ledger's tests: `initdb` and `pg_ctl` from Debian's
// postgresql package (on PATH, in its versioned folder, or unpacked into .test-servers/ by npm test's
// pretest, scripts/install-test-servers.sh), a data folder in a temporary directory, a free loopback
// port, stopped and removed by `close`. Nothing is installed, enabled or started system-wide. As root
// (a container), the cluster runs as an unprivileged user, since PostgreSQL refuses to run as root.
import { execFile, spawnSync } from "node:child_process";
import { chmod, chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { accessSync, constants } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort, TEST_SERVERS_BIN } from "./prometheus.js";

const run = promisify(execFile);

/** The folder holding initdb, pg_ctl and postgres; throws naming the package when there is none. */
function postgresBin(): string {
  const candidates = [TEST_SERVERS_BIN, join(TEST_SERVERS_BIN, "..", "lib", "postgresql")];
  for (const root of ["/usr/lib/postgresql", join(TEST_SERVERS_BIN, "..", "lib", "postgresql")]) {
    const listed = spawnSync("ls", ["-1", root], { encoding: "utf8" });
    if (listed.status === 0)
      for (const version of listed.stdout.trim().split("\n").filter(Boolean).sort().reverse())
        candidates.push(join(root, version, "bin"));
  }
  for (const dir of candidates) {
    try {
      accessSync(join(dir, "pg_ctl"), constants.X_OK);
      accessSync(join(dir, "initdb"), constants.X_OK);
      return dir;
    } catch {
      // Not here: the next place.
    }
  }
  throw new Error(
    "PostgreSQL's initdb and pg_ctl are not installed; the quota ledger tests need them: " +
      "bash scripts/install-test-servers.sh unpacks Debian's postgresql packages where apt is at hand (npm test's pretest runs it)",
  );
}

/** The unprivileged user a root process runs the cluster as, with its uid and gid. */
function clusterUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    const found = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (found.status === 0 && gid.status === 0)
      return { name, uid: Number(found.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error("running as root, and no unprivileged user (postgres, nobody) to run PostgreSQL as");
}

export interface TestPostgres {
  /** `postgres://mdq:…@127.0.0.1:port/postgres`: a password, so tests can check it never shows. */
  url: string;
  password: string;
  port: number;
  /** Stops the server (immediate shutdown) without removing its data: `start` brings it back. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface StartPostgresOptions {
  /** Server libraries to preload (`shared_preload_libraries`), e.g. pg_stat_statements. */
  preload?: readonly string[];
}

/** Starts a fresh cluster; `close` stops it and removes every file it wrote. */
export async function startPostgres(startOptions: StartPostgresOptions = {}): Promise<TestPostgres> {
  const bin = postgresBin();
  const user = clusterUser();
  const dir = await mkdtemp(join(tmpdir(), "mdq-postgres-"));
  const data = join(dir, "data");
  const password = `pw-${Math.random().toString(36).slice(2, 10)}`;
  const port = await freePort();
  const asUser = async (program: string, args: readonly string[]): Promise<void> => {
    const command =
      user === undefined
        ? [join(bin, program), ...args]
        : [
            "setpriv",
            `--reuid=${user.uid}`,
            `--regid=${user.gid}`,
            "--clear-groups",
            join(bin, program),
            ...args,
          ];
    const [file = "", ...rest] = command;
    // Programs unpacked by the pretest find their libraries (libpq) beside them, not on the host.
    const libraries = join(TEST_SERVERS_BIN, "..", "lib", "x86_64-linux-gnu");
    await run(file, rest, {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", LC_ALL: "C", LD_LIBRARY_PATH: libraries },
    });
  };
  if (user !== undefined) {
    await chown(dir, user.uid, user.gid);
    await chmod(dir, 0o700);
  }
  const passwordFile = join(dir, "password");
  await writeFile(passwordFile, password);
  if (user !== undefined) await chown(passwordFile, user.uid, user.gid);
  await asUser("initdb", [
    "-D",
    data,
    "-U",
    "mdq",
    "-A",
    "scram-sha-256",
    `--pwfile=${passwordFile}`,
    "--no-sync",
    "-E",
    "UTF8",
  ]);
  const preload = startOptions.preload?.length
    ? ` -c shared_preload_libraries=${startOptions.preload.join(",")}`
    : "";
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off${preload}`;
  const start = () =>
    asUser("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "-t", "30", "start"]);
  const stop = () => asUser("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
  try {
    await start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://mdq:${password}@127.0.0.1:${port}/postgres`,
    password,
    port,
    start,
    stop,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

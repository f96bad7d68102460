// What the bundle was last built from and what it wrote, so that a build with nothing changed skips it.
// Files are compared by their content's hash, not their times: tsc rewrites a module whose text did not
// change when a module it imports changes its types, and that alone must not cost a bundle. Outputs are
// hashed too, so a bundle that was deleted, or overwritten by anything else, is built again.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `dir`, as a path relative to `root`, sorted; none when `dir` does not exist. */
export function filesUnder(root, dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** Each file's SHA-256 by its path relative to `root`, a missing file as null. */
export function fingerprint(root, paths) {
  const hashes = {};
  for (const path of [...new Set(paths)].sort()) {
    const file = join(root, path);
    hashes[path] = existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : null;
  }
  return hashes;
}

/** Whether every hash in `recorded` is the file's hash now, and no path in `paths` is new to it. */
function unchanged(root, recorded, paths = []) {
  const now = fingerprint(root, [...Object.keys(recorded), ...paths]);
  return Object.entries(now).every(([path, hash]) => recorded[path] === hash);
}

/**
 * Whether the stamp at `file` says the outputs were built from exactly these inputs: the recorded inputs
 * and `inputs` (the files that exist now, so that a new one counts) hash as recorded, and so do the
 * outputs. No stamp, or one from an interrupted build (removed when a build starts), is not up to date.
 */
export function isUpToDate(root, file, inputs) {
  if (!existsSync(file)) return false;
  const stamp = JSON.parse(readFileSync(file, "utf8"));
  return unchanged(root, stamp.inputs, inputs) && unchanged(root, stamp.outputs);
}

/** Forgets the last build: called before building, so a build that stops halfway is never trusted. */
export function clearStamp(file) {
  rmSync(file, { force: true });
}

/** Records `inputs` (hashed before the build read them) and the `outputs` the build wrote. */
export function writeStamp(root, file, inputs, outputs) {
  writeFileSync(file, `${JSON.stringify({ inputs, outputs: fingerprint(root, outputs) }, null, 1)}\n`);
}

// A directory as an output store: files are written under hidden temporary names and renamed on commit.
import { createReadStream } from "node:fs";
import type { Dirent } from "node:fs";
import { link, open, readFile, readdir, rename, stat, unlink } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { OutputStore, StoredObject } from "../../core/contracts.js";
import { isSinkError, SinkError } from "../../errors.js";
import { checkRelativePath } from "../path-template.js";
import { createLocalConditionalObjects } from "./local-conditional-objects.js";
import { checkNoLink, makeFoldersNoLink } from "./no-link-path.js";
import { errnoOf, isMissing, syncDirectory, wrap } from "./local-file-errors.js";
import { stageFile } from "./staged-file.js";
import { finalNameOf, isTemporaryName, temporaryPathFor, writerOf } from "./temporary-names.js";

interface LocalStoreOptions {
  /** The tag of the writing run (core/writer-tag.ts), carried in temporary names. */
  writer?: string;
}

export function createLocalStore(root: string, options: LocalStoreOptions = {}): OutputStore {
  const absoluteRoot = resolve(root);
  const locate = (path: string): string => {
    checkRelativePath(path);
    const full = resolve(absoluteRoot, path);
    // Defence in depth: path templates already refuse escapes, but a store must never trust its caller.
    if (!full.startsWith(absoluteRoot + sep)) {
      throw new SinkError(`"${path}" is outside ${root}`, { code: "SINK_PATH_INVALID" });
    }
    return full;
  };

  /** Every entry under the root (or a folder of it); none when it does not exist yet. */
  const listEntries = async (from = absoluteRoot): Promise<Dirent[]> => {
    try {
      return await readdir(from, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw wrap(`listing ${root}`, error, root);
    }
  };

  /** A path to read: no link on the way, nor as the file itself (either could reach a file outside). */
  const locateToRead = async (path: string): Promise<string> => {
    const full = locate(path);
    await checkNoLink(absoluteRoot, full, root, true);
    return full;
  };

  /** unlink removes a link itself, never its target, but a linked folder on the way would lead outside. */
  const removeFile = async (full: string, action: string): Promise<void> => {
    await checkNoLink(absoluteRoot, full, root);
    await unlink(full).catch((error: unknown) => {
      if (!isMissing(error)) throw wrap(action, error, root);
    });
  };
  const unlinkObject = (path: string): Promise<void> =>
    removeFile(locate(path), `deleting ${join(root, path)}`);

  /** Writes `body` under a hidden temporary name beside `full`, durably; returns that name. */
  const writeTemporary = async (full: string, body: Uint8Array | string): Promise<string> => {
    await makeFoldersNoLink(absoluteRoot, full, root);
    const temp = temporaryPathFor(full, options.writer);
    // "wx" is O_CREAT|O_EXCL: it never opens through a link planted under the temporary name.
    const handle = await open(temp, "wx");
    try {
      await handle.writeFile(body);
      await handle.sync();
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    } finally {
      await handle.close();
    }
    return temp;
  };

  /** Writes a whole object in one step: `replace` renames over it, otherwise it must not exist yet. */
  const writeAtomically = async (
    path: string,
    body: Uint8Array | string,
    replace = true,
  ): Promise<boolean> => {
    const full = locate(path);
    // The run that holds the lock sweeps the lock's leftover temporary files; one it swept while this
    // run was creating the lock or its guard (two runs starting at once) is written again. A replace
    // is not: the swept file may be a paused run's renewal, which must not land late.
    for (let attempt = 1; ; attempt++) {
      const temp = await writeTemporary(full, body).catch((error: unknown) => {
        throw isSinkError(error) ? error : wrap(`writing ${join(root, path)}`, error, root);
      });
      let renamed = false;
      try {
        await checkNoLink(absoluteRoot, full, root);
        // link() fails when the name exists, so of two runs creating one object only one succeeds.
        if (replace) renamed = await rename(temp, full).then(() => true);
        else await link(temp, full);
        // The state and the manifest are commits too: their new name must survive a power loss.
        await syncDirectory(dirname(full));
        return true;
      } catch (error) {
        if (!replace && errnoOf(error) === "EEXIST") return false;
        if (!replace && isMissing(error) && attempt < 3) continue;
        throw isSinkError(error) ? error : wrap(`writing ${join(root, path)}`, error, root);
      } finally {
        if (!renamed) await unlink(temp).catch(() => undefined);
      }
    }
  };

  const readObject = async (path: string): Promise<Buffer | undefined> => {
    const full = await locateToRead(path);
    try {
      return await readFile(full);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw wrap(`reading ${join(root, path)}`, error, root);
    }
  };

  return {
    location: root,
    async stage(path, signal) {
      signal.throwIfAborted();
      const full = locate(path);
      await makeFoldersNoLink(absoluteRoot, full, root);
      return stageFile(full, join(root, path), root, signal, options.writer, () =>
        checkNoLink(absoluteRoot, full, root),
      );
    },
    async putObject(path, body) {
      await writeAtomically(path, body);
    },
    getObject: readObject,
    conditional: createLocalConditionalObjects({
      read: readObject,
      write: writeAtomically,
      remove: (path) => unlinkObject(path),
    }),
    async list(prefix = "") {
      // Only the folder the prefix names is walked: the state's journal is listed on every run, and
      // the output beside it may hold a hundred thousand files.
      const folder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
      const entries = await listEntries(folder === "" ? absoluteRoot : await locateToRead(folder));
      const objects: StoredObject[] = [];
      for (const entry of entries) {
        // A link is not part of the output; isFile() is false for it, so nothing outside is listed.
        if (!entry.isFile() || isTemporaryName(entry.name)) continue;
        const full = join(entry.parentPath, entry.name);
        const path = relative(absoluteRoot, full).split(sep).join("/");
        if (!path.startsWith(prefix)) continue;
        const { size } = await stat(full);
        objects.push({ path, bytes: size });
      }
      return objects.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    deleteObject: unlinkObject,
    async openRead(path) {
      return createReadStream(await locateToRead(path));
    },
    async removeLeftovers(owns) {
      const entries = await listEntries();
      const removed: string[] = [];
      for (const entry of entries) {
        if (!entry.isFile() || !isTemporaryName(entry.name)) continue;
        const directory = relative(absoluteRoot, entry.parentPath).split(sep).join("/");
        const finalPath = (directory === "" ? "" : `${directory}/`) + finalNameOf(entry.name);
        if (!owns(finalPath, writerOf(entry.name))) continue;
        const leftover = join(entry.parentPath, entry.name);
        await removeFile(leftover, `removing a leftover temporary file of ${join(root, finalPath)}`);
        removed.push(finalPath);
      }
      return removed;
    },
    async close() {},
  };
}

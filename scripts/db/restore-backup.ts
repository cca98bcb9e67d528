import { existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { Refusal } from "./cli";
import { isEmptyDir, openBackup, refuseIfHeld, unpackBackup } from "./embedded";
import { formatSummary, summarize } from "./summary";

/**
 * Loads a backup (db:backup's tarball) into `dataDir`. A directory that already holds a database is kept:
 * refused, or with `replace` moved aside (never deleted). The backup is loaded into a sibling directory
 * first and put in place only once it opened, so a failed restore leaves `dataDir` as it was. Whether a
 * process holds `dataDir` is checked before the unpack and again after it (`loaded` runs between the
 * two): a service started meanwhile must not have its directory moved away.
 */
export async function restoreBackup(options: {
  file: string;
  dataDir: string;
  replace: boolean;
  notInUse: boolean;
  loaded?: () => void | Promise<void>;
}): Promise<void> {
  const { file, dataDir, notInUse } = options;
  const occupied = !isEmptyDir(dataDir);
  if (occupied) {
    refuseIfHeld(dataDir, "restore into it", notInUse);
    if (!options.replace) {
      throw new Refusal(
        `${dataDir} is not empty. Restore into another PGLITE_DIR, or add --replace to move it aside first`,
      );
    }
  }

  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const loading = path.join(
    path.dirname(path.resolve(dataDir)),
    `.${path.basename(dataDir)}.restoring-${stamp}`,
  );
  try {
    await unpackBackup(file, loading);
    const db = await openBackup(file, loading);
    try {
      const query = async (text: string) => (await db.query<unknown[]>(text, [], { rowMode: "array" })).rows;
      console.log(`${file} opens and holds:`);
      for (const line of formatSummary(await summarize(query))) console.log(line);
    } finally {
      // A clean close also removes the postmaster.pid the live copy carried.
      await db.close();
    }
    await options.loaded?.();
    if (occupied) {
      refuseIfHeld(dataDir, "restore into it", notInUse);
      const aside = `${path.resolve(dataDir)}.replaced-${stamp}`;
      renameSync(dataDir, aside);
      console.log(`The database that was in ${dataDir} is now in ${aside}.`);
    } else if (existsSync(dataDir)) {
      // Empty at the first look, but a service may have started into it during the unpack: look again, and
      // remove nothing but the empty directory it was.
      refuseIfHeld(dataDir, "restore into it", notInUse);
      if (!isEmptyDir(dataDir)) {
        throw new Refusal(
          `${dataDir} was empty when the restore began and is not now: something (a service started on it?) wrote into it meanwhile. Nothing was changed; stop it and restore again`,
        );
      }
      rmSync(dataDir, { recursive: true });
    }
    renameSync(loading, dataDir);
  } finally {
    rmSync(loading, { recursive: true, force: true });
  }
}

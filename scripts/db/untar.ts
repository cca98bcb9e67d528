import { createReadStream } from "node:fs";
import { type FileHandle, mkdir, open } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import { Refusal } from "./cli";

const BLOCK = 512;

/** A header's string field, up to its first NUL. */
const field = (head: Buffer, at: number, width: number) =>
  head
    .subarray(at, at + width)
    .toString("utf8")
    .split("\0")[0]!;
const octal = (head: Buffer, at: number, width: number) =>
  Number.parseInt(field(head, at, width).trim() || "0", 8);

/** A member's path inside `into`; a path that climbs out of it is refused. */
function inside(into: string, head: Buffer): string {
  const prefix = field(head, 257, 6) === "ustar" ? field(head, 345, 155) : "";
  const name = (prefix ? `${prefix}/` : "") + field(head, 0, 100);
  const relative = path.normalize(name.replace(/^\/+/, ""));
  if (relative.startsWith("..") || path.isAbsolute(relative))
    throw new Refusal(`unsafe path in backup: ${name}`);
  return path.join(into, relative);
}

/**
 * Unpacks a gzipped tar (db:backup's, or PGlite's own dumpDataDir) into `into` as it reads it: memory
 * stays flat whatever the size. Regular files and directories only, which is all a data directory holds.
 */
export async function extractTarGz(file: string, into: string): Promise<void> {
  await mkdir(into, { recursive: true, mode: 0o700 });
  const gunzip = createGunzip();
  pipeline(createReadStream(file), gunzip, () => {});
  let buffer: Buffer = Buffer.alloc(0);
  let member: { out: FileHandle | null; left: number; pad: number } | null = null;
  let ended = false;
  for await (const chunk of gunzip) {
    buffer = buffer.length ? Buffer.concat([buffer, chunk as Buffer]) : (chunk as Buffer);
    while (!ended) {
      if (member && member.left > 0) {
        const take = Math.min(member.left, buffer.length);
        if (take === 0) break;
        await member.out?.write(buffer.subarray(0, take));
        buffer = buffer.subarray(take);
        member.left -= take;
      } else if (member) {
        if (buffer.length < member.pad) break;
        buffer = buffer.subarray(member.pad);
        await member.out?.close();
        member = null;
      } else {
        if (buffer.length < BLOCK) break;
        const head = buffer.subarray(0, BLOCK);
        buffer = buffer.subarray(BLOCK);
        if (head.every((byte) => byte === 0)) {
          ended = true;
          break;
        }
        const [target, type, size] = [inside(into, head), field(head, 156, 1), octal(head, 124, 12)];
        const mode = octal(head, 100, 8) & 0o777;
        const pad = (BLOCK - (size % BLOCK)) % BLOCK;
        if (type === "5") await mkdir(target, { recursive: true, mode: mode || 0o700 });
        else if (type === "0" || type === "") {
          await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
          member = { out: await open(target, "w", mode || 0o600), left: size, pad };
        } else member = { out: null, left: size, pad };
      }
    }
  }
  await member?.out?.close();
  if (!ended) throw new Refusal(`${file} ends before its archive does: it is not a whole backup`);
}

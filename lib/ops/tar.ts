import "server-only";
import { createReadStream } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { pipeline, Readable } from "node:stream";
import { createGzip } from "node:zlib";

const BLOCK = 512;

/** One ustar header: the fields a reader needs, in octal where the format wants numbers. */
function header(name: string, stats: { mode: number; size: number; mtimeMs: number }, type: "0" | "5") {
  if (Buffer.byteLength(name) > 100) throw new Error(`path too long for a tar header: ${name}`);
  const block = Buffer.alloc(BLOCK);
  const put = (text: string, at: number, width: number) => block.write(text, at, width, "utf8");
  const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, "0")}\0`;
  put(name, 0, 100);
  put(octal(stats.mode & 0o7777, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(stats.size, 12), 124, 12);
  put(octal(Math.floor(stats.mtimeMs / 1000), 12), 136, 12);
  put("        ", 148, 8);
  put(type, 156, 1);
  put("ustar\0", 257, 6);
  put("00", 263, 2);
  const sum = block.reduce((total, byte) => total + byte, 0);
  put(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8);
  return block;
}

async function* entries(root: string, dir = ""): AsyncGenerator<Buffer> {
  for (const name of (await readdir(path.join(root, dir))).sort()) {
    const relative = dir ? `${dir}/${name}` : name;
    const stats = await lstat(path.join(root, relative));
    if (stats.isDirectory()) {
      yield header(`${relative}/`, { ...stats, size: 0 }, "5");
      yield* entries(root, relative);
    } else if (stats.isFile()) {
      yield header(relative, stats, "0");
      for await (const chunk of createReadStream(path.join(root, relative))) yield chunk as Buffer;
      const pad = (BLOCK - (stats.size % BLOCK)) % BLOCK;
      if (pad) yield Buffer.alloc(pad);
    }
  }
}

async function* archive(root: string) {
  yield* entries(root);
  yield Buffer.alloc(BLOCK * 2);
}

/**
 * A gzipped tar (ustar) of a directory's files, read as it is sent: memory stays flat whatever the size.
 * PGlite loads it as it loads its own dumps (`loadDataDir`), and `tar -xzf` reads it.
 */
export function tarGz(root: string): Readable {
  const gzip = createGzip();
  // A failed read destroys the output with its error, so the reader sees it rather than a short file.
  pipeline(Readable.from(archive(root)), gzip, () => {});
  return gzip;
}

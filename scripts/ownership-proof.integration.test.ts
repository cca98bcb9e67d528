import path from "node:path";
import { recoverMessageAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { runScript } from "@/testing/run-script";

// `npm run ownership-proof`, as an operator runs it where the receiving wallet's key is kept.
const script = path.join(process.cwd(), "scripts", "ownership-proof.ts");

/** Runs the command with `stdin` as its standard input. */
function run(args: string[], stdin: string, env: Record<string, string | undefined> = {}) {
  return runScript(
    script,
    args,
    { PUBLIC_ORIGIN: "https://feedback.example.com", ...env },
    process.cwd(),
    stdin,
  );
}

describe("npm run ownership-proof", () => {
  it("signs the public origin with the key from standard input, as x402scan verifies, and prints no key", async () => {
    const key = generatePrivateKey();
    const ran = await run([], `${key}\n`);
    expect(ran.code, ran.stderr).toBe(0);
    const proof = /^proof\s+(0x[0-9a-f]{130})$/m.exec(ran.stdout)?.[1] as `0x${string}`;
    const signer = await recoverMessageAddress({ message: "https://feedback.example.com", signature: proof });
    expect(signer).toBe(privateKeyToAccount(key).address);
    expect(ran.stdout).toContain(`wallet  ${signer}`);
    expect(ran.stdout + ran.stderr).not.toContain(key.slice(2));
  });

  it("signs the origin --origin names, without its path", async () => {
    const key = generatePrivateKey();
    const ran = await run(["--origin", "https://api.example.org/some/path"], key.slice(2));
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^origin {2}https:\/\/api\.example\.org$/m);
  });

  it("refuses, in one line, what is not a key or an origin", async () => {
    const notKey = await run([], "my secret phrase\n");
    expect(notKey.code).toBe(1);
    expect(notKey.stderr.trim()).toMatch(/^Refused: standard input is not a 32-byte private key/);
    expect(notKey.stderr).not.toContain("my secret phrase");
    const noOrigin = await run([], generatePrivateKey(), { PUBLIC_ORIGIN: undefined });
    expect(noOrigin.stderr.trim()).toMatch(/^Refused: no origin/);
  });
});

/**
 * `npm run ownership-proof [-- --origin https://feedback.example.com]`: signs the service's public origin
 * with a receiving wallet's key (X402_PAY_TO's, or MPP_RECIPIENT's), the proof x402scan checks in
 * /.well-known/x402. Run it once, where the wallet's key is kept: the key is read from standard input
 * (never an argument, which a shell's history keeps), is not stored, and the server never needs it.
 * The origin is PUBLIC_ORIGIN from the service's .env files unless --origin names one.
 */
import { ownershipProofSigner, signOwnershipProof } from "../lib/chain/ownership-proof";
import { loadServiceEnv, parseArgs, Refusal, runCommand } from "./db/cli";

await runCommand(async () => {
  const { values } = parseArgs(process.argv.slice(2), ["origin"], []);
  loadServiceEnv();
  const given = values.origin ?? process.env.PUBLIC_ORIGIN;
  if (!given) throw new Refusal("no origin: set PUBLIC_ORIGIN, or pass --origin https://your.host");
  let origin: string;
  try {
    origin = new URL(given).origin;
  } catch {
    throw new Refusal(`--origin ${given} is not a URL`);
  }
  if (process.stdin.isTTY) console.error("Paste the receiving wallet's private key, then Enter and Ctrl-D:");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const key = Buffer.concat(chunks).toString("utf8").trim();
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) {
    throw new Refusal("standard input is not a 32-byte private key (64 hex characters, 0x optional)");
  }
  const privateKey = (key.startsWith("0x") ? key : `0x${key}`) as `0x${string}`;
  const proof = signOwnershipProof(origin, privateKey);
  const signer = await ownershipProofSigner(origin, proof);
  console.log(`origin  ${origin}`);
  console.log(`wallet  ${signer}`);
  console.log(`proof   ${proof}`);
  console.log(
    "\nAdd the proof to X402_OWNERSHIP_PROOFS (comma-separated) on every instance; npm run doctor checks it.",
  );
  return 0;
});

import { getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { transferWithAuthorizationTypes } from "@/lib/chain/eip3009";
import { x402SignedByPayer } from "./payer-proof";
import { parseX402Credential, type X402Offer } from "./x402-credential";

const NOW = 1_800_000_000;
const offer: X402Offer = {
  requirement: {
    scheme: "exact",
    network: "eip155:31337",
    amount: "10000",
    asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    maxTimeoutSeconds: 120,
    extra: { name: "USD Coin", version: "2" },
  },
  resource: {
    url: "http://localhost:3000/api/namespace/feedback",
    description: "x",
    mimeType: "application/json",
  },
};
const payer = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());

/** A credential for the offer, signed by `signer`, naming `from` as its payer. */
async function credential(signer = payer, from = payer.address, signature?: `0x${string}`) {
  const authorization = {
    from,
    to: offer.requirement.payTo as `0x${string}`,
    value: "10000",
    validAfter: String(NOW - 600),
    validBefore: String(NOW + 120),
    nonce: `0x${"12".repeat(32)}` as const,
  };
  const signed = await signer.signTypedData({
    domain: {
      name: "USD Coin",
      version: "2",
      chainId: 31337,
      verifyingContract: getAddress(offer.requirement.asset),
    },
    types: transferWithAuthorizationTypes,
    primaryType: "TransferWithAuthorization",
    message: {
      ...authorization,
      value: 10000n,
      validAfter: BigInt(NOW - 600),
      validBefore: BigInt(NOW + 120),
    },
  });
  const envelope = {
    x402Version: 2,
    accepted: offer.requirement,
    payload: { signature: signature ?? signed, authorization },
  };
  return parseX402Credential(Buffer.from(JSON.stringify(envelope)).toString("base64"), offer, NOW);
}

describe("an x402 payer proven without the network", () => {
  it("is proven by its own 65-byte signature", async () => {
    expect(x402SignedByPayer(await credential())).toBe(true);
  });

  it("is not proven by another key's signature, garbage, or a longer (contract wallet's) signature", async () => {
    expect(x402SignedByPayer(await credential(other, payer.address))).toBe(false);
    expect(x402SignedByPayer(await credential(payer, payer.address, `0x${"11".repeat(64)}1b`))).toBe(false);
    expect(x402SignedByPayer(await credential(payer, payer.address, `0x${"11".repeat(97)}`))).toBe(false);
  });
});

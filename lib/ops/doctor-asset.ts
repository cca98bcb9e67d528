import "server-only";
import {
  domainSeparator,
  encodeFunctionData,
  type Hex,
  maxUint256,
  type PublicClient,
  parseAbi,
  parseSignature,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { call, getCode, readContract } from "viem/actions";
import { eip3009Abi, type TokenDomain, transferWithAuthorizationTypes } from "@/lib/chain/eip3009";
import { isChainUnreachable, refusalReason } from "@/lib/chain/failures";
import type { ServerEnv } from "@/lib/env";
import { type DoctorItem, fail, ok, warn } from "./doctor-item";

const tokenAbi = parseAbi([
  "function name() view returns (string)",
  "function version() view returns (string)",
  "function decimals() view returns (uint8)",
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
]);

export const DOMAIN_ITEM = "x402 asset EIP-3009 domain";
export const DECIMALS_ITEM = "x402 asset decimals";

/**
 * Whether the token accepts a zero-value transferWithAuthorization signed over `domain` by a throwaway
 * key, simulated with eth_call (nothing is sent): true, or the token's reason for refusing. Zero value
 * keeps an empty wallet's balance out of it, so a refusal is about the signature (FiatToken checks the
 * signature before the balance, and says "invalid signature").
 */
async function accepts(client: PublicClient, domain: TokenDomain): Promise<true | string> {
  const account = privateKeyToAccount(generatePrivateKey());
  const message = {
    from: account.address,
    to: account.address,
    value: 0n,
    validAfter: 0n,
    validBefore: maxUint256,
    nonce: generatePrivateKey(),
  };
  const signature = await account.signTypedData({
    domain,
    types: transferWithAuthorizationTypes,
    primaryType: "TransferWithAuthorization",
    message,
  });
  const { r, s, v, yParity } = parseSignature(signature);
  const { from, to, value, validAfter, validBefore, nonce } = message;
  const data = encodeFunctionData({
    abi: eip3009Abi,
    functionName: "transferWithAuthorization",
    args: [from, to, value, validAfter, validBefore, nonce, Number(v ?? BigInt(yParity + 27)), r, s],
  });
  try {
    await call(client, { account: account.address, to: domain.verifyingContract, data });
    return true;
  } catch (error) {
    if (isChainUnreachable(error)) throw error;
    return refusalReason(error);
  }
}

const read = <F extends "name" | "version" | "DOMAIN_SEPARATOR">(client: PublicClient, address: Hex, fn: F) =>
  readContract(client, { address, abi: tokenAbi, functionName: fn }).catch((error) => {
    if (isChainUnreachable(error)) throw error;
    return undefined;
  });

/** X402_ASSET is an EIP-3009 token whose EIP-712 domain is X402_ASSET_NAME / X402_ASSET_VERSION. */
export async function assetDomainItem(
  client: PublicClient,
  e: ServerEnv,
  chainId: number,
): Promise<DoctorItem> {
  const asset = e.X402_ASSET as Hex;
  const code = await getCode(client, { address: asset });
  if (!code || code === "0x") {
    return fail(
      DOMAIN_ITEM,
      `no contract at X402_ASSET (${asset}) on ${e.X402_NETWORK}`,
      "set X402_ASSET to the network's USDC",
    );
  }
  const domain = {
    name: e.X402_ASSET_NAME,
    version: e.X402_ASSET_VERSION,
    chainId,
    verifyingContract: asset,
  };
  const verdict = await accepts(client, domain);
  if (verdict === true) {
    // An address that also accepts a signature over a wrong domain checks none (a permissive fallback).
    if ((await accepts(client, { ...domain, name: `${domain.name} (wrong)` })) === true) {
      return fail(
        DOMAIN_ITEM,
        "X402_ASSET accepts authorizations signed over any domain: it checks no EIP-3009 signature",
        "set X402_ASSET to the network's EIP-3009 USDC",
      );
    }
    return ok(
      DOMAIN_ITEM,
      `the token accepts a transferWithAuthorization signed over "${domain.name}" version "${domain.version}" on chain ${chainId} (simulated, nothing sent)`,
    );
  }
  const [name, version, separator] = await Promise.all([
    read(client, asset, "name"),
    read(client, asset, "version"),
    read(client, asset, "DOMAIN_SEPARATOR"),
  ]);
  const wrong: [variable: string, configured: string, onChain: string | undefined, fn: string][] = [
    ["X402_ASSET_NAME", e.X402_ASSET_NAME, name, "name()"],
    ["X402_ASSET_VERSION", e.X402_ASSET_VERSION, version, "version()"],
  ];
  const problems = wrong.filter(([, configured, onChain]) => onChain !== undefined && onChain !== configured);
  if (problems.length > 0) {
    return fail(
      DOMAIN_ITEM,
      `the token refused a test authorization (${verdict}): ${problems.map(([v, c, o, fn]) => `${v} is "${c}" but the token's ${fn} is "${o}"`).join("; ")}`,
      `set ${problems.map(([v, , o]) => `${v}="${o}"`).join(" and ")}`,
    );
  }
  if (separator !== undefined && separator === domainSeparator({ domain })) {
    return warn(
      DOMAIN_ITEM,
      `the token refused a zero-value test authorization (${verdict}), though its DOMAIN_SEPARATOR() matches the configured domain`,
      "check that X402_ASSET is the network's EIP-3009 USDC",
    );
  }
  return fail(
    DOMAIN_ITEM,
    `the token refused an authorization signed over the configured domain (${verdict})`,
    "set X402_ASSET to the network's EIP-3009 USDC, and X402_ASSET_NAME / X402_ASSET_VERSION to its EIP-712 domain",
  );
}

/** X402_ASSET_DECIMALS is the token's decimals(): prices are converted to base units with it. */
export async function assetDecimalsItem(client: PublicClient, e: ServerEnv): Promise<DoctorItem> {
  const asset = e.X402_ASSET as Hex;
  let decimals: number;
  try {
    decimals = await readContract(client, { address: asset, abi: tokenAbi, functionName: "decimals" });
  } catch (error) {
    if (isChainUnreachable(error)) throw error;
    return fail(
      DECIMALS_ITEM,
      `X402_ASSET (${asset}) answers no decimals()`,
      "set X402_ASSET to the network's USDC",
    );
  }
  if (decimals === e.X402_ASSET_DECIMALS)
    return ok(DECIMALS_ITEM, `${decimals}, as X402_ASSET_DECIMALS says`);
  return fail(
    DECIMALS_ITEM,
    `X402_ASSET_DECIMALS is ${e.X402_ASSET_DECIMALS} but the token's decimals() is ${decimals}: every price would be off by a factor of 10^${Math.abs(decimals - e.X402_ASSET_DECIMALS)}`,
    `set X402_ASSET_DECIMALS=${decimals}`,
  );
}

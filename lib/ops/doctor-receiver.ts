import "server-only";
import type { Hex, PublicClient } from "viem";
import { getCode } from "viem/actions";
import { type DoctorItem, fail, ok, warn } from "./doctor-item";

/** The item naming a chain's receiving wallet. */
export const receiverItemName = (chain: "x402" | "tempo") => `${chain} receiving wallet`;

/**
 * The wallet a chain's payments go to holds no code, unless the operator says it is a contract wallet on
 * purpose: code there is a token, a contract of someone else's or a mistake, and money paid to it moves only
 * as that code allows.
 */
export async function receiverItem(
  client: PublicClient,
  options: {
    chain: "x402" | "tempo";
    network: string;
    variable: string;
    address: string;
    isContract: boolean;
  },
): Promise<DoctorItem> {
  const item = receiverItemName(options.chain);
  const flag = `${options.variable}_IS_CONTRACT`;
  const code = await getCode(client, { address: options.address as Hex });
  const hasCode = code !== undefined && code !== "0x";
  const where = `${options.variable} ${options.address} on ${options.network}`;
  if (hasCode && !options.isContract) {
    return fail(
      item,
      `${where} holds code: it is a contract, not a wallet, and every payment sent to it moves only as that code allows`,
      `set ${options.variable} to the wallet that receives the money; if it is your contract wallet on purpose (a multisig, a smart account), set ${flag}=true`,
    );
  }
  if (!hasCode && options.isContract) {
    return warn(
      item,
      `${flag} is true but ${where} holds no code: a contract wallet not deployed yet, or the wrong address`,
      `check ${options.variable}, or unset ${flag} for a plain wallet`,
    );
  }
  return ok(item, `${where} is ${hasCode ? "a contract wallet, as configured" : "a wallet (no code)"}`);
}

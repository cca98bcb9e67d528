import { Mppx, tempo } from "mppx/client";
import { privateKeyToAccount } from "viem/accounts";
import { type TempoDevnetInfo, tempoClient } from "@/scripts/devnet/tempo";

/** The official mppx client paying tempo charges from a devnet wallet; records each credential it sends. */
export function createMppFetch(info: TempoDevnetInfo, privateKey: `0x${string}`, fetchImpl: typeof fetch) {
  const sent: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const auth = new Headers(init?.headers).get("authorization");
    if (auth) sent.push(auth);
    return fetchImpl(input, init);
  };
  const account = privateKeyToAccount(privateKey);
  const client = Mppx.create({
    methods: [tempo.charge({ account, getClient: () => tempoClient(info) })],
    fetch: recording,
    // mppx would otherwise replace globalThis.fetch for the whole test process.
    polyfill: false,
  });
  return {
    address: account.address,
    fetch: client.fetch,
    sent,
    /** Signs a credential for a 402 without sending it (the Authorization header's value). */
    createCredential: (response: Response) => client.createCredential(response),
  };
}

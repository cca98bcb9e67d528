import {
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  maxUint256,
  parseSignature,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  eip3009Abi as abi,
  cancelAuthorizationTypes,
  transferWithAuthorizationTypes,
} from "@/lib/chain/eip3009";
import type { DevnetInfo } from "@/scripts/devnet/start-devnet";

/** The authorization inside a PAYMENT-SIGNATURE header: who signed it and its nonce. */
export function authorizationOf(paymentSignature: string): { from: Hex; nonce: Hex; value: string } {
  return JSON.parse(Buffer.from(paymentSignature, "base64").toString()).payload.authorization;
}

/** What an attacker who holds the payer's key can do to its own EIP-3009 nonces, without paying us. */
export function nonceBurner(devnet: DevnetInfo, privateKey: Hex) {
  const account = privateKeyToAccount(privateKey);
  const transport = http(devnet.x402.rpcUrl);
  const wallet = createWalletClient({ account, transport });
  const reader = createPublicClient({ transport });
  const domain = {
    name: devnet.x402.assetName,
    version: devnet.x402.assetVersion,
    chainId: devnet.x402.chainId,
    verifyingContract: devnet.x402.asset,
  } as const;
  const mined = async (hash: Hex): Promise<TransactionReceipt> => {
    const receipt = await reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${hash} reverted`);
    return receipt;
  };
  return {
    /** Cancels the nonce with the token's own cancelAuthorization: gas only, no USDC moves. */
    async cancel(nonce: Hex) {
      const signature = await account.signTypedData({
        domain,
        types: cancelAuthorizationTypes,
        primaryType: "CancelAuthorization",
        message: { authorizer: account.address, nonce },
      });
      const { v, r, s } = parseSignature(signature);
      return mined(
        await wallet.writeContract({
          chain: null,
          address: devnet.x402.asset,
          abi,
          functionName: "cancelAuthorization",
          args: [account.address, nonce, Number(v), r, s],
        }),
      );
    },
    /** Spends the nonce on a transfer of `value` to `to` (anyone but the service). */
    async spendElsewhere(nonce: Hex, to: Hex, value = 1n) {
      const message = { from: account.address, to, value, validAfter: 0n, validBefore: maxUint256, nonce };
      const signature = await account.signTypedData({
        domain,
        types: transferWithAuthorizationTypes,
        primaryType: "TransferWithAuthorization",
        message,
      });
      const { v, r, s } = parseSignature(signature);
      return mined(
        await wallet.writeContract({
          chain: null,
          address: devnet.x402.asset,
          abi,
          functionName: "transferWithAuthorization",
          args: [message.from, to, value, 0n, maxUint256, nonce, Number(v), r, s],
        }),
      );
    },
  };
}

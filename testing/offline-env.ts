// The unit project's environment: every setting the service reads, with each chain pointed at a port
// nothing listens on (the discard port), so a unit test that reaches for a chain fails at once
// instead of waiting. Domain tests pass their own database handle; with DATABASE_URL set, each worker
// gets a database of its own beside it (testing/unit-global-setup.ts).
import { inject } from "vitest";
import { workerDatabaseUrl } from "./worker-devnet";

const NOWHERE = "http://127.0.0.1:9";
const key = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

const offline: Record<string, string> = {
  NODE_ENV: "test",
  PUBLIC_ORIGIN: "http://localhost:3000",
  APP_SECRET: "unit-tests-only-secret-0123456789abcdef",
  PGLITE_DIR: "memory://",
  X402_NETWORK: "eip155:31337",
  X402_RPC_URL: NOWHERE,
  X402_ASSET: address(0xa5),
  X402_PAY_TO: address(0xb0),
  X402_FACILITATOR_PRIVATE_KEY: key(1),
  MPP_SECRET_KEY: "unit-tests-only-mpp-secret-0123456789abcdef",
  MPP_RECIPIENT: address(0xb1),
  TEMPO_RPC_URL: NOWHERE,
  TEMPO_CHAIN_ID: "1337",
  PAYOUT_PRIVATE_KEY: key(2),
};
for (const [name, value] of Object.entries(offline)) process.env[name] ??= value;
const database = workerDatabaseUrl();
if (database) process.env.DATABASE_URL = database;
// Every in-memory database starts from the run's migrated template (testing/memory-template.ts).
process.env.FEEDBACK_MEMORY_TEMPLATE = inject("memoryTemplate");

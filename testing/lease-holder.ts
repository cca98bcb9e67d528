/**
 * Another instance, for the signer-lease tests: a process of its own, with the default configuration,
 * that takes the leases on the addresses it is given, prints what it got, and holds them until it is
 * killed. Run with `node --conditions=react-server --import tsx testing/lease-holder.ts <address>…`.
 */
import { holdLease } from "@/lib/payment/signer-lease";

for (const address of process.argv.slice(2)) {
  process.stdout.write(`${address} ${await holdLease(address)}\n`);
}
process.stdout.write("ready\n");
// Holds on, as a live instance does, until the test kills it.
setInterval(() => undefined, 60_000);

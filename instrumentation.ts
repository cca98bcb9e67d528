/** Runs once when a server process starts; the work itself lives in lib/startup.ts (Node.js only). */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("@/lib/startup");
    await startServer();
  }
}

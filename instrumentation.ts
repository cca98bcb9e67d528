/**
 * Runs once when a server process starts: refuses to start on bad configuration (naming each bad
 * variable), applies migrations, finishes any paid write a previous crash left half-done, and keeps
 * reconciling in the background.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env, InvalidEnvError } = await import("@/lib/env");
  try {
    env();
  } catch (error) {
    if (error instanceof InvalidEnvError) {
      console.error(`${error.message}\nSee .env.example and the README's Configuration section.`);
      process.exit(1);
    }
    throw error;
  }
  const { startRecoveryLoop } = await import("@/lib/domain/recovery-loop");
  await startRecoveryLoop();
}

/**
 * A devnet at a real chain's pace: `DEVNET_BLOCK_TIME=2` turns the EVM chain's instant mining off, so a
 * transaction waits for the next block as on Base (a block every 2 s), and the Tempo chain makes a block
 * every 0.6 s, Tempo's documented block time (docs.tempo.xyz, "Consensus and Finality": about 600 ms).
 * Unset, the EVM chain mines each transaction on arrival (and a block every 2 s besides), and Tempo makes
 * a block every second.
 */
export type DevnetPace = {
  /** Seconds between the EVM chain's blocks; nothing is mined between them. */
  evmBlockSeconds: number;
  /** Seconds between the Tempo chain's blocks. */
  tempoBlockSeconds: number;
};

/** Tempo's documented block time. */
export const TEMPO_BLOCK_SECONDS = 0.6;

/** The pace `DEVNET_BLOCK_TIME` asks for (whole seconds, 1 to 60); null when unset (instant mining). */
export function devnetPace(raw = process.env.DEVNET_BLOCK_TIME): DevnetPace | null {
  if (raw === undefined || raw.trim() === "") return null;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60) {
    throw new Error(`DEVNET_BLOCK_TIME must be whole seconds between 1 and 60 (Base: 2), not "${raw}"`);
  }
  return { evmBlockSeconds: seconds, tempoBlockSeconds: TEMPO_BLOCK_SECONDS };
}

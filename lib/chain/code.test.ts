import { describe, expect, it, vi } from "vitest";
import { cachingGetCode } from "./code";

const TOKEN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const PAYER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const OTHER = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const THIRD = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

describe("cachingGetCode", () => {
  it("asks for the token's code once, whatever the address's case", async () => {
    const getCode = vi.fn(async () => "0x6080" as const);
    const cached = cachingGetCode(getCode, [TOKEN]);
    expect(await cached({ address: TOKEN })).toBe("0x6080");
    expect(await cached({ address: TOKEN.toLowerCase() as `0x${string}` })).toBe("0x6080");
    expect(getCode).toHaveBeenCalledTimes(1);
  });

  it("keeps another address's code for a few seconds only", async () => {
    let now = 1_000;
    const getCode = vi.fn(async () => "0x" as const);
    const cached = cachingGetCode(getCode, [TOKEN], { ttlMs: 5_000, now: () => now });
    await cached({ address: PAYER });
    now += 4_999;
    expect(await cached({ address: PAYER.toLowerCase() as `0x${string}` })).toBe("0x");
    expect(getCode).toHaveBeenCalledTimes(1);
    now += 1;
    await cached({ address: PAYER });
    expect(getCode).toHaveBeenCalledTimes(2);
  });

  it("never keeps another address's failure, and keeps at most `max` addresses", async () => {
    const getCode = vi
      .fn<(args: { address: `0x${string}` }) => Promise<`0x${string}` | undefined>>()
      .mockRejectedValueOnce(new Error("timeout"))
      .mockResolvedValue("0x");
    const cached = cachingGetCode(getCode, [TOKEN], { max: 2 });
    await expect(cached({ address: PAYER })).rejects.toThrow("timeout");
    await cached({ address: PAYER });
    await cached({ address: PAYER });
    expect(getCode).toHaveBeenCalledTimes(2);
    await cached({ address: OTHER });
    await cached({ address: THIRD });
    // PAYER, the oldest, made room for THIRD.
    await cached({ address: PAYER });
    await cached({ address: THIRD });
    expect(getCode).toHaveBeenCalledTimes(5);
  });

  it("keeps neither an empty answer nor a failure", async () => {
    const getCode = vi
      .fn<(args: { address: `0x${string}` }) => Promise<`0x${string}` | undefined>>()
      .mockResolvedValueOnce("0x")
      .mockResolvedValueOnce(undefined)
      .mockRejectedValueOnce(new Error("timeout"))
      .mockResolvedValue("0x6080");
    const cached = cachingGetCode(getCode, [TOKEN]);
    expect(await cached({ address: TOKEN })).toBe("0x");
    expect(await cached({ address: TOKEN })).toBeUndefined();
    await expect(cached({ address: TOKEN })).rejects.toThrow("timeout");
    expect(await cached({ address: TOKEN })).toBe("0x6080");
    expect(await cached({ address: TOKEN })).toBe("0x6080");
    expect(getCode).toHaveBeenCalledTimes(4);
  });
});

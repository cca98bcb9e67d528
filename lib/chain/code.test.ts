import { describe, expect, it, vi } from "vitest";
import { cachingGetCode } from "./code";

const TOKEN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const PAYER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

describe("cachingGetCode", () => {
  it("asks for the token's code once, whatever the address's case", async () => {
    const getCode = vi.fn(async () => "0x6080" as const);
    const cached = cachingGetCode(getCode, [TOKEN]);
    expect(await cached({ address: TOKEN })).toBe("0x6080");
    expect(await cached({ address: TOKEN.toLowerCase() as `0x${string}` })).toBe("0x6080");
    expect(getCode).toHaveBeenCalledTimes(1);
  });

  it("always asks anew for other addresses", async () => {
    const getCode = vi.fn(async () => "0x" as const);
    const cached = cachingGetCode(getCode, [TOKEN]);
    await cached({ address: PAYER });
    await cached({ address: PAYER });
    expect(getCode).toHaveBeenCalledTimes(2);
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

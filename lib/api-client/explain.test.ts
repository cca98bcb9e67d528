import { describe, expect, it } from "vitest";
import { explainError, isUserRejection } from "./explain";
import { ApiError } from "./http";

describe("errors in plain words", () => {
  it("recognises a wallet's refusal however deeply it is wrapped", () => {
    const rejected = Object.assign(new Error("User rejected the request."), { code: 4001 });
    const wrapped = new Error("Failed to create payment payload: User rejected the request.", {
      cause: rejected,
    });
    expect(isUserRejection(wrapped)).toBe(true);
    expect(explainError(wrapped, "pay")).toBe("You declined the payment in your wallet. Nothing was paid.");
    expect(explainError(rejected, "sign-in")).toMatch(/declined to sign the message/);
  });

  it("passes on the service's own explanation, and names an ended session", () => {
    expect(
      explainError(
        new ApiError(409, "namespace-taken", 'The namespace "acme" is already registered.'),
        "pay",
      ),
    ).toBe('The namespace "acme" is already registered.');
    expect(
      explainError(new ApiError(402, "authentication-required", "Authentication Required"), "load"),
    ).toMatch(/session has ended/);
  });

  it("explains a price above what was shown, and a missing wallet", () => {
    const overPrice = new Error(
      "Failed to create payment payload: All payment requirements were rejected by spendControls",
    );
    expect(explainError(overPrice, "pay")).toMatch(/more than the price you were shown/);
    expect(explainError(new Error("Provider not found."), "connect")).toMatch(/No browser wallet was found/);
  });
});

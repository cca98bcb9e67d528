import { describe, expect, it } from "vitest";
import { headlineOf } from "./delivery-words";

const item = (events: string[]) => ({ id: "fb_1", title: "t", url: "https://x/dashboard", events });

describe("headlineOf", () => {
  it("lists a resolve's message under the resolution, as the message itself says it", () => {
    // A chat format's resolve: the status change leads the delivery, the resolution is folded into it.
    const resolve = {
      eventType: "feedback.status_changed",
      items: [item(["feedback.status_changed", "feedback.resolved"])],
    };
    expect(headlineOf(resolve)).toBe("feedback.resolved");
    const paid = {
      eventType: "feedback.status_changed",
      items: [item(["feedback.status_changed", "feedback.resolved", "reward.paid"])],
    };
    expect(headlineOf(paid)).toBe("feedback.resolved");
  });

  it("keeps a delivery's own type otherwise", () => {
    expect(
      headlineOf({ eventType: "feedback.status_changed", items: [item(["feedback.status_changed"])] }),
    ).toBe("feedback.status_changed");
    expect(headlineOf({ eventType: "webhook.test", items: [] })).toBe("webhook.test");
    expect(headlineOf({ eventType: "digest.daily", items: [] })).toBe("digest.daily");
  });
});

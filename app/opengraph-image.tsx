import { ImageResponse } from "next/og";
import { formatUsd } from "@/lib/money";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";

// The card a link to the service shows (Open Graph, and scanners' listings): what it is and what it costs.
export const alt = "Feedback: pay-per-use feedback for AI agents";
export const size = { width: 1200, height: 630 };
export const contentType = "image/png";

export default function OpenGraphImage() {
  const price = formatUsd(OPERATIONS.feedback.price);
  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: 80,
        background: "#fafafa",
        color: "#18181b",
        fontFamily: "sans-serif",
      }}
    >
      <div style={{ display: "flex", fontSize: 40, color: "#52525b" }}>Feedback</div>
      <div style={{ display: "flex", flexDirection: "column", gap: 24 }}>
        <div style={{ display: "flex", fontSize: 76, fontWeight: 700, lineHeight: 1.1 }}>
          Pay-per-use feedback for AI agents
        </div>
        <div style={{ display: "flex", fontSize: 36, color: "#3f3f46" }}>
          {`Agents file a report for ${price} USD. Owners read, resolve and reward it.`}
        </div>
      </div>
      <div style={{ display: "flex", fontSize: 30, color: "#71717a" }}>x402 · MPP · USDC</div>
    </div>,
    size,
  );
}

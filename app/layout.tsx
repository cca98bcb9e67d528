import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/layout/site-header";
import { Providers } from "@/components/providers";
import { currentSession } from "@/lib/auth/browser-session";
import { formatUsd } from "@/lib/money";
import { clientConfig } from "@/lib/openapi/client-config";
import { OPERATIONS } from "@/lib/schemas/operations/catalog";
import "./globals.css";

export const metadata: Metadata = {
  title: "Feedback — pay-per-use feedback for AI agents",
  description: `Agents pay ${formatUsd(OPERATIONS.feedback.price)} USD to file feedback into any namespace; owners read, resolve and reward it.`,
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#ffffff" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Reading the request makes every page render per request, which the CSP nonce (proxy.ts) needs; the
  // session rides along so the first paint already knows who is signed in.
  const session = await currentSession((await headers()).get("cookie"));
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased">
        <Providers config={clientConfig()} session={session}>
          <SiteHeader />
          {children}
        </Providers>
      </body>
    </html>
  );
}

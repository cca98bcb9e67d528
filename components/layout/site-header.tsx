import Link from "next/link";
import { InboxIcon } from "@/components/ui/icons";
import { WalletMenu } from "@/components/wallet/wallet-menu";
import { NavLinks } from "./nav-links";

/** The bar on every page: the name, where to go, and the wallet. */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-30 border-b border-zinc-200/80 bg-white/85 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-3 sm:gap-4 sm:px-6">
        <Link href="/" className="flex items-center gap-2 rounded-md font-semibold tracking-tight">
          <span
            className="grid size-7 place-items-center rounded-lg bg-indigo-600 text-white"
            aria-hidden="true"
          >
            <InboxIcon className="size-4" />
          </span>
          {/* Only the icon shows on a phone; the name stays for screen readers, so the link keeps a name. */}
          <span className="sr-only sm:not-sr-only">Feedback</span>
        </Link>
        <NavLinks />
        <div className="ml-auto">
          <WalletMenu />
        </div>
      </div>
    </header>
  );
}

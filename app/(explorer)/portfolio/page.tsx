import type { Metadata } from "next";
import dynamic from "next/dynamic";
import { PageSkeleton } from "@/components/ui/page-skeleton";

export const metadata: Metadata = { title: "Portfolio" };

// The connected wallet lives in the browser: the page is a shell the client fills.
const PortfolioView = dynamic(() => import("@/components/portfolio/portfolio-view").then((m) => m.PortfolioView), { loading: () => <PageSkeleton /> });

export default function PortfolioPage() {
  return <PortfolioView />;
}
